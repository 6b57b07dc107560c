/**
 * Full mode's pruning on a churning chain: after cycles (some running while blocks import), every kept state walks
 * whole (nodes and codes), the state table is far smaller than the unpruned one, a reorg to a side chain within
 * the window works, and blocks keep importing.
 */
import { createMPT } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, concatBytes, hexToBytes, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { ChainDB } from '../../../src/chain/db/chain-db.js';
import { Tag } from '../../../src/chain/db/keys.js';
import { StateRetention } from '../../../src/chain/state/retention.js';
import { Blockchain as Chain } from '../../../src/chain/blockchain/blockchain.js';
import { engineNetworkOf, etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev } from '../../../src/chain/networks/index.js';
import { readOnlyTrieDb } from './read-only-trie-db.js';
import { addresses, deployCounter, encodeCounterCall, mine, signedTx, tempDir } from '../engine/fixtures.js';

const retentionOptions = { mode: 'full', keepStates: 16, checkpointInterval: 32, checkpoints: 2 } as const;
const retention = new StateRetention(retentionOptions);

function openFull(dataDir: string, mode: 'full' | 'archive' = 'full', writeBehind = false): Promise<Blockchain> {
  return Chain.open({
    writeBehind,
    dataDir,
    network: engineNetworkOf(dev),
    rules: etcEngineRules(dev),
    noProof: true,
    retention: { ...retentionOptions, mode },
    // Cycles run when the test asks (and once at the open of an archive datadir turned full), in the smallest slices,
    // so blocks land between them.
    pruning: { minTriggerBytes: Number.MAX_SAFE_INTEGER, sliceMs: 0 },
  });
}

/** Walks the state under `root` through the stored table (past every cache): throws on a missing node or code. */
async function walkState(chain: Blockchain, root: Uint8Array): Promise<number> {
  const { store } = chain.replayBase(chain.getGenesis().header);
  const missing: string[] = [];
  const db = readOnlyTrieDb((key) => {
    const value = store.readStored(hexToBytes(`0x${key}`));
    if (value === undefined) missing.push(key);
    return value;
  });
  const trie = await createMPT({ db, root, useKeyHashing: true });
  let accounts = 0;
  const storageRoots: Uint8Array[] = [];
  await trie.walkAllValueNodes(async (node) => {
    const [, , storageRoot, codeHash] = RLP.decode(node.value() as Uint8Array) as Uint8Array[];
    accounts++;
    if (bytesToHex(storageRoot!) !== bytesToHex(KECCAK256_RLP)) storageRoots.push(storageRoot!);
    if (bytesToHex(codeHash!) !== bytesToHex(KECCAK256_NULL)) {
      const code = store.readStored(concatBytes(Uint8Array.of(0x63), codeHash!));
      if (code === undefined || bytesToHex(keccak256(code)) !== bytesToHex(codeHash!))
        throw new Error(`code ${bytesToHex(codeHash!)} missing`);
    }
  });
  for (const storageRoot of storageRoots) {
    const storage = await createMPT({ db, root: storageRoot, useKeyHashing: true });
    await storage.walkAllValueNodes(async () => undefined);
  }
  // The library's walk may take a missing node for an empty subtrie: every read must have found its node.
  expect(missing).toEqual([]);
  return accounts;
}

async function walkKeptStates(chain: Blockchain): Promise<number> {
  const head = chain.getHead().header.number;
  let walked = 0;
  for (const n of retention.keptNumbers(head)) {
    const block = await chain.getBlock(n);
    expect(await walkState(chain, block!.header.stateRoot)).toBeGreaterThan(0);
    walked++;
  }
  return walked;
}

async function countStateKeys(dir: string): Promise<number> {
  const db = await ChainDB.open(`${dir}/chaindata`);
  try {
    const it = db.keys({ gte: Uint8Array.of(Tag.state), lt: Uint8Array.of(Tag.state + 1) });
    let n = 0;
    for (let chunk = await it.nextv(1000); chunk.length > 0; chunk = await it.nextv(1000)) n += chunk.length;
    await it.close();
    return n;
  } finally {
    await db.close();
  }
}

/** A block of churn: fresh accounts funded, and the counter's slot written. */
async function churn(chain: Blockchain, counter: Uint8Array, i: number) {
  const head = await chain.stateAt('latest');
  const nonces = await Promise.all([0, 1, 2].map((a) => head!.getNonce(addresses[a]!)));
  const fresh = (k: number) => keccak256(new Uint8Array([k >> 8, k & 255, 7])).subarray(0, 20);
  return mine(chain, [
    signedTx(chain, {
      from: 0,
      nonce: nonces[0]!,
      to: counter,
      data: encodeCounterCall('increment', [1n]),
      gasLimit: 100_000n,
    }),
    signedTx(chain, { from: 1, nonce: nonces[1]!, to: fresh(i), value: 1000n + BigInt(i) }),
    signedTx(chain, { from: 2, nonce: nonces[2]!, to: fresh(i % 40), value: 1n }),
  ]);
}

describe('state pruning (gcmode full)', () => {
  it.each([
    ['', false],
    [' (write-behind: deletes queue behind the blocks)', true],
  ])(
    'keeps every kept state whole, prunes the rest, reorgs within the window and goes on importing%s',
    async (_, writeBehind) => {
      const tmp = tempDir('prune-');
      let chain = await openFull(tmp.dir, 'full', writeBehind);
      await chain.pruning!.prune();
      const counter = await deployCounter(chain);
      for (let i = 0; i < 150; i++) await churn(chain, counter, i);

      // A side block a few below the head: its state stays while it is in the window.
      const forkPoint = chain.getHead().header.number - 4n;
      const forkParent = (await chain.getBlock(forkPoint))!;
      const side = await mine(chain, [], { parentHash: forkParent.hash(), coinbase: new Uint8Array(20).fill(0x5e) });
      expect(side.result.status).toBe('side');

      const first = (await chain.pruning!.prune())!;
      expect(first.swept).toBeGreaterThan(first.scanned / 2);
      expect(first.missing).toBe(0);
      expect(await walkKeptStates(chain)).toBe(16 + 2);

      // The side chain overtakes: its blocks build on the side block's kept state.
      let tip = side.block;
      for (let i = 0; i < 6; i++) tip = (await mine(chain, [], { parentHash: tip.hash() })).block;
      expect(bytesToHex(chain.getHead().hash())).toBe(bytesToHex(tip.hash()));
      expect(await (await chain.stateAt('latest'))!.getBalance(new Uint8Array(20).fill(0x5e))).toBeGreaterThan(0n);

      // A cycle while blocks import: the write barrier keeps what they write.
      let running = true;
      const during = chain.pruning!.prune().finally(() => {
        running = false;
      });
      let importedWhileRunning = 0;
      for (let i = 150; i < 200; i++) {
        await churn(chain, counter, i);
        if (running) importedWhileRunning++;
      }
      const concurrent = (await during)!;
      expect(importedWhileRunning).toBeGreaterThan(1);
      // Without write-behind each block's write is slow enough that some land in the mark phase (with it, mostly
      // during the compaction, after the barrier).
      if (!writeBehind) expect(concurrent.written).toBeGreaterThan(0);
      await chain.pruning!.prune();
      expect(await walkKeptStates(chain)).toBe(16 + 2);
      await chain.close();

      // Past the unpruned twin's size (every node ever written: the first cycle scanned all of them then).
      const left = await countStateKeys(tmp.dir);
      expect(left).toBeLessThan(first.scanned / 2);

      chain = await openFull(tmp.dir, 'full', writeBehind);
      for (let i = 200; i < 220; i++) await churn(chain, counter, i);
      await chain.pruning!.prune();
      expect(await walkKeptStates(chain)).toBe(16 + 2);
      await chain.close();
      tmp.remove();
    },
    240_000,
  );

  it('a new datadir (its genesis only) starts no cycle at open: an import begins at once', async () => {
    const fresh = tempDir('prune-fresh-');
    try {
      const chain = await openFull(fresh.dir);
      // A cycle scheduled at open would have started by now (one turn of the event loop).
      await new Promise((resolve) => setImmediate(resolve));
      await chain.pruning!.idle();
      expect(chain.pruning!.lastCycle).toBeUndefined();
      await mine(chain, []);
      await chain.close();
    } finally {
      fresh.remove();
    }
  }, 60_000);

  it('refuses to open a pruned datadir as an archive; accepts an archive turned full', async () => {
    const archive = tempDir('prune-archive-');
    try {
      let chain = await openFull(archive.dir, 'archive');
      expect(chain.pruning).toBeUndefined();
      for (let i = 0; i < 40; i++) await mine(chain, []);
      await chain.close();
      const before = await countStateKeys(archive.dir);
      chain = await openFull(archive.dir);
      const cycle = (await chain.pruning!.prune())!;
      expect(cycle.swept).toBeGreaterThan(0);
      await chain.close();
      expect(await countStateKeys(archive.dir)).toBeLessThan(before);
      await expect(openFull(archive.dir, 'archive')).rejects.toThrow(/this datadir was pruned \(gcmode full\)/);
    } finally {
      archive.remove();
    }
  }, 120_000);
});
