/**
 * Bulk empty blocks (Blockchain.extendHead through Miner.mineBlocks): chunks of blocks share one database batch,
 * and the chain they make is the one block-by-block mining would: every block links to its parent and has a
 * readable state (the coinbase holds every reward), the head and state survive a restart, and a fresh engine
 * imports the blocks with full validation. A chunk that fails part-way leaves nothing of itself behind.
 */
import { createBlockHeader } from '@ethereumjs/block';
import { describe, expect, it, vi } from 'vitest';
import { HeaderRun } from '../../../src/chain/assembly/header-run.js';
import { RewardLedger } from '../../../src/chain/exec/bulk-rewards.js';
import { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { engineNetworkOf, etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import type { ChainEngine } from '../../../src/chain/engine/engine.js';
import type { ChainRules } from '../../../src/chain/rules/engine-types.js';
import { dev } from '../../../src/chain/networks/index.js';
import { addresses, signedTx } from './fixtures.js';
import { scopedEngines } from './scoped-engines.js';

const engines = scopedEngines('bulk-blocks-');
const newDir = engines.newDir;
const close = engines.close;

const coinbase = new Uint8Array(20).fill(0xcb);

function open(dataDir = newDir()): Promise<ChainEngine> {
  return engines.open({ dataDir, network: 'dev', seal: 'instant', mining: { coinbase } });
}

// Small chunks (the node's are BULK_CHUNK, 500 blocks) and runs of more than two, so chunk boundaries are crossed
// at a tenth of the blocks: the same chunk code, per block, as a run of 1,203 in chunks of 500.
const CHUNK = 50;
const BLOCKS = 123;
const bulk = { withTransactions: false, chunkSize: CHUNK } as const;

describe('bulk empty blocks', () => {
  it('keep their header maker from call to call while the shared fields hold, and start anew when one changes', async () => {
    const engine = await open();
    // The library builds a run's first header (the template) and its second (the proof of the copies).
    const library = vi.spyOn(HeaderRun.prototype as unknown as { library: () => unknown }, 'library');
    try {
      await engine.miner.mineBlocks(3, bulk);
      expect(library).toHaveBeenCalledTimes(2);
      await engine.miner.mineBlocks(3, bulk);
      await engine.miner.mineBlocks(1, bulk);
      expect(library).toHaveBeenCalledTimes(2);
      const extra = new TextEncoder().encode('run two');
      engine.miner.setExtraData(extra);
      await engine.miner.mineBlocks(3, bulk);
      expect(library).toHaveBeenCalledTimes(4);
      const head = engine.chain.getHead();
      expect(head.header.number).toBe(10n);
      expect(head.header.extraData).toEqual(extra);
      expect((await engine.chain.getBlock(7n))!.header.extraData).toEqual(new Uint8Array(0));
      // Every block is the library's own encoding of its fields, with its parent's hash.
      for (let n = 1n; n <= 10n; n++) {
        const block = (await engine.chain.getBlock(n))!;
        const rebuilt = createBlockHeader(block.header.toJSON(), { common: block.common });
        expect(rebuilt.serialize()).toEqual(block.header.serialize());
        expect(block.header.parentHash).toEqual((await engine.chain.getBlock(n - 1n))!.hash());
      }
    } finally {
      library.mockRestore();
      await close(engine);
    }
  });

  it('builds a valid chain across chunks that survives a restart and re-imports with full validation', async () => {
    const dataDir = newDir();
    const engine = await open(dataDir);
    const heads: bigint[] = [];
    engine.chain.on('newHead', (b) => heads.push(b.header.number));
    const throughTrie = vi.spyOn(RewardLedger.prototype as unknown as { creditInTrie: () => unknown }, 'creditInTrie');
    const mined = await engine.miner.mineBlocks(BLOCKS, bulk);
    // Only the first block credits through the trie (its coinbase is new); later chunks open the stored path.
    expect(throughTrie).toHaveBeenCalledTimes(1);
    throughTrie.mockRestore();
    expect(mined).toHaveLength(BLOCKS);
    // newHead once per block, in order.
    expect(heads).toEqual(Array.from({ length: BLOCKS }, (_, i) => BigInt(i + 1)));
    const head = engine.chain.getHead();
    expect(head.header.number).toBe(BigInt(BLOCKS));
    expect(head.hash()).toEqual(mined.at(-1)!.block.hash());
    const reward = await (await engine.chain.stateAt(1n))!.getBalance(coinbase);
    expect(reward).toBeGreaterThan(0n);
    expect(await (await engine.chain.stateAt('latest'))!.getBalance(coinbase)).toBe(reward * BigInt(BLOCKS));
    // Blocks from the middle of each chunk are stored, canonical and linked, with their own state.
    for (const n of [49n, 50n, 51n, 100n, 101n]) {
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
    await reopened.miner.mineBlocks(2, bulk);
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
    const result = await engine.miner.mineBlocks(120, { ...bulk, collect: false });
    expect(result).toEqual([]);
    expect(sealed).toEqual(Array.from({ length: 120 }, (_, i) => BigInt(i + 1)));
    expect(engine.chain.getHead().header.number).toBe(120n);
    expect((await engine.chain.getBlock(120n))!.header.parentHash).toEqual((await engine.chain.getBlock(119n))!.hash());
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

  it('checks a seal given at once (no promise, as the instant sealer gives it) as one given later', async () => {
    const engine = await open();
    const before = engine.chain.getHead();
    let sealed = 0;
    await expect(
      engine.chain.extendHead({
        count: 4,
        coinbase,
        // The third block's seal is not the zero seal: refused like the promised one above.
        seal: (assembled) => assembled.seal(new Uint8Array(8).fill(++sealed === 3 ? 1 : 0), new Uint8Array(32)),
      }),
    ).rejects.toThrow(/invalid-seal|seal/);
    expect(sealed).toBe(3);
    expect(engine.chain.getHead().hash()).toEqual(before.hash());
    expect(await engine.chain.getBlock(1n)).toBeUndefined();
  });

  // The header rules answer at once (the ETC rules) or through a promise (a rule set may wait): a run checks every
  // header either way, and a refused one stops the run with nothing of its chunk stored.
  for (const wait of [false, true]) {
    it(`refuses a header the rules refuse ${wait ? 'through a promise' : 'at once'}, storing nothing of the chunk`, async () => {
      const base = etcEngineRules(dev);
      const rules: ChainRules = {
        ...base,
        validateHeader: (parent, header) => {
          const verdict = header.number === 3n ? 'refused by the test' : base.validateHeader(parent, header);
          return wait ? Promise.resolve(verdict) : verdict;
        },
      };
      const chain = await Blockchain.open({ dataDir: newDir(), network: engineNetworkOf(dev), rules, noProof: true });
      try {
        const before = chain.getHead();
        await expect(
          chain.extendHead({
            count: 5,
            coinbase,
            seal: (assembled) => assembled.seal(new Uint8Array(8), new Uint8Array(32)),
          }),
        ).rejects.toThrow(/block 3 0x[0-9a-f]{64}: refused by the test/);
        expect(chain.getHead().hash()).toEqual(before.hash());
        expect(await chain.getBlock(1n)).toBeUndefined();
        // A run the rules accept goes on from the same head.
        await chain.extendHead({
          count: 2,
          coinbase,
          seal: (assembled) => assembled.seal(new Uint8Array(8), new Uint8Array(32)),
        });
        expect(chain.getHead().header.number).toBe(2n);
      } finally {
        await chain.close();
      }
    });
  }
});

/**
 * Bulk blocks against the per-block path (assemble, seal, importBlock) with the same timestamps: the very same
 * blocks, hash for hash. The eras of ECIP-1017 are shortened to 40 blocks (the dev chain's are 5,000,000, which a
 * long qa_mineBlocks run can reach), so the reward drops three times in a run crossing two chunk boundaries too.
 */
describe('bulk empty blocks are the blocks the per-block path makes', () => {
  const shortEras = { ...dev, eraLength: 40n };
  const variants: Array<{ name: string; coinbase: Uint8Array; rules: ChainRules }> = [
    { name: 'a new coinbase, rewarded block after block', coinbase, rules: etcEngineRules(shortEras) },
    { name: 'a funded dev account as coinbase', coinbase: addresses[0], rules: etcEngineRules(shortEras) },
    {
      // A zero credit still stores the (empty) account, as the state manager path does.
      name: 'a zero reward',
      coinbase,
      rules: { ...etcEngineRules(shortEras), rewards: (header) => [{ address: header.coinbase.bytes, amount: 0n }] },
    },
    {
      // Two credits per block (as with uncles): the path that does not reuse the coinbase's trie path.
      name: 'two credits per block',
      coinbase,
      rules: {
        ...etcEngineRules(shortEras),
        rewards: (header) => [
          { address: header.coinbase.bytes, amount: 5n * 10n ** 18n },
          { address: addresses[3], amount: header.number },
        ],
      },
    },
  ];

  for (const { name, coinbase: paid, rules } of variants) {
    it(name, async () => {
      const open = (dir: string) =>
        Blockchain.open({ dataDir: dir, network: engineNetworkOf(shortEras), rules, noProof: true });
      const bulkChain = await open(newDir());
      const stepChain = await open(newDir());
      try {
        const count = 130;
        const start = bulkChain.getHead().header.timestamp;
        let next = 0n;
        const heads: bigint[] = [];
        bulkChain.on('newHead', (b) => heads.push(b.header.number));
        await bulkChain.extendHead({
          count,
          coinbase: paid,
          extraData: Uint8Array.of(1, 2, 3),
          timestamp: () => start + 1n + next++,
          chunkSize: CHUNK,
          seal: async (assembled) => assembled.seal(new Uint8Array(8), new Uint8Array(32)),
        });
        expect(heads).toEqual(Array.from({ length: count }, (_, i) => BigInt(i + 1)));
        for (let i = 0; i < count; i++) {
          const assembled = await stepChain.assemble({
            transactions: [],
            coinbase: paid,
            extraData: Uint8Array.of(1, 2, 3),
            timestamp: start + 1n + BigInt(i),
          });
          const result = await stepChain.importBlock(assembled.seal(new Uint8Array(8), new Uint8Array(32)));
          expect(result.status).toBe('head');
        }
        for (let n = 1n; n <= BigInt(count); n++) {
          const [a, b] = [await bulkChain.getBlock(n), await stepChain.getBlock(n)];
          expect(a!.hash()).toEqual(b!.hash());
          expect(a!.serialize()).toEqual(b!.serialize());
        }
        expect(bulkChain.getHeadTotalDifficulty()).toBe(stepChain.getHeadTotalDifficulty());
        // Every block's state reads back (nodes of the blocks inside a chunk are stored, not only the last one's).
        for (const n of [1n, 39n, 40n, 41n, 49n, 50n, 51n, 130n]) {
          const [a, b] = [await bulkChain.stateAt(n), await stepChain.stateAt(n)];
          expect(await a!.getBalance(paid)).toBe(await b!.getBalance(paid));
          expect(await a!.getBalance(addresses[3])).toBe(await b!.getBalance(addresses[3]));
        }
      } finally {
        await Promise.all([bulkChain.close(), stepChain.close()]);
      }
    });
  }
});
