import type { Block } from '@ethereumjs/block';
import { bytesToBigInt, bytesToHex, equalsBytes, hexToBytes } from '@ethereumjs/util';
import { afterEach, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { BlockImportError } from '../../../src/chain/import/import-error.js';
import { Miner, MiningUnavailableError, type MinerOptions, type MinerPow } from '../../../src/chain/miner/index.js';
import { DEV_MINIMUM_DIFFICULTY } from '../../../src/chain/networks/index.js';
import { boundaryBytes, type Ethash } from '../../../src/chain/pow/index.js';
import type { TxPool } from '../../../src/chain/txpool/index.js';
import {
  addresses,
  openNoProofDevChain,
  openPowDevChain,
  poolFor,
  signedTx,
  MINING_WAIT_MS,
  tempDir,
  waitFor,
} from './fixtures.js';

const COINBASE = hexToBytes('0x00000000000000000000000000000000000c0ffe');
const RECIPIENT = hexToBytes('0x00000000000000000000000000000000000000aa');
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Rig {
  chain: Blockchain;
  ethash: Ethash;
  pool: TxPool;
  miner: Miner;
}

async function powRig(options: Partial<MinerOptions> = {}): Promise<Rig> {
  const tmp = tempDir('miner-');
  const { chain, ethash } = await openPowDevChain(tmp.dir);
  const pool = poolFor(chain);
  const miner = new Miner({ chain, pool, pow: ethash, consensus: 'pow', coinbase: COINBASE, ...options });
  cleanups.push(async () => {
    await miner.close();
    await chain.close();
    tmp.remove();
  });
  return { chain, ethash, pool, miner };
}

const transfer = (chain: Blockchain, from: number, nonce: bigint, value = 1n) =>
  signedTx(chain, { from, nonce, to: RECIPIENT, value });

/** Every block from 1 to the head, oldest first. */
async function canonicalBlocks(chain: Blockchain): Promise<Block[]> {
  const out: Block[] = [];
  for (let n = 1n; n <= chain.getHead().header.number; n++) out.push((await chain.getBlock(n))!);
  return out;
}

/** A seal for `powHash` found by the pow module, as an external miner would. */
async function solve(ethash: Ethash, work: { powHash: Uint8Array; boundary: Uint8Array; blockNumber: bigint }) {
  const difficulty = (1n << 256n) / bytesToBigInt(work.boundary);
  const seal = await ethash.mine(work.powHash, difficulty, work.blockNumber, 0n, 10_000);
  if (seal === undefined) throw new Error('no seal found');
  return seal;
}

describe('dev policy', () => {
  it('seals every pending transfer into one block with a seal Ethash.verify accepts', async () => {
    const { chain, ethash, pool, miner } = await powRig({ policy: 'dev' });
    const txs = [0, 1, 2].flatMap((from) => [0n, 1n].map((nonce) => transfer(chain, from, nonce, 5n)));
    for (const tx of txs) await pool.add(tx);
    expect(pool.pendingCount).toBe(6);

    miner.start();
    await waitFor(() => chain.getHead().header.number >= 1n && pool.size === 0, MINING_WAIT_MS, 'the first dev block');
    const head = chain.getHead();
    expect(head.header.number).toBe(1n);
    expect(head.transactions.map((t) => bytesToHex(t.hash())).sort()).toEqual(
      txs.map((t) => bytesToHex(t.hash())).sort(),
    );
    expect(head.header.difficulty).toBe(DEV_MINIMUM_DIFFICULTY);
    expect(head.header.coinbase.bytes).toEqual(COINBASE);
    expect(await ethash.verify(head.header)).toBe(true);
    expect(await (await chain.stateAt('latest'))!.getBalance(RECIPIENT)).toBe(30n);
    expect(miner.blocksMined).toBe(1);
    expect(miner.isRunning).toBe(true);
    expect(miner.isMining()).toBe(true);
  });

  it('batches transfers that arrive together while running, and mines each exactly once', async () => {
    const { chain, ethash, pool, miner } = await powRig({ policy: 'dev' });
    miner.start();
    const txs = Array.from({ length: 40 }, (_, i) => transfer(chain, i % 4, BigInt(Math.floor(i / 4))));
    await Promise.all(txs.map((tx) => pool.add(tx)));
    await waitFor(() => pool.size === 0, MINING_WAIT_MS, 'the pool to drain');
    const blocks = await canonicalBlocks(chain);
    const included = blocks.flatMap((b) => b.transactions.map((t) => bytesToHex(t.hash())));
    expect(included.sort()).toEqual(txs.map((t) => bytesToHex(t.hash())).sort());
    expect(blocks.length).toBeLessThan(txs.length / 2);
    for (const b of blocks) expect(await ethash.verify(b.header)).toBe(true);
  });

  it('with no pending transactions seals an empty block every blockTime, and nothing once stopped', async () => {
    const { chain, miner } = await powRig({ policy: 'dev', blockTimeSeconds: 0.05 });
    miner.start();
    await waitFor(() => chain.getHead().header.number >= 2n, MINING_WAIT_MS, 'two timed blocks');
    expect(chain.getHead().transactions).toHaveLength(0);
    await miner.stop();
    const stoppedAt = chain.getHead().header.number;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(chain.getHead().header.number).toBe(stoppedAt);
    expect(miner.isRunning).toBe(false);
  });

  it('with blockTime 0 seals nothing without transactions', async () => {
    const { chain, miner } = await powRig({ policy: 'dev', blockTimeSeconds: 0 });
    miner.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(chain.getHead().header.number).toBe(0n);
  });
});

describe('seal checks on import', () => {
  it('refuses a block with a wrong mix digest or a wrong nonce, and takes the right seal', async () => {
    const { chain, ethash } = await powRig();
    const assembled = await chain.assemble({ transactions: [transfer(chain, 0, 0n)], coinbase: COINBASE });
    const header = assembled.template.header;
    const { sealHash } = await import('../../../src/chain/pow/index.js');
    const powHash = sealHash(header);
    const good = (await ethash.mine(powHash, header.difficulty, header.number, 0n, 1000))!;

    const wrongMix = Uint8Array.from(good.mixDigest);
    wrongMix[0] ^= 1;
    await expect(chain.importBlock(assembled.seal(good.nonce, wrongMix))).rejects.toMatchObject({
      failure: 'invalid-seal',
    });

    // Another nonce with the first nonce's mix digest: hashimoto gives a different mix, so the seal is refused.
    const otherNonce = Uint8Array.from(good.nonce);
    otherNonce[7] ^= 1;
    const refused = chain.importBlock(assembled.seal(otherNonce, good.mixDigest));
    await expect(refused).rejects.toBeInstanceOf(BlockImportError);
    await expect(refused).rejects.toMatchObject({ failure: 'invalid-seal' });
    expect(chain.getHead().header.number).toBe(0n);

    const result = await chain.importBlock(assembled.seal(good.nonce, good.mixDigest));
    expect(result.status).toBe('head');
  });
});

describe('external miners', () => {
  it('getWork → solve with the pow module → submitWork true, and the head advances', async () => {
    const { chain, ethash, pool, miner } = await powRig();
    const work = await miner.getWork();
    expect(work.blockNumber).toBe(1n);
    expect(work.seedHash).toEqual(new Uint8Array(32)); // epoch 0
    expect(work.boundary).toEqual(boundaryBytes(DEV_MINIMUM_DIFFICULTY));
    expect((await miner.getWork()).powHash).toEqual(work.powHash); // nothing changed: same template
    expect(miner.isMining()).toBe(true); // an external miner is active
    expect(miner.isRunning).toBe(false);

    // A new pending transaction refreshes the template; the old one stays submittable until the head moves.
    await pool.add(transfer(chain, 0, 0n, 9n));
    const withTx = await miner.getWork();
    expect(withTx.powHash).not.toEqual(work.powHash);

    const seal = await solve(ethash, withTx);
    const wrongMix = Uint8Array.from(seal.mixDigest);
    wrongMix[31] ^= 0xff;
    expect(await miner.submitWork(seal.nonce, withTx.powHash, wrongMix)).toBe(false);
    expect(await miner.submitWork(seal.nonce, new Uint8Array(32).fill(1), seal.mixDigest)).toBe(false); // unknown work
    expect(await miner.submitWork(seal.nonce, withTx.powHash, seal.mixDigest)).toBe(true);

    const head = chain.getHead();
    expect(head.header.number).toBe(1n);
    expect(head.header.nonce).toEqual(seal.nonce);
    expect(head.header.mixHash).toEqual(seal.mixDigest);
    expect(head.transactions).toHaveLength(1);
    expect(await ethash.verify(head.header)).toBe(true);
    expect(pool.size).toBe(0);
    expect(miner.blocksMined).toBe(1);
    expect(await miner.submitWork(seal.nonce, withTx.powHash, seal.mixDigest)).toBe(false); // already used
  });

  it('a solution for work prepared before the head moved is stale: submitWork false', async () => {
    const { chain, ethash, miner } = await powRig();
    const old = await miner.getWork();
    const [mined] = await miner.mineBlocks(1);
    expect(chain.getHead().hash()).toEqual(mined.block.hash());

    const seal = await solve(ethash, old);
    expect(await miner.submitWork(seal.nonce, old.powHash, seal.mixDigest)).toBe(false);
    expect(chain.getHead().hash()).toEqual(mined.block.hash());

    const fresh = await miner.getWork();
    expect(fresh.blockNumber).toBe(2n);
    expect(fresh.powHash).not.toEqual(old.powHash);
  });

  it('aggregates hash-rate reports per client and forgets them after 30 s', async () => {
    let now = 1_000_000;
    const { miner } = await powRig({ now: () => now });
    const a = new Uint8Array(32).fill(0xa);
    const b = new Uint8Array(32).fill(0xb);
    expect(miner.isMining()).toBe(false);
    expect(miner.hashrate()).toBe(0n);
    expect(miner.submitHashrate(100n, a)).toBe(true);
    expect(miner.submitHashrate(250n, b)).toBe(true);
    expect(miner.hashrate()).toBe(350n);
    miner.submitHashrate(50n, a); // the latest report of a client replaces its earlier one
    expect(miner.hashrate()).toBe(300n);
    now += 20_000;
    miner.submitHashrate(70n, b);
    now += 15_000; // a's report is 35 s old, b's 15 s
    expect(miner.hashrate()).toBe(70n);
    expect(miner.isMining()).toBe(true);
    now += 16_000;
    expect(miner.hashrate()).toBe(0n);
    expect(miner.isMining()).toBe(false);
  });
});

describe('internal CPU miner', () => {
  it('start mines sealed blocks back to back, stop ends it', async () => {
    const { chain, ethash, miner } = await powRig({ policy: 'continuous' });
    expect(miner.start()).toBe(true);
    expect(miner.start()).toBe(true); // idempotent
    await waitFor(() => chain.getHead().header.number >= 3n, MINING_WAIT_MS, 'three mined blocks');
    expect(miner.isRunning).toBe(true);
    expect(miner.isMining()).toBe(true);
    expect(miner.hashrate()).toBeGreaterThan(0n);
    expect(await miner.stop()).toBe(true);
    const stoppedAt = chain.getHead().header.number;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(chain.getHead().header.number).toBe(stoppedAt);
    expect(miner.isRunning).toBe(false);
    expect(miner.hashrate()).toBe(0n);
    expect(miner.blocksMined).toBe(Number(stoppedAt));
    for (const b of await canonicalBlocks(chain)) expect(await ethash.verify(b.header)).toBe(true);
  });

  it('restarts on a block from elsewhere and when transactions arrive for an empty template', async () => {
    const tmp = tempDir('miner-');
    const { chain, ethash } = await openPowDevChain(tmp.dir);
    const pool = poolFor(chain);
    // The real pow module behind a gate: while closed, every chunk fails, as at a real network's difficulty.
    const searched: { powHash: string; blockNumber: bigint }[] = [];
    let open = false;
    const gated: MinerPow = {
      mine: async (powHash, difficulty, blockNumber, start, iters) => {
        searched.push({ powHash: bytesToHex(powHash), blockNumber: BigInt(blockNumber) });
        if (!open) return undefined;
        return ethash.mine(powHash, difficulty, blockNumber, start, iters);
      },
      verifySeal: (seal) => ethash.verifySeal(seal),
      workPackage: (...args) => ethash.workPackage(...args),
    };
    const miner = new Miner({ chain, pool, pow: gated, consensus: 'pow', coinbase: COINBASE });
    cleanups.push(async () => {
      await miner.close();
      await chain.close();
      tmp.remove();
    });
    miner.start();
    await waitFor(() => searched.length > 0, 5_000, 'the first search');
    const emptyTemplate = searched[0].powHash;

    await pool.add(transfer(chain, 0, 0n));
    await waitFor(() => searched.some((s) => s.powHash !== emptyTemplate), 5_000, 'a search on a new template');

    // A block from elsewhere (another coinbase, no transactions) becomes the head.
    const other = await chain.assemble({ transactions: [], coinbase: addresses[9] });
    const { sealHash } = await import('../../../src/chain/pow/index.js');
    const h = other.template.header;
    const seal = (await ethash.mine(sealHash(h), h.difficulty, h.number, 0n, 1000))!;
    const external = other.seal(seal.nonce, seal.mixDigest);
    expect((await chain.importBlock(external)).status).toBe('head');
    await waitFor(() => searched.some((s) => s.blockNumber === 2n), 5_000, 'a search on the new head');

    open = true;
    // A nonce at dev difficulty is a random search: seconds, and more while other suites load the machine.
    // At or past 2: the miner goes on to block 3 at once, and a poll delayed by a loaded machine may see only that.
    await waitFor(() => chain.getHead().header.number >= 2n, 40_000, 'the miner to seal on the new head');
    await miner.stop();
    const mined = (await chain.getBlock(2n))!;
    expect(mined.header.parentHash).toEqual(external.hash());
    expect(mined.transactions).toHaveLength(1);
    expect(await ethash.verify(mined.header)).toBe(true);
  });
});

describe('mineBlocks', () => {
  it('seals n blocks on demand with the supplied timestamps, pool transactions in the first', async () => {
    const { chain, ethash, pool, miner } = await powRig();
    for (let i = 0n; i < 3n; i++) await pool.add(transfer(chain, 1, i));
    let next = 1_000n;
    const blocks = await miner.mineBlocks(3, { timestamp: () => next++ });
    expect(blocks.map((m) => m.block.header.number)).toEqual([1n, 2n, 3n]);
    expect(blocks.map((m) => m.block.header.timestamp)).toEqual([1_000n, 1_001n, 1_002n]);
    expect(blocks.map((m) => m.transactions.length)).toEqual([3, 0, 0]);
    expect(pool.size).toBe(0);
    expect(equalsBytes(chain.getHead().hash(), blocks[2].block.hash())).toBe(true);
    for (const m of blocks) expect(await ethash.verify(m.block.header)).toBe(true);
    expect(miner.blocksMined).toBe(3);
  });

  it('works without proof of work (NoProof), where every PoW call throws MiningUnavailableError', async () => {
    const tmp = tempDir('miner-');
    const chain = await openNoProofDevChain(tmp.dir);
    const pool = poolFor(chain);
    const miner = new Miner({ chain, pool, consensus: 'none', coinbase: COINBASE });
    cleanups.push(async () => {
      await miner.close();
      await chain.close();
      tmp.remove();
    });
    await pool.add(transfer(chain, 2, 0n));
    const [first, second] = await miner.mineBlocks(2);
    expect(first.transactions).toHaveLength(1);
    expect(second.block.header.number).toBe(2n);
    expect(second.block.header.nonce).toEqual(new Uint8Array(8));

    expect(() => miner.start()).toThrow(MiningUnavailableError);
    await expect(miner.stop()).rejects.toBeInstanceOf(MiningUnavailableError);
    await expect(miner.getWork()).rejects.toBeInstanceOf(MiningUnavailableError);
    await expect(miner.submitWork(new Uint8Array(8), new Uint8Array(32), new Uint8Array(32))).rejects.toBeInstanceOf(
      MiningUnavailableError,
    );
    expect(() => miner.submitHashrate(1n, new Uint8Array(32))).toThrow(MiningUnavailableError);
    expect(() => miner.hashrate()).toThrow(MiningUnavailableError);
    expect(() => miner.isMining()).toThrow('The mining algorithm is not pow');
    expect(miner.isRunning).toBe(false);
  });
});
