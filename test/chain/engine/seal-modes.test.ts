/**
 * Seal modes in the engine: an instant-seal dev chain seals with no hashing (nonce and mixHash zero, no Ethash
 * cache ever built) on a genesis of its own; an Ethash chain refuses a zero-sealed block as an instant-seal block;
 * an instant chain refuses a proof-of-work seal; a datadir of one mode opened in the other says which it holds;
 * the external-miner API is refused on an instant chain; instant is dev only.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToUtf8 } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { BlockImportError } from '../../../src/chain/import/import-error.js';
import { ChainEngine } from '../../../src/chain/engine/engine.js';
import { MiningUnavailableError } from '../../../src/chain/miner/index.js';
import { INSTANT_SEAL_GENESIS_EXTRA_DATA, type SealMode } from '../../../src/chain/engine/seal-mode.js';
import { persistentCacheDir } from '../pow/helpers.js';
import { addresses, signedTx } from './fixtures.js';
import { scopedEngines } from './scoped-engines.js';

const engines = scopedEngines('seal-modes-');
const newDir = engines.newDir;

function open(seal: SealMode, dataDir = newDir(), powCacheDir = persistentCacheDir): Promise<ChainEngine> {
  return engines.open({ dataDir, network: 'dev', seal, powCacheDir });
}

const isZero = (bytes: Uint8Array) => bytes.every((b) => b === 0);

describe('instant seal', () => {
  it('seals blocks with nonce and mixHash zero and never builds an Ethash cache', async () => {
    const dataDir = newDir();
    const cacheDir = join(dataDir, 'ethash');
    const engine = await open('instant', dataDir, cacheDir);
    await engine.pool.add(signedTx(engine.chain, { from: 1, nonce: 0n, to: addresses[2], value: 5n }));
    const [first, second] = await engine.miner.mineBlocks(2);
    for (const { block } of [first!, second!]) {
      expect(isZero(block.header.nonce) && isZero(block.header.mixHash)).toBe(true);
    }
    expect(first!.transactions).toHaveLength(1);
    expect(engine.chain.getHead().header.number).toBe(2n);
    // No hashing at all: the cache directory was never written.
    expect(existsSync(cacheDir) ? readdirSync(cacheDir) : []).toEqual([]);
  });

  it('is another chain than the Ethash dev chain: its genesis says "svc-node dev instant-seal"', async () => {
    const [instant, ethash] = await Promise.all([open('instant'), open('ethash')]);
    expect(bytesToUtf8(instant.chain.getGenesis().header.extraData)).toBe(INSTANT_SEAL_GENESIS_EXTRA_DATA);
    expect(bytesToUtf8(ethash.chain.getGenesis().header.extraData)).toBe('svc-node dev');
    expect(instant.chain.getGenesis().header.stateRoot).toEqual(ethash.chain.getGenesis().header.stateRoot);
    expect(instant.chain.getGenesis().hash()).not.toEqual(ethash.chain.getGenesis().hash());
    expect(instant.sealMode).toBe('instant');
  });

  it('refuses a block with a proof-of-work seal, saying the chain is instant-seal', async () => {
    const engine = await open('instant');
    const assembled = await engine.chain.assemble({ transactions: [], coinbase: addresses[0]! });
    const sealed = assembled.seal(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 7]), new Uint8Array(32).fill(1));
    const refused = await engine.chain.importBlock(sealed).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BlockImportError);
    expect((refused as BlockImportError).failure).toBe('invalid-seal');
    expect((refused as BlockImportError).message).toMatch(/not an instant seal .*this is an instant-seal dev chain/);
  });

  it('has no external-miner API, but starts, stops and reports its sealer', async () => {
    const engine = await open('instant');
    const calls: Array<() => Promise<unknown>> = [
      () => engine.miner.getWork(),
      () => engine.miner.submitWork(new Uint8Array(8), new Uint8Array(32), new Uint8Array(32)),
    ];
    for (const call of calls) {
      const refused = await call().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(MiningUnavailableError);
      expect((refused as MiningUnavailableError).consensus).toBe('instant');
    }
    expect(() => engine.miner.submitHashrate(1n, 'x')).toThrow(MiningUnavailableError);
    expect(engine.miner.isMining()).toBe(false);
    engine.miner.start();
    expect(engine.miner.isMining()).toBe(true);
    expect(engine.miner.hashrate()).toBe(0n);
    await engine.miner.stop();
    expect(engine.miner.isMining()).toBe(false);
  });

  it('is for the dev network only', async () => {
    await expect(ChainEngine.open({ dataDir: newDir(), network: 'mordor', seal: 'instant' })).rejects.toThrow(
      /dev network only/,
    );
  });
});

describe('an Ethash chain and instant-seal blocks', () => {
  it('refuses a zero-sealed block as an instant-seal block, before any Ethash hashing', async () => {
    const dataDir = newDir();
    const cacheDir = join(dataDir, 'ethash');
    const engine = await open('ethash', dataDir, cacheDir);
    const assembled = await engine.chain.assemble({ transactions: [], coinbase: addresses[0]! });
    const refused = await engine.chain
      .importBlock(assembled.seal(new Uint8Array(8), new Uint8Array(32)))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BlockImportError);
    expect((refused as BlockImportError).failure).toBe('invalid-seal');
    expect((refused as BlockImportError).message).toMatch(
      /block 1 0x[0-9a-f]{64}: an instant-seal block \(nonce and mixHash zero, no proof of work\) on a chain sealed with Ethash/,
    );
    expect(engine.chain.getHead().header.number).toBe(0n);
    expect(existsSync(cacheDir) ? readdirSync(cacheDir) : []).toEqual([]);
  });
});

describe('a datadir holds one seal mode', () => {
  it.each([
    [
      'instant',
      'ethash',
      /holds an instant-seal dev chain \(genesis 0x[0-9a-f]{64}\), and this node runs a dev chain sealed with Ethash: start it with --seal instant/,
    ],
    [
      'ethash',
      'instant',
      /holds a dev chain sealed with Ethash \(genesis 0x[0-9a-f]{64}\), and this node runs an instant-seal dev chain: start it with --seal ethash/,
    ],
  ] as const)(
    'a %s datadir opened with seal %s says which chain it holds and what to do',
    async (first, second, message) => {
      const dataDir = newDir();
      await (await ChainEngine.open({ dataDir, network: 'dev', seal: first, powCacheDir: persistentCacheDir })).close();
      await expect(
        ChainEngine.open({ dataDir, network: 'dev', seal: second, powCacheDir: persistentCacheDir }),
      ).rejects.toThrow(message);
    },
  );
});
