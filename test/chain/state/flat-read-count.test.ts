/**
 * What the flat state saves (issue 39): eth_getBalance of random accounts of a state of thousands reads the
 * database at most once per account not in a cache (the flat table's one point read), where the trie walk reads
 * the nodes of each path it has not cached. Counted at ChainDB, under a freshly opened chain (cold caches).
 */
import { bigIntToBytes, setLengthLeft } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import type { ChainDB } from '../../../src/chain/db/chain-db.js';
import { NO_FLAT_STATE } from '../../../src/chain/state/flat-reader.js';
import type { TrieNodeStore } from '../../../src/chain/state/trie-db.js';
import { mine, openDevChain, signedTx, tempDir } from '../engine/fixtures.js';

const SENDERS = 9;
const PER_SENDER_PER_BLOCK = 110;
const BLOCKS = 3;
/** Accounts the state holds beyond the dev accounts: ~3,000. */
const ACCOUNTS = SENDERS * PER_SENDER_PER_BLOCK * BLOCKS;
const SAMPLE = 400;

const fresh = (i: number) => setLengthLeft(bigIntToBytes(BigInt(0x5a0000 + i)), 20);

/** Shuffled distinct indexes (deterministic). */
function sample(count: number, seed: number): number[] {
  const all = Array.from({ length: ACCOUNTS }, (_, i) => i);
  let s = seed;
  for (let i = all.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, count);
}

describe('database reads of eth_getBalance through the flat state', () => {
  const dir = tempDir('flat-read-count-');
  let chain: Blockchain;

  beforeAll(async () => {
    const built = await openDevChain(dir.dir);
    let n = 0;
    for (let block = 0; block < BLOCKS; block++) {
      const txs = [];
      for (let from = 0; from < SENDERS; from++)
        for (let i = 0; i < PER_SENDER_PER_BLOCK; i++) {
          const nonce = BigInt(block * PER_SENDER_PER_BLOCK + i);
          txs.push(signedTx(built, { from, nonce, to: fresh(n++), value: BigInt(n) }));
        }
      await mine(built, txs);
    }
    await built.close();
    // Opened again: every cache is cold, and the flat table is the stored one.
    chain = await openDevChain(dir.dir);
  }, 120_000);
  afterAll(async () => {
    await chain?.close();
    dir.remove();
  });

  /** Reads of the chain database (sync and async) while `work` runs. */
  async function countReads(work: () => Promise<void>): Promise<number> {
    const db = (chain as unknown as { db: ChainDB }).db;
    let reads = 0;
    const { get, getSync } = db;
    db.get = (key) => {
      reads++;
      return get.call(db, key);
    };
    db.getSync = (key) => {
      reads++;
      return getSync.call(db, key);
    };
    try {
      await work();
    } finally {
      db.get = get;
      db.getSync = getSync;
    }
    return reads;
  }

  async function balances(indexes: readonly number[]): Promise<void> {
    const view = (await chain.stateAt('latest'))!;
    for (const i of indexes) expect(await view.getBalance(fresh(i))).toBe(BigInt(i + 1));
  }

  it('reads at most once per account', async () => {
    const nodes = (chain as unknown as { nodes: TrieNodeStore }).nodes;
    expect(nodes.flat.covers(chain.getHead().header.stateRoot)).toBe(true);
    const [onFlat, onTrie] = [sample(SAMPLE, 1), sample(2 * SAMPLE, 2).slice(SAMPLE)];
    const flatReads = await countReads(() => balances(onFlat));
    expect(flatReads).toBeLessThanOrEqual(SAMPLE);
    // The same reads on the trie (other accounts, so nothing is cached for them): a leaf and the uncached levels.
    const flat = nodes.flat;
    nodes.flat = NO_FLAT_STATE;
    try {
      const trieReads = await countReads(() => balances(onTrie));
      expect(trieReads).toBeGreaterThan(1.3 * SAMPLE);
    } finally {
      nodes.flat = flat;
    }
  });
});
