/**
 * The engine on a dev chain with checkpointing (no proof of work, so blocks are cheap): 16-field headers after
 * activation, checkpoint blocks (not executed, no reward), fork choice by (latest checkpoint, total difficulty),
 * no reorganisation below the latest checkpoint, persistence of the weight, and the database's header form.
 */
import type { Block } from '@ethereumjs/block';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { BlockImportError } from '../../../src/chain/import/import-error.js';
import type { ReorgEvent } from '../../../src/chain/view/chain-events.js';
import {
  checkpointOf,
  Ecip1097Header,
  signCheckpoint,
  type CheckpointSignature,
} from '../../../src/chain/checkpointing/index.js';
import { engineNetworkOf, etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev, DEV_ACCOUNTS, devWithCheckpointing } from '../../../src/chain/networks/index.js';
import { mine, openDevChain, tempDir } from '../engine/fixtures.js';

const key = (i: number) => hexToBytes(DEV_ACCOUNTS[i].privateKey as `0x${string}`);
const signers = (hash: Uint8Array, accounts: number[]): CheckpointSignature[] =>
  accounts.map((i) => signCheckpoint(hash, key(i)));
const hex = bytesToHex;

function openCheckpointingChain(dataDir: string): Promise<Blockchain> {
  return Blockchain.open({
    dataDir,
    network: engineNetworkOf(devWithCheckpointing),
    rules: etcEngineRules(dev),
    noProof: true,
  });
}

/** Imports the checkpoint block on `parent` signed by `accounts` (default 7 and 8). */
async function checkpoint(chain: Blockchain, parent: Block, accounts = [7, 8]) {
  const block = (await chain.checkpointBlock(parent.hash(), signers(parent.hash(), accounts)))!;
  return { block, result: await chain.importBlock(block) };
}

async function mineOn(chain: Blockchain, parent: Block, count: number): Promise<Block[]> {
  const out: Block[] = [];
  for (let i = 0; i < count; i++)
    out.push((await mine(chain, [], { parentHash: (out.at(-1) ?? parent).hash() })).block);
  return out;
}

describe('fork choice with checkpoints', () => {
  const tmp = tempDir('checkpoint-chain-');
  let chain: Blockchain;
  const reorgs: ReorgEvent[] = [];
  let b3: Block;
  let cp4: Block;
  let b5: Block;
  let cp6: Block;

  beforeAll(async () => {
    chain = await openCheckpointingChain(tmp.dir);
    chain.on('reorg', (e) => reorgs.push(e));
  });
  afterAll(async () => {
    await chain?.close();
    tmp.remove();
  });

  it('mines 16-field headers from the activation block (the genesis keeps 15)', async () => {
    const blocks = await mineOn(chain, chain.getGenesis(), 3);
    b3 = blocks[2]!;
    expect(chain.getGenesis().header.raw()).toHaveLength(15);
    for (const b of blocks) {
      expect(b.header).toBeInstanceOf(Ecip1097Header);
      expect(b.header.raw()).toHaveLength(16);
      expect(checkpointOf(b.header)).toBeUndefined();
    }
    expect(hex(chain.getHead().hash())).toBe(hex(b3.hash()));
    expect(chain.getHeadLastCheckpoint()).toBe(0n);
    expect(await chain.getLastCheckpointNumber(b3.hash())).toBe(0n);
  });

  it('imports a checkpoint block as the head: not executed, no reward, latest checkpoint = its number', async () => {
    const { block, result } = await checkpoint(chain, b3);
    cp4 = block;
    expect(result.status).toBe('head');
    expect(chain.getHeadLastCheckpoint()).toBe(4n);
    expect(await chain.getLastCheckpointNumber(cp4.hash())).toBe(4n);
    expect(hex(cp4.header.stateRoot)).toBe(hex(b3.header.stateRoot));
    expect(await chain.getReceipts(cp4.hash())).toEqual([]);
    expect(chain.getHeadTotalDifficulty()).toBe((await chain.getTotalDifficulty(b3.hash()))! + b3.header.difficulty);
    // Read back from storage: same bytes, same checkpoint.
    const stored = (await chain.getBlock(4n))!;
    expect(hex(stored.serialize())).toBe(hex(cp4.serialize()));
    expect(checkpointOf(stored.header)!.signatures).toHaveLength(2);
  });

  it('refuses as the new head a heavier chain without the checkpoint', async () => {
    const side = await mineOn(chain, b3, 3);
    const sideTd = (await chain.getTotalDifficulty(side[2]!.hash()))!;
    expect(sideTd).toBeGreaterThan(chain.getHeadTotalDifficulty());
    expect(hex(chain.getHead().hash())).toBe(hex(cp4.hash()));
    expect(await chain.isCanonical(side[0]!.hash())).toBe(false);
    // Importing it again changes nothing either.
    expect((await chain.importBlock(side[2]!)).status).toBe('known');
    expect(hex(chain.getHead().hash())).toBe(hex(cp4.hash()));
  });

  it('builds on the checkpoint, carrying its number forward', async () => {
    [b5] = await mineOn(chain, cp4, 1);
    expect(hex(chain.getHead().hash())).toBe(hex(b5!.hash()));
    expect(await chain.getLastCheckpointNumber(b5!.hash())).toBe(4n);
    expect(chain.getHeadLastCheckpoint()).toBe(4n);
  });

  it('prefers a later checkpoint over more total difficulty (a reorganisation above the latest checkpoint)', async () => {
    const heavier = await mineOn(chain, b5, 3);
    expect(hex(chain.getHead().hash())).toBe(hex(heavier[2]!.hash()));
    const tdBefore = chain.getHeadTotalDifficulty();
    reorgs.length = 0;
    const { block, result } = await checkpoint(chain, b5, [8, 9]);
    cp6 = block;
    expect(result.status).toBe('head');
    expect(chain.getHeadTotalDifficulty()).toBeLessThan(tdBefore);
    expect(chain.getHeadLastCheckpoint()).toBe(6n);
    expect(reorgs).toHaveLength(1);
    expect(reorgs[0]!.dropped.map((b) => hex(b.hash()))).toEqual([...heavier].reverse().map((b) => hex(b.hash())));
  });

  it('never reorganises below the latest checkpoint, even to a chain with a later (conflicting) checkpoint', async () => {
    const side = await mineOn(chain, b3, 4); // 4'..7' (4'..6' exist already: known)
    const { result } = await checkpoint(chain, side[3]!); // checkpoint at 8 on a branch without block 6's checkpoint
    expect(result.status).toBe('side');
    expect(hex(chain.getHead().hash())).toBe(hex(cp6.hash()));
    expect(chain.getHeadLastCheckpoint()).toBe(6n);
  });

  it('refuses an invalid checkpoint with the rule that failed', async () => {
    const outsider = (await chain.checkpointBlock(cp6.hash(), signers(cp6.hash(), [0, 7])))!;
    const error = await chain.importBlock(outsider).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockImportError);
    expect(error).toMatchObject({ failure: 'invalid-checkpoint', checkpointFault: { code: 'not-federation-signer' } });
    expect(hex(chain.getHead().hash())).toBe(hex(cp6.hash()));
  });

  it('keeps head and weights across a restart; refuses to reopen the database without checkpointing', async () => {
    await chain.close();
    await expect(openDevChain(tmp.dir)).rejects.toThrow(
      /created with ECIP-1097 checkpointing from block 1, but the node runs without/,
    );
    chain = await openCheckpointingChain(tmp.dir);
    expect(hex(chain.getHead().hash())).toBe(hex(cp6.hash()));
    expect(chain.getHeadLastCheckpoint()).toBe(6n);
    expect(await chain.getLastCheckpointNumber(b5.hash())).toBe(4n);
  });
});

describe('header form against the chain setting', () => {
  const tmpA = tempDir('checkpoint-form-a-');
  const tmpB = tempDir('checkpoint-form-b-');
  afterAll(() => {
    tmpA.remove();
    tmpB.remove();
  });

  it('a chain without checkpointing refuses 16-field headers, one with it refuses 15-field ones; neither opens the other database', async () => {
    const withCp = await openCheckpointingChain(tmpA.dir);
    const without = await openDevChain(tmpB.dir);
    try {
      const { block: cpBlock } = await mine(withCp, []);
      const { block: plainBlock } = await mine(without, []);
      // Same genesis, so each block's parent is known to the other chain.
      expect(hex(withCp.getGenesis().hash())).toBe(hex(without.getGenesis().hash()));
      await expect(without.importBlock(cpBlock)).rejects.toMatchObject({
        failure: 'invalid-header',
        checkpointFault: { code: 'unexpected-checkpoint-field' },
      });
      await expect(withCp.importBlock(plainBlock)).rejects.toMatchObject({
        failure: 'invalid-header',
        checkpointFault: { code: 'missing-checkpoint-field' },
      });
      await expect(without.checkpointBlock(without.getGenesis().hash(), [])).resolves.toBeDefined();
      await expect(without.getLastCheckpointNumber(plainBlock.hash())).resolves.toBeUndefined();
    } finally {
      await withCp.close();
      await without.close();
    }
    await expect(openCheckpointingChain(tmpB.dir)).rejects.toThrow(/created without ECIP-1097 checkpointing/);
  });
});
