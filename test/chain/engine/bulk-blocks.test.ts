/**
 * Bulk empty blocks (Blockchain.extendHead through Miner.mineBlocks): chunks of blocks share one database batch,
 * and the chain they make is the one block-by-block mining would: every block links to its parent and has a
 * readable state (the coinbase holds every reward), the head and state survive a restart, and a fresh engine
 * imports the blocks with full validation. A chunk that fails part-way leaves nothing of itself behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChainEngine } from '../../../src/chain/engine.js';
import { addresses, signedTx, tempDir } from './fixtures.js';

const opened: ChainEngine[] = [];
const dirs: Array<{ remove: () => void }> = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((e) => e.close()));
  for (const d of dirs.splice(0)) d.remove();
});

function newDir(): string {
  const d = tempDir('bulk-blocks-');
  dirs.push(d);
  return d.dir;
}

const coinbase = new Uint8Array(20).fill(0xcb);

async function open(dataDir = newDir()): Promise<ChainEngine> {
  const engine = await ChainEngine.open({ dataDir, network: 'dev', seal: 'instant', mining: { coinbase } });
  opened.push(engine);
  return engine;
}

async function close(engine: ChainEngine): Promise<void> {
  opened.splice(opened.indexOf(engine), 1);
  await engine.close();
}

// More than two chunks of Blockchain's BULK_CHUNK (500), so chunk boundaries are crossed.
const BLOCKS = 1203;

describe('bulk empty blocks', () => {
  it('builds a valid chain across chunks that survives a restart and re-imports with full validation', async () => {
    const dataDir = newDir();
    const engine = await open(dataDir);
    const heads: bigint[] = [];
    engine.chain.on('newHead', (b) => heads.push(b.header.number));
    const mined = await engine.miner.mineBlocks(BLOCKS, { withTransactions: false });
    expect(mined).toHaveLength(BLOCKS);
    // newHead once per block, in order.
    expect(heads).toEqual(Array.from({ length: BLOCKS }, (_, i) => BigInt(i + 1)));
    const head = engine.chain.getHead();
    expect(head.header.number).toBe(BigInt(BLOCKS));
    expect(head.hash()).toEqual(mined.at(-1)!.block.hash());
    const reward = (await (await engine.chain.stateAt(1n))!.getBalance(coinbase));
    expect(reward).toBeGreaterThan(0n);
    expect(await (await engine.chain.stateAt('latest'))!.getBalance(coinbase)).toBe(reward * BigInt(BLOCKS));
    // Blocks from the middle of each chunk are stored, canonical and linked, with their own state.
    for (const n of [499n, 500n, 501n, 1000n, 1001n]) {
      const block = (await engine.chain.getBlock(n))!;
      expect(block.header.parentHash).toEqual((await engine.chain.getBlock(n - 1n))!.hash());
      expect(await engine.chain.isCanonical(block.hash())).toBe(true);
      expect(await (await engine.chain.stateAt(n))!.getBalance(coinbase)).toBe(reward * n);
    }
    const blocks = await Promise.all(Array.from({ length: BLOCKS }, (_, i) => engine.chain.getBlock(BigInt(i + 1))));
    await close(engine);

    const reopened = await open(dataDir);
    expect(reopened.chain.getHead().hash()).toEqual(head.hash());
    expect(reopened.chain.getHeadTotalDifficulty()).toBe(engine.chain.getHeadTotalDifficulty());
    expect(await (await reopened.chain.stateAt('latest'))!.getBalance(coinbase)).toBe(reward * BigInt(BLOCKS));
    // Mining goes on from the stored head.
    await reopened.miner.mineBlocks(2, { withTransactions: false });
    expect(reopened.chain.getHead().header.number).toBe(BigInt(BLOCKS + 2));

    // A fresh engine takes every block as from a peer: decoded, header rules, seal, execution and state root checked.
    const follower = await open();
    for (const block of blocks) {
      const result = await follower.chain.importBlock(follower.chain.decodeBlock(block!.serialize()));
      expect(result.status).toBe('head');
    }
    expect(follower.chain.getHead().hash()).toEqual(head.hash());
  });

  it('without collecting, a run keeps none of its blocks yet mines, stores and announces each', async () => {
    const engine = await open();
    const sealed: bigint[] = [];
    engine.miner.on('sealed', (m) => sealed.push(m.block.header.number));
    const result = await engine.miner.mineBlocks(600, { withTransactions: false, collect: false });
    expect(result).toEqual([]);
    expect(sealed).toEqual(Array.from({ length: 600 }, (_, i) => BigInt(i + 1)));
    expect(engine.chain.getHead().header.number).toBe(600n);
    expect((await engine.chain.getBlock(600n))!.header.parentHash).toEqual((await engine.chain.getBlock(599n))!.hash());
  });

  it('seals pending transactions first, then the rest in bulk', async () => {
    const engine = await open();
    await engine.pool.add(signedTx(engine.chain, { from: 1, nonce: 0n, to: addresses[2], value: 5n }));
    const mined = await engine.miner.mineBlocks(5);
    expect(mined.map((m) => m.transactions.length)).toEqual([1, 0, 0, 0, 0]);
    expect(engine.chain.getHead().header.number).toBe(5n);
    expect(engine.pool.pendingCount).toBe(0);
  });

  it('a chunk that fails part-way stores none of its blocks and leaves the head where it was', async () => {
    const engine = await open();
    await engine.miner.mineBlocks(3, { withTransactions: false });
    const before = engine.chain.getHead();
    let sealed = 0;
    const built: Uint8Array[] = [];
    await expect(
      engine.chain.extendHead({
        count: 10,
        coinbase,
        seal: async (assembled) => {
          if (++sealed === 6) throw new Error('seal failed');
          const block = assembled.seal(new Uint8Array(8), new Uint8Array(32));
          built.push(block.hash());
          return block;
        },
      }),
    ).rejects.toThrow('seal failed');
    expect(engine.chain.getHead().hash()).toEqual(before.hash());
    for (const hash of built) expect(await engine.chain.getBlock(hash)).toBeUndefined();
    // The chain goes on normally (nothing staged from the failed chunk is visible or needed).
    await engine.miner.mineBlocks(2, { withTransactions: false });
    expect(engine.chain.getHead().header.number).toBe(5n);
    expect((await engine.chain.getBlock(4n))!.header.parentHash).toEqual(before.hash());
  });

  it('refuses a block whose seal is wrong for the chain, storing nothing of the chunk', async () => {
    const engine = await open();
    const before = engine.chain.getHead();
    await expect(
      engine.chain.extendHead({
        count: 3,
        coinbase,
        // Not the zero seal: an instant-seal chain refuses it (the seal is checked since the sealer did not vouch for it).
        seal: async (assembled) => assembled.seal(new Uint8Array(8).fill(1), new Uint8Array(32)),
      }),
    ).rejects.toThrow(/seal/);
    expect(engine.chain.getHead().hash()).toEqual(before.hash());
    expect(await engine.chain.getBlock(1n)).toBeUndefined();
  });
});
