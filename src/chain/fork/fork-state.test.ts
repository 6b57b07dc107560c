import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MerklePatriciaTrie, createMerkleProof } from '@ethereumjs/mpt';
import { Account, Address, hexToBytes } from '@ethereumjs/util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChainDB } from '../db/chain-db.js';
import { openReadState } from '../state/state-view.js';
import { TrieNodeStore } from '../state/trie-db.js';
import { SharedCommons } from '../exec/commons.js';
import { keccak256 } from '../base/crypto.js';
import { etcEngineRules } from '../engine/engine-adapters.js';
import { getNetwork } from '../networks/index.js';
import { ForkStateSource } from './fork-state.js';
import { ForkUpstreamError, type ForkUpstream, type UpstreamProof } from './upstream.js';

const common = new SharedCommons(etcEngineRules(getNetwork('dev'))).commonAt(1n);
const alice = hexToBytes('0x00000000000000000000000000000000000a11ce');
const bob = hexToBytes('0x0000000000000000000000000000000000000b0b');
const nobody = hexToBytes('0x000000000000000000000000000000000000dead');

/** The upstream's state: a few accounts in a real trie, so its proofs are real proofs. */
async function upstreamTrie(balances: ReadonlyArray<readonly [Uint8Array, bigint]>): Promise<MerklePatriciaTrie> {
  const trie = new MerklePatriciaTrie({ useKeyHashing: true });
  for (const [address, balance] of balances) await trie.put(address, new Account(0n, balance).serialize());
  return trie;
}

/** An upstream answering proofs from `trie` (counting them); `code` for every eth_getCode. */
function fakeUpstream(trie: MerklePatriciaTrie, code = new Uint8Array()) {
  const upstream = {
    name: 'http://upstream.test/',
    proofs: 0,
    pinnedBlock: async () => 1n,
    header: async () => {
      throw new Error('not used');
    },
    proof: async (address: Uint8Array): Promise<UpstreamProof> => {
      upstream.proofs++;
      return { accountProof: await createMerkleProof(trie, address), storageProofs: [] };
    },
    code: async () => code,
  } satisfies ForkUpstream & { proofs: number };
  return upstream;
}

let dir: string;
let db: ChainDB;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-node-fork-state-'));
  db = await ChainDB.open(join(dir, 'chaindata'));
});

afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A forked store over `db` whose state is `root`, and a reader of that state. */
function forkedReader(upstream: ForkUpstream, root: Uint8Array) {
  const store = new TrieNodeStore(db);
  store.attachFork(new ForkStateSource(upstream, db, { number: 1n, stateRoot: root }));
  return openReadState(store, common, root);
}

describe('ForkStateSource', () => {
  it('reads accounts and proven absence through proofs, each once', async () => {
    const trie = await upstreamTrie([
      [alice, 5n],
      [bob, 7n],
    ]);
    const upstream = fakeUpstream(trie);
    const reader = forkedReader(upstream, trie.root());
    expect((await reader.getAccount(new Address(alice)))?.balance).toBe(5n);
    expect((await reader.getAccount(new Address(bob)))?.balance).toBe(7n);
    expect(await reader.getAccount(new Address(nobody))).toBeUndefined();
    const asked = upstream.proofs;
    expect(asked).toBeGreaterThan(0);
    // A new reader over the same database (a restart) asks nothing again.
    const again = forkedReader(upstream, trie.root());
    expect((await again.getAccount(new Address(alice)))?.balance).toBe(5n);
    expect(await again.getAccount(new Address(nobody))).toBeUndefined();
    expect(upstream.proofs).toBe(asked);
  });

  it('refuses a proof that does not lead from the base state root, and keeps nothing of it', async () => {
    const real = await upstreamTrie([[alice, 5n]]);
    const forged = await upstreamTrie([[alice, 5_000_000n]]);
    const reader = forkedReader(fakeUpstream(forged), real.root());
    const failure = await reader.getAccount(new Address(alice)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ForkUpstreamError);
    expect((failure as Error).message).toMatch(/^fork upstream http:\/\/upstream.test\/ failed: its proof of account/);
    // The honest upstream is then asked again, and answers.
    expect((await forkedReader(fakeUpstream(real), real.root()).getAccount(new Address(alice)))?.balance).toBe(5n);
  });

  it('refuses code that does not hash to the account code hash', async () => {
    const trie = new MerklePatriciaTrie({ useKeyHashing: true });
    const code = Uint8Array.of(0x60, 0x00);
    const account = new Account(0n, 1n, undefined, keccak256(code));
    await trie.put(alice, account.serialize());
    const reader = forkedReader(fakeUpstream(trie, Uint8Array.of(0x60, 0x01)), trie.root());
    await expect(reader.getCode(new Address(alice))).rejects.toThrow(/does not hash to/);
    expect(await forkedReader(fakeUpstream(trie, code), trie.root()).getCode(new Address(alice))).toEqual(code);
  });
});
