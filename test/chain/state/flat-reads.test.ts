/**
 * The node's state reads through the flat state (issue 39): at a root the flat state covers, account and slot reads
 * of the RPC views, eth_call and block assembly are answered by it (a tampering stand-in shows which), agree with the
 * trie's answers, and a storage trie this state manager wrote itself is never read from it.
 */
import { RLP } from '@ethereumjs/rlp';
import { Address, bigIntToBytes, bytesToBigInt, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { type FlatReader, NO_FLAT_STATE } from '../../../src/chain/state/flat-reader.js';
import { StateView } from '../../../src/chain/state/state-reader.js';
import { openReadState, openState } from '../../../src/chain/state/state-view.js';
import type { TrieNodeStore } from '../../../src/chain/state/trie-db.js';
import { fillerInitCode } from '../../p2p/snap-fixtures.js';
import {
  addresses,
  deployCounter,
  encodeCounterCall,
  mine,
  openDevChain,
  signedTx,
  tempDir,
} from '../engine/fixtures.js';
import { FlatDouble } from './flat-double.js';

const FRESH = new Uint8Array(20).fill(0x5a);
const ABSENT = new Uint8Array(20).fill(0x77);
const SLOT0 = new Uint8Array(32);

/** Adds 1 wei to an account's balance; a slot reads 42. */
const tamper = (value: Uint8Array, kind: 'account' | 'slot'): Uint8Array => {
  if (kind === 'slot') return RLP.encode(Uint8Array.of(42));
  const [nonce, balance, storageRoot, codeHash] = RLP.decode(value) as Uint8Array[];
  return RLP.encode([nonce!, bigIntToBytes(bytesToBigInt(balance!) + 1n), storageRoot!, codeHash!]);
};

describe('state reads through the flat state', () => {
  const dir = tempDir('flat-reads-');
  let chain: Blockchain;
  let nodes: TrieNodeStore;
  let counter: Uint8Array;
  let filler: Uint8Array;
  let flat: FlatDouble;
  /** The chain's own flat state (state/flat-table.ts), set aside while the stand-in serves. */
  let real: FlatReader;

  beforeAll(async () => {
    chain = await openDevChain(dir.dir);
    nodes = (chain as unknown as { nodes: TrieNodeStore }).nodes;
    counter = await deployCounter(chain, 7n);
    const b = await mine(chain, [
      signedTx(chain, { from: 1, nonce: 0n, to: FRESH, value: 5n }),
      signedTx(chain, { from: 2, nonce: 0n, data: fillerInitCode(40), gasLimit: 2_000_000n }),
    ]);
    filler = (await chain.getReceipts(b.block.hash()))![1]!.contractAddress!;
    real = nodes.flat;
    flat = new FlatDouble(nodes);
    nodes.flat = flat;
  });
  afterAll(async () => {
    await chain?.close();
    dir.remove();
  });

  const headRoot = () => chain.getHead().header.stateRoot;
  const common = () => chain.commonAt(chain.getHead().header.number);
  const viewAt = (root: Uint8Array) => new StateView(() => openReadState(nodes, common(), root), root);
  const holders = () => [...addresses.slice(0, 4), counter, filler, FRESH, ABSENT];
  const slotsOf = () => [
    ...[0n, 1n, 2n, 99n].map((s) => [counter, setLengthLeft(bigIntToBytes(s), 32)] as const),
    ...[1n, 2n, 40n, 41n].map((s) => [filler, setLengthLeft(bigIntToBytes(s), 32)] as const),
    [FRESH, SLOT0] as const,
    [ABSENT, SLOT0] as const,
  ];

  async function readAll(view: StateView): Promise<string[]> {
    const out: string[] = [];
    for (const a of holders()) {
      out.push(`${await view.getBalance(a)}/${await view.getNonce(a)}`);
      out.push(bytesToHex(await view.getCode(a)), bytesToHex(await view.getStorageRoot(a)));
    }
    for (const [a, s] of slotsOf()) out.push(bytesToHex(await view.getStorageAt(a, s)));
    return out;
  }

  it('answers every account and slot as the trie does, without a trie walk', async () => {
    const root = headRoot();
    nodes.flat = NO_FLAT_STATE;
    const fromTrie = await readAll(viewAt(root));
    nodes.flat = flat.add(root);
    const reads = flat.reads;
    const lookups = nodes.trieCaches.lookups!.size;
    nodes.trieCaches.lookups!.clear();
    expect(await readAll(viewAt(root))).toEqual(fromTrie);
    expect(flat.reads - reads).toBeGreaterThanOrEqual(holders().length + slotsOf().length - 3);
    // No lookup of these reads went to the trie (whose lookups are memoised by root and key).
    expect(nodes.trieCaches.lookups!.size).toBe(0);
    expect(lookups).toBeGreaterThan(0);
  });

  it('serves RPC reads, eth_call and the head view from the flat state at a covered root', async () => {
    await mine(chain, [signedTx(chain, { from: 3, nonce: 0n, to: FRESH, value: 1n })]);
    flat.add(headRoot());
    flat.tamper = tamper;
    try {
      const view = (await chain.stateAt('latest'))!;
      // An account the head block did not touch (those the import's state still holds are answered from it).
      const trueBalance = await onTrie(() => viewAt(headRoot()).getBalance(addresses[5]!));
      expect(await view.getBalance(addresses[5]!)).toBe(trueBalance + 1n);
      expect(bytesToBigInt(await view.getStorageAt(counter, SLOT0))).toBe(42n);
      const result = await chain.call('latest', { to: counter, data: encodeCounterCall('count') });
      expect(result?.error).toBeUndefined();
      expect(bytesToBigInt(result!.returnData)).toBe(42n);
    } finally {
      flat.tamper = undefined;
    }
  });

  async function onTrie<T>(read: () => Promise<T>): Promise<T> {
    const saved = nodes.flat;
    nodes.flat = NO_FLAT_STATE;
    try {
      return await read();
    } finally {
      nodes.flat = saved;
    }
  }

  it('never reads a storage trie from it once this state manager wrote that trie', async () => {
    const root = headRoot();
    flat.add(root);
    flat.tamper = tamper;
    try {
      const { stateManager: sm } = openState(nodes, common(), root);
      const at = new Address(counter);
      const account = (await sm.getAccount(at))!;
      expect(bytesToBigInt(await sm.readSlot(at, SLOT0))).toBe(42n);
      const newRoot = await sm.writeSlots(at, account.storageRoot, [[SLOT0, Uint8Array.of(0x63)]]);
      expect(bytesToHex(newRoot)).not.toBe(bytesToHex(account.storageRoot));
      expect(bytesToBigInt(await sm.readSlot(at, SLOT0))).toBe(0x63n);
      expect(await sm.readSlot(at, setLengthLeft(Uint8Array.of(99), 32))).toHaveLength(0);
    } finally {
      flat.tamper = undefined;
    }
  });

  it('block assembly reads its parent state from it and builds the same state root as on the trie', async () => {
    const parent = chain.getHead().header;
    const txs = () => [
      signedTx(chain, {
        from: 0,
        nonce: 1n,
        to: counter,
        data: encodeCounterCall('increment', [1n]),
        gasLimit: 200_000n,
      }),
      signedTx(chain, { from: 1, nonce: 1n, to: ABSENT, value: 3n }),
    ];
    const assemble = () =>
      chain.assemble({
        parentHash: parent.hash(),
        transactions: txs(),
        coinbase: new Uint8Array(20).fill(0xcb),
        timestamp: parent.timestamp + 13n,
      });
    nodes.flat = NO_FLAT_STATE;
    const onTrie = await assemble();
    nodes.flat = flat.add(parent.stateRoot);
    const reads = flat.reads;
    const onFlat = await assemble();
    expect(flat.reads).toBeGreaterThan(reads);
    expect(bytesToHex(onFlat.template.header.stateRoot)).toBe(bytesToHex(onTrie.template.header.stateRoot));
    flat.tamper = tamper;
    try {
      const tampered = await assemble();
      expect(bytesToHex(tampered.template.header.stateRoot)).not.toBe(bytesToHex(onTrie.template.header.stateRoot));
    } finally {
      flat.tamper = undefined;
    }
  });

  it("the chain's flat state answers at the head and the blocks below it as the trie does", async () => {
    nodes.flat = real;
    try {
      for (let i = 0; i < 3; i++)
        await mine(chain, [
          signedTx(chain, { from: 4, nonce: BigInt(i), to: FRESH, value: 1n }),
          signedTx(chain, {
            from: 5,
            nonce: BigInt(i),
            to: counter,
            data: encodeCounterCall('increment', [3n]),
            gasLimit: 200_000n,
          }),
        ]);
      const head = chain.getHead().header.number;
      for (let n = head; n > head - 4n; n--) {
        const root = (await chain.getBlock(n))!.header.stateRoot;
        expect(real.covers(root), `block ${n}`).toBe(true);
        const fromTrie = await onTrie(() => readAll(viewAt(root)));
        expect(await readAll(viewAt(root)), `block ${n}`).toEqual(fromTrie);
      }
    } finally {
      nodes.flat = flat;
    }
  });
});
