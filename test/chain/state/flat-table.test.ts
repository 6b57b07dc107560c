/**
 * The flat state (src/chain/state/flat-table.ts) equals a walk of the head's trie after every head move of a random
 * dev run (transfers, storage writes, creations, self-destructs, a reorg, a rewind, state edits, bulk empty blocks),
 * and its diff layers answer reads at the recent head states as the trie does.
 */
import { Address, bytesToHex, createAccount, createContractAddress, hexToBytes } from '@ethereumjs/util';
import { afterEach, describe, expect, it } from 'vitest';
import { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { engineNetworkOf, etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev } from '../../../src/chain/networks/index.js';
import { mine, openDevChain, signedTx, tempDir } from '../engine/fixtures.js';
import { WriteBatch } from '../../../src/chain/db/chain-db.js';
import { keys } from '../../../src/chain/db/keys.js';
import { encodeFlatMeta } from '../../../src/chain/state/flat-table.js';
import { dbOf, flatOf, flatReady, readerEntries, tableEntries, trieEntries } from './flat-check.js';

/** Runtime: no calldata → SELFDESTRUCT to the caller; else SSTORE(word0, word1). Init stores slots 1 and 2. */
const RUNTIME = '3615600d5760203560003555005b33ff';
const INIT = hexToBytes(`0x600760015560096002556010601660003960106000f3${RUNTIME}`);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const word = (n: number) => {
  const w = new Uint8Array(32);
  new DataView(w.buffer).setUint32(28, n);
  return w;
};

function contractAddress(from: Uint8Array, nonce: bigint): Uint8Array {
  return createContractAddress(new Address(from), nonce).bytes;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function open(): Promise<Blockchain> {
  const tmp = tempDir('flat-');
  const chain = await openDevChain(tmp.dir);
  cleanups.push(tmp.remove, () => chain.close());
  await flatReady(chain);
  return chain;
}

async function expectTableAtHead(chain: Blockchain): Promise<Map<string, string>> {
  const root = flatOf(chain).root;
  const trie = trieEntries(chain, root);
  const view = (chain as unknown as { view: { stateRootAfter(h: unknown): Uint8Array } }).view;
  expect(bytesToHex(root)).toBe(bytesToHex(view.stateRootAfter(chain.getHead().header)));
  expect(flatOf(chain).covers(root)).toBe(true);
  expect(flatOf(chain).rebuilds).toBe(0);
  expect(await tableEntries(chain)).toEqual(trie);
  return trie;
}

describe('flat state', () => {
  it('equals the head trie after every block of a random run, and its layers answer recent states', async () => {
    const chain = await open();
    const random = rng(39);
    const senders = [0, 1, 2];
    const nonces = senders.map(() => 0n);
    const devAddr = (i: number) => signedTx(chain, { from: i, nonce: 0n }).getSenderAddress().bytes;
    const contracts: Uint8Array[] = [];
    const states: { root: Uint8Array; trie: Map<string, string> }[] = [];
    for (let b = 0; b < 30; b++) {
      const txs = [];
      for (const s of senders) {
        const r = random();
        const nonce = nonces[s]++;
        if (r < 0.3) {
          txs.push(signedTx(chain, { from: s, nonce, to: word(Math.floor(random() * 1e6)).subarray(12), value: 1n }));
        } else if (r < 0.5 || contracts.length === 0) {
          contracts.push(contractAddress(devAddr(s), nonce));
          txs.push(signedTx(chain, { from: s, nonce, data: INIT, gasLimit: 200_000n }));
        } else if (r < 0.6) {
          const c = contracts.splice(Math.floor(random() * contracts.length), 1)[0];
          txs.push(signedTx(chain, { from: s, nonce, to: c, gasLimit: 100_000n }));
        } else {
          const c = contracts[Math.floor(random() * contracts.length)];
          const data = new Uint8Array(64);
          data.set(word(Math.floor(random() * 5)), 0);
          data.set(word(random() < 0.3 ? 0 : Math.floor(random() * 1000)), 32);
          txs.push(signedTx(chain, { from: s, nonce, to: c, data, gasLimit: 100_000n }));
        }
      }
      const { result } = await mine(chain, txs);
      expect(result.status).toBe('head');
      states.push({ root: chain.getHead().header.stateRoot, trie: await expectTableAtHead(chain) });
    }
    const last = states.at(-1)!.trie;
    expect([...last.keys()].filter((k) => k.startsWith('6f')).length).toBeGreaterThan(10);
    // Self-destructed contracts left the state (and so the table) with their slots.
    expect(states.some((s, i) => i > 0 && s.trie.size < states[i - 1].trie.size)).toBe(true);
    // The diff layers: a read at each recent state (not the head) answers as that state's trie.
    for (const { root, trie } of states.slice(-10)) {
      const keys = new Set([...trie.keys(), ...states.at(-1)!.trie.keys()]);
      expect(readerEntries(chain, root, keys)).toEqual(trie);
      const range = await flatOf(chain).accountRange(root, new Uint8Array(32), 1000, 1 << 20);
      const accounts = [...trie].filter(([k]) => k.startsWith('61'));
      expect(range!.map((e) => [`61${bytesToHex(e.key).slice(2)}`, bytesToHex(e.value).slice(2)])).toEqual(accounts);
      // One account's slots, from the start and from a later key, with a count bound.
      const owner = [...trie.keys()].find((k) => k.startsWith('6f'))!.slice(2, 66);
      const slots = [...trie].filter(([k]) => k.startsWith(`6f${owner}`));
      const ownerKey = hexToBytes(`0x${owner}`);
      const all = await flatOf(chain).storageRange(root, ownerKey, new Uint8Array(32), 1000, 1 << 20);
      expect(all!.map((e) => [`6f${owner}${bytesToHex(e.key).slice(2)}`, bytesToHex(e.value).slice(2)])).toEqual(slots);
      if (slots.length > 1) {
        const from = hexToBytes(`0x${slots[1][0].slice(66)}`);
        const tail = await flatOf(chain).storageRange(root, ownerKey, from, 1, 1 << 20);
        expect(tail!.map((e) => bytesToHex(e.key).slice(2))).toEqual([slots[1][0].slice(66)]);
      }
    }
  });

  it('follows a reorg, a rewind, state edits and bulk empty blocks', async () => {
    const chain = await open();
    const fork = chain.getHead().hash();
    for (let i = 0; i < 3; i++)
      await mine(chain, [signedTx(chain, { from: 0, nonce: BigInt(i), to: word(7 + i).subarray(12), value: 5n })]);
    await expectTableAtHead(chain);
    // A heavier side chain from the fork point: one diff from the old head's state to the new one's.
    let parent = fork;
    for (let i = 0; i < 5; i++) {
      const atBlock = BigInt(i + 1);
      const tx = signedTx(chain, { from: 1, nonce: BigInt(i), to: word(100 + i).subarray(12), value: 9n }, atBlock);
      const header = (await chain.getHeader(parent))!;
      const { block } = await mine(chain, [tx], { parentHash: parent, timestamp: header.timestamp + 11n });
      parent = block.hash();
    }
    expect(chain.getHead().hash()).toEqual(parent);
    await expectTableAtHead(chain);
    await chain.rewindTo(2n);
    await expectTableAtHead(chain);
    await chain.editHeadState(async (state) => {
      await state.putAccount(new Address(word(4242).subarray(12)), createAccount({ balance: 77n }));
      await state.putStorage(new Address(word(4242).subarray(12)), word(1), hexToBytes('0x2a'));
    });
    const edited = await expectTableAtHead(chain);
    expect([...edited.keys()].some((k) => k.startsWith('6f'))).toBe(true);
    await chain.restoreEditedState(new Map());
    await expectTableAtHead(chain);
    await chain.extendHead({
      count: 20,
      coinbase: word(99).subarray(12),
      seal: async (assembled) => assembled.seal(new Uint8Array(8), new Uint8Array(32)),
    });
    expect(chain.getHead().header.number).toBe(22n);
    await expectTableAtHead(chain);
  });

  it('is rebuilt when dropped (the snap handover), clearing stale keys, and caught up when behind', async () => {
    const tmp = tempDir('flat-');
    let chain = await openDevChain(tmp.dir);
    cleanups.push(tmp.remove);
    try {
      await flatReady(chain);
      for (let i = 0; i < 3; i++)
        await mine(chain, [signedTx(chain, { from: 0, nonce: BigInt(i), to: word(50 + i).subarray(12), value: 1n })]);
      const stale = keys.flatAccount(new Uint8Array(32).fill(0xee));
      await dbOf(chain).write(new WriteBatch().put(stale, Uint8Array.of(1)));
      const head = chain.getHead().header.stateRoot;
      await flatOf(chain).writeHead(new WriteBatch(), head, true);
      expect(flatOf(chain).covers(head)).toBe(false);
      await flatReady(chain);
      await expectTableAtHead(chain);
      // A rebuild asked for while a build runs (one account per slice here) starts once that one stops.
      flatOf(chain).sliceMs = 0;
      await flatOf(chain).writeHead(new WriteBatch(), head, true);
      while (flatOf(chain).mode !== 'building') await new Promise((r) => setTimeout(r, 1));
      await flatOf(chain).writeHead(new WriteBatch(), head, true);
      await flatReady(chain, 5_000);
      await expectTableAtHead(chain);
      // A table left behind the head (a version without it moved the head): the diff catches it up at open.
      const behind = (await chain.getBlock(1n))!.header.stateRoot;
      await dbOf(chain).write(new WriteBatch().put(keys.meta('flatState'), encodeFlatMeta({ root: behind })));
      await chain.close();
      chain = await openDevChain(tmp.dir);
      expect(flatOf(chain).mode).toBe('ready');
      await expectTableAtHead(chain);
    } finally {
      await chain.close();
    }
  });

  it('logs the build: its start, and its end with the accounts written', async () => {
    const tmp = tempDir('flat-');
    cleanups.push(tmp.remove);
    const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
    const chain = await Blockchain.open({
      dataDir: tmp.dir,
      network: engineNetworkOf(dev),
      rules: etcEngineRules(dev),
      noProof: true,
      log: { info: (msg, fields) => lines.push({ msg, ...(fields ? { fields } : {}) }) },
    });
    cleanups.push(() => chain.close());
    await flatOf(chain).writeHead(new WriteBatch(), chain.getHead().header.stateRoot, true);
    await flatReady(chain);
    const accounts = [...trieEntries(chain, chain.getHead().header.stateRoot).keys()].filter((k) => k.startsWith('61'));
    expect(lines.map((l) => l.msg)).toEqual(['flat state build started', 'flat state built']);
    expect(lines[1].fields?.accounts).toBe(accounts.length);
  });
});
