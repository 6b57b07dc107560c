/**
 * Serving snap/1 from a real chain engine: a dev chain in a temp dir with a deployed contract and contracts holding
 * many slots, asked for codes, account ranges, storage ranges and trie nodes through the wire codec, with the
 * answers' range proofs checked by @ethereumjs/mpt's verifier; then the same over RLPx from a node process.
 */
import { verifyMerkleRangeProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import {
  accountBodyToRLP,
  Address,
  type AccountBodyBytes,
  bigIntToBytes,
  bytesToHex,
  concatBytes,
  hexToBytes,
  KECCAK256_NULL,
  KECCAK256_RLP,
  setLengthLeft,
} from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../src/chain/blockchain/blockchain.js';
import { keccak256 } from '../../src/chain/base/crypto.js';
import {
  decodeAccountRange,
  decodeByteCodes,
  decodeStorageRanges,
  decodeTrieNodes,
  encodeAccountRange,
  encodeGetAccountRange,
  encodeGetByteCodes,
  encodeGetStorageRanges,
  encodeGetTrieNodes,
  SnapCode,
  WireDecodeError,
  type AccountRange,
  type StorageRanges,
} from '../../src/p2p/snap/messages.js';
import { SnapServer } from '../../src/p2p/snap/serve.js';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { addresses, mine, openDevChain, signedTx, tempDir } from '../chain/engine/fixtures.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';
import { TestPeer } from '../helpers/test-peer.js';
import { Counter } from '../rpc/contracts.js';
import { compact, fillerInitCode, increment, decrement, type Slot, storageOf } from './snap-fixtures.js';

const ZERO_HASH = new Uint8Array(32);
const MAX_HASH = new Uint8Array(32).fill(0xff);
const COINBASE = new Uint8Array(20).fill(0xcb);
const FRESH = new Uint8Array(20).fill(0x5a);
const TWO_MIB = 2n * 1024n * 1024n;
/** Slots each filler contract writes. */
const SLOTS = 100;

interface Expected {
  readonly key: Uint8Array;
  /** The account as the trie stores it (full RLP). */
  readonly value: Uint8Array;
}

describe('snap/1 serving', () => {
  const dir = tempDir('snap-serve-');
  let chain: Blockchain;
  let server: SnapServer;
  let contract: Uint8Array;
  let code: Uint8Array;
  let genesisRoot: Uint8Array;
  let headRoot: Uint8Array;
  /** Every account of the head state, sorted by trie key. */
  let expected: Expected[];
  /** Three contracts whose constructors wrote SLOTS slots each, with their storage as the trie holds it. */
  let fillers: { address: Uint8Array; hash: Uint8Array; root: Uint8Array; slots: Slot[] }[];

  beforeAll(async () => {
    chain = await openDevChain(dir.dir);
    server = new SnapServer(chain);
    genesisRoot = chain.getGenesis().header.stateRoot;
    // Counter's constructor takes the initial count (one ABI word): a non-zero slot gives the contract a storage root.
    const initCode = concatBytes(hexToBytes(Counter.bytecode as `0x${string}`), setLengthLeft(bigIntToBytes(7n), 32));
    const deploy = signedTx(chain, { from: 0, nonce: 0n, data: initCode, gasLimit: 1_000_000n });
    const b1 = await mine(chain, [deploy], { coinbase: COINBASE });
    expect(b1.result.status).toBe('head');
    const [receipt] = (await chain.getReceipts(b1.block.hash()))!;
    expect(receipt.status).toBe(1);
    contract = receipt.contractAddress!;
    const fill = [0n, 1n, 2n].map((nonce) =>
      signedTx(chain, { from: 2, nonce, data: fillerInitCode(SLOTS), gasLimit: 2_500_000n }),
    );
    const b2 = await mine(chain, [signedTx(chain, { from: 1, nonce: 0n, to: FRESH, value: 5n }), ...fill], {
      coinbase: COINBASE,
    });
    expect(b2.result.status).toBe('head');
    const fillReceipts = (await chain.getReceipts(b2.block.hash()))!.slice(1);
    expect(fillReceipts.map((r) => r.status)).toEqual([1, 1, 1]);

    const state = (await chain.stateAt('latest'))!;
    headRoot = state.stateRoot;
    code = await state.getCode(contract);
    expect(code.length).toBeGreaterThan(0);
    fillers = [];
    for (const receipt of fillReceipts) {
      const address = receipt.contractAddress!;
      const root = await state.getStorageRoot(address);
      expect(bytesToHex(root)).not.toBe(bytesToHex(KECCAK256_RLP));
      fillers.push({ address, hash: keccak256(address), root, slots: storageOf(address, SLOTS) });
    }
    const holders = [...addresses, contract, COINBASE, FRESH, ...fillers.map((f) => f.address)];
    expected = [];
    for (const address of holders) {
      const account = await state.stateManager.getAccount(new Address(address));
      expect(account, bytesToHex(address)).toBeDefined();
      expected.push({ key: keccak256(address), value: account!.serialize() });
    }
    expected.sort((a, b) => Buffer.compare(a.key, b.key));
  });
  afterAll(async () => {
    await chain?.close();
    dir.remove();
  });

  async function accountRange(
    root: Uint8Array,
    origin: Uint8Array,
    limit: Uint8Array,
    bytes: bigint,
    on = server,
  ): Promise<AccountRange> {
    const reply = await on.serve(
      SnapCode.GetAccountRange,
      encodeGetAccountRange({ requestId: 77n, root, origin, limit, bytes }),
    );
    expect(reply?.code).toBe(SnapCode.AccountRange);
    const res = decodeAccountRange(reply!.payload);
    expect(res.requestId).toBe(77n);
    return res;
  }

  /** The trie values behind slim bodies (what the proof commits to). */
  const fullValues = (res: AccountRange) =>
    res.accounts.map((a) => accountBodyToRLP(RLP.decode(a.body) as AccountBodyBytes));

  /** Checks the range proof against `root`; returns whether the trie holds more accounts to the right. */
  function verify(root: Uint8Array, origin: Uint8Array, res: AccountRange): Promise<boolean> {
    const keys = res.accounts.map((a) => a.hash);
    return verifyMerkleRangeProof(root, origin, keys.at(-1) ?? null, keys, fullValues(res), res.proof);
  }

  describe('GetByteCodes', () => {
    it('returns the code we hold for its hash, skipping unknown hashes, in request order', async () => {
      const unknown = keccak256(new TextEncoder().encode('no such code'));
      const reply = await server.serve(
        SnapCode.GetByteCodes,
        encodeGetByteCodes({
          requestId: 5n,
          hashes: [unknown, keccak256(code), unknown, KECCAK256_NULL],
          bytes: TWO_MIB,
        }),
      );
      expect(reply?.code).toBe(SnapCode.ByteCodes);
      const res = decodeByteCodes(reply!.payload);
      expect(res.requestId).toBe(5n);
      expect(res.codes.map((c) => bytesToHex(c))).toEqual([bytesToHex(code), '0x']);
    });

    it('stops at the soft byte limit (but returns at least one code)', async () => {
      const hash = keccak256(code);
      const reply = await server.serve(
        SnapCode.GetByteCodes,
        encodeGetByteCodes({ requestId: 6n, hashes: [hash, hash, hash], bytes: 1n }),
      );
      expect(decodeByteCodes(reply!.payload).codes.map((c) => bytesToHex(c))).toEqual([bytesToHex(code)]);
      const two = await server.serve(
        SnapCode.GetByteCodes,
        encodeGetByteCodes({ requestId: 6n, hashes: [hash, hash, hash], bytes: BigInt(code.length + 1) }),
      );
      expect(decodeByteCodes(two!.payload).codes).toHaveLength(2);
    });

    it('answers an empty list when it holds none of the codes', async () => {
      const reply = await server.serve(
        SnapCode.GetByteCodes,
        encodeGetByteCodes({ requestId: 9n, hashes: [keccak256(FRESH)], bytes: TWO_MIB }),
      );
      expect(decodeByteCodes(reply!.payload)).toEqual({ requestId: 9n, codes: [] });
    });
  });

  describe('GetAccountRange', () => {
    it('returns every account of the head state, sorted by hash, in slim form, with a proof that verifies', async () => {
      const res = await accountRange(headRoot, ZERO_HASH, MAX_HASH, TWO_MIB);
      expect(res.accounts.map((a) => bytesToHex(a.hash))).toEqual(expected.map((e) => bytesToHex(e.key)));
      expect(fullValues(res).map(bytesToHex)).toEqual(expected.map((e) => bytesToHex(e.value)));

      // Slim form: plain accounts carry empty storage root and code hash; the contract its code hash.
      const byKey = new Map(res.accounts.map((a) => [bytesToHex(a.hash), RLP.decode(a.body) as Uint8Array[]]));
      const plain = byKey.get(bytesToHex(keccak256(addresses[2])))!;
      expect(plain[2]).toHaveLength(0);
      expect(plain[3]).toHaveLength(0);
      const deployed = byKey.get(bytesToHex(keccak256(contract)))!;
      expect(bytesToHex(deployed[3])).toBe(bytesToHex(keccak256(code)));
      expect(deployed[2]).toHaveLength(32);
      expect(bytesToHex(deployed[2])).not.toBe(bytesToHex(KECCAK256_RLP));

      expect(res.proof.length).toBeGreaterThan(0);
      expect(await verify(headRoot, ZERO_HASH, res)).toBe(false);
    });

    it('a proof that does not match the accounts is rejected by the verifier', async () => {
      const res = await accountRange(headRoot, ZERO_HASH, MAX_HASH, TWO_MIB);
      const dropped = { ...res, accounts: [...res.accounts.slice(0, 3), ...res.accounts.slice(4)] };
      await expect(verify(headRoot, ZERO_HASH, dropped)).rejects.toThrow();
    });

    it('a byte limit cuts the answer short, and the proof says more accounts follow', async () => {
      const one = await accountRange(headRoot, ZERO_HASH, MAX_HASH, 1n);
      expect(one.accounts.map((a) => bytesToHex(a.hash))).toEqual([bytesToHex(expected[0].key)]);
      expect(await verify(headRoot, ZERO_HASH, one)).toBe(true);

      const firstTwo = await accountRange(headRoot, ZERO_HASH, MAX_HASH, TWO_MIB);
      const size = firstTwo.accounts.slice(0, 2).reduce((n, a) => n + a.hash.length + a.body.length, 0);
      const two = await accountRange(headRoot, ZERO_HASH, MAX_HASH, BigInt(size));
      expect(two.accounts.map((a) => bytesToHex(a.hash))).toEqual(expected.slice(0, 2).map((e) => bytesToHex(e.key)));
      expect(await verify(headRoot, ZERO_HASH, two)).toBe(true);
    });

    it('starts at the origin and stops at the first account at or past the limit hash', async () => {
      const origin = expected[2].key;
      const exact = await accountRange(headRoot, origin, expected[5].key, TWO_MIB);
      expect(exact.accounts.map((a) => bytesToHex(a.hash))).toEqual(expected.slice(2, 6).map((e) => bytesToHex(e.key)));
      expect(await verify(headRoot, origin, exact)).toBe(true);

      // An origin between two accounts and a limit just below one: the first account past the limit is included.
      const between = increment(expected[2].key);
      const below = decrement(expected[5].key);
      const inexact = await accountRange(headRoot, between, below, TWO_MIB);
      expect(inexact.accounts.map((a) => bytesToHex(a.hash))).toEqual(
        expected.slice(3, 6).map((e) => bytesToHex(e.key)),
      );
      expect(await verify(headRoot, between, inexact)).toBe(true);
    });

    it('gives the same answers when the trie walk pages through few accounts at a time', async () => {
      const paged = new SnapServer(chain, { accountsPerPage: 3 });
      const whole = await accountRange(headRoot, ZERO_HASH, MAX_HASH, TWO_MIB, paged);
      expect(whole.accounts.map((a) => bytesToHex(a.hash))).toEqual(expected.map((e) => bytesToHex(e.key)));
      expect(await verify(headRoot, ZERO_HASH, whole)).toBe(false);
      const middle = await accountRange(headRoot, expected[1].key, expected[8].key, TWO_MIB, paged);
      expect(middle.accounts.map((a) => bytesToHex(a.hash))).toEqual(
        expected.slice(1, 9).map((e) => bytesToHex(e.key)),
      );
    });

    it('answers no accounts past the last one, with a proof that nothing is there', async () => {
      const origin = increment(expected.at(-1)!.key);
      const res = await accountRange(headRoot, origin, MAX_HASH, TWO_MIB);
      expect(res.accounts).toEqual([]);
      expect(res.proof.length).toBeGreaterThan(0);
      expect(await verifyMerkleRangeProof(headRoot, origin, null, [], [], res.proof)).toBe(false);
    });

    it('serves a recent older state (genesis: the dev accounts only)', async () => {
      const res = await accountRange(genesisRoot, ZERO_HASH, MAX_HASH, TWO_MIB);
      const devKeys = addresses.map((a) => bytesToHex(keccak256(a))).sort();
      expect(res.accounts.map((a) => bytesToHex(a.hash))).toEqual(devKeys);
      expect(await verify(genesisRoot, ZERO_HASH, res)).toBe(false);
    });

    it('answers an empty reply for a root it does not hold or that is outside the window', async () => {
      const unknown = await accountRange(keccak256(FRESH), ZERO_HASH, MAX_HASH, TWO_MIB);
      expect(unknown).toEqual({ requestId: 77n, accounts: [], proof: [] });

      const narrow = new SnapServer(chain, { stateWindow: 2 });
      expect(await accountRange(genesisRoot, ZERO_HASH, MAX_HASH, TWO_MIB, narrow)).toEqual({
        requestId: 77n,
        accounts: [],
        proof: [],
      });
      expect((await accountRange(headRoot, ZERO_HASH, MAX_HASH, TWO_MIB, narrow)).accounts).toHaveLength(
        expected.length,
      );
    });

    it('follows the head: a new block’s root is served', async () => {
      const b3 = await mine(chain, [signedTx(chain, { from: 3, nonce: 0n, to: FRESH, value: 1n })], {
        coinbase: COINBASE,
      });
      expect(b3.result.status).toBe('head');
      const root = b3.block.header.stateRoot;
      const res = await accountRange(root, ZERO_HASH, MAX_HASH, TWO_MIB);
      expect(res.accounts).toHaveLength(expected.length);
      expect(await verify(root, ZERO_HASH, res)).toBe(false);
    });
  });

  async function storageRanges(
    accounts: Uint8Array[],
    bytes: bigint,
    bounds: { origin?: Uint8Array; limit?: Uint8Array; root?: Uint8Array; on?: SnapServer } = {},
  ): Promise<StorageRanges> {
    const reply = await (bounds.on ?? server).serve(
      SnapCode.GetStorageRanges,
      encodeGetStorageRanges({
        requestId: 31n,
        root: bounds.root ?? headRoot,
        accounts,
        origin: bounds.origin ?? new Uint8Array(0),
        limit: bounds.limit ?? new Uint8Array(0),
        bytes,
      }),
    );
    expect(reply?.code).toBe(SnapCode.StorageRanges);
    const res = decodeStorageRanges(reply!.payload);
    expect(res.requestId).toBe(31n);
    return res;
  }

  const hashesOf = (slots: readonly { hash: Uint8Array }[]) => slots.map((x) => bytesToHex(x.hash));
  const bodiesOf = (slots: readonly { body: Uint8Array }[]) => slots.map((x) => bytesToHex(x.body));
  const sizeOf = (slots: readonly { hash: Uint8Array; body: Uint8Array }[]) =>
    slots.reduce((n, x) => n + x.hash.length + x.body.length, 0);

  /** Checks one account's range against its storage root; returns whether more slots follow. */
  function verifySlots(
    root: Uint8Array,
    origin: Uint8Array | null,
    slots: readonly { hash: Uint8Array; body: Uint8Array }[],
    proof: Uint8Array[] | null,
  ): Promise<boolean> {
    const keys = slots.map((x) => x.hash);
    // Without a proof the verifier takes no bounds: the slots must then be the whole trie.
    const last = proof === null ? null : (keys.at(-1) ?? null);
    return verifyMerkleRangeProof(
      root,
      origin,
      last,
      keys,
      slots.map((x) => x.body),
      proof,
    );
  }

  describe('GetStorageRanges', () => {
    it('returns the whole storage of several accounts in one answer, as stored, without proofs', async () => {
      const res = await storageRanges(
        fillers.map((f) => f.hash),
        TWO_MIB,
      );
      expect(res.slots).toHaveLength(3);
      res.slots.forEach((slots, i) => {
        expect(hashesOf(slots)).toEqual(hashesOf(fillers[i]!.slots));
        expect(bodiesOf(slots)).toEqual(bodiesOf(fillers[i]!.slots));
      });
      expect(res.proof).toEqual([]);
      // Without a proof, the verifier rebuilds each trie from the slots alone: they must be all of it.
      for (const [i, slots] of res.slots.entries()) {
        expect(await verifySlots(fillers[i]!.root, null, slots, null)).toBe(false);
      }
    });

    it('gives an account without storage an empty list, keeping the lists in request order', async () => {
      const res = await storageRanges([fillers[1]!.hash, keccak256(addresses[4]!), fillers[0]!.hash], TWO_MIB);
      expect(res.slots.map((list) => list.length)).toEqual([SLOTS, 0, SLOTS]);
      expect(hashesOf(res.slots[2]!)).toEqual(hashesOf(fillers[0]!.slots));
    });

    it('cuts the answer at the byte limit: the last range is partial and alone carries a proof', async () => {
      const whole = sizeOf(fillers[0]!.slots);
      const res = await storageRanges(
        fillers.map((f) => f.hash),
        BigInt(whole + 1),
      );
      expect(res.slots).toHaveLength(2);
      expect(hashesOf(res.slots[0]!)).toEqual(hashesOf(fillers[0]!.slots));
      const partial = res.slots[1]!;
      expect(partial.length).toBeGreaterThan(0);
      expect(partial.length).toBeLessThan(SLOTS);
      expect(hashesOf(partial)).toEqual(hashesOf(fillers[1]!.slots.slice(0, partial.length)));
      expect(res.proof.length).toBeGreaterThan(0);
      // The proof covers the origin (zero) and the last slot sent, and says more slots follow.
      expect(await verifySlots(fillers[1]!.root, ZERO_HASH, partial, res.proof)).toBe(true);
    });

    it('a proof that does not match the slots is rejected by the verifier', async () => {
      const res = await storageRanges([fillers[0]!.hash], BigInt(sizeOf(fillers[0]!.slots.slice(0, 20))));
      const slots = res.slots[0]!;
      expect(await verifySlots(fillers[0]!.root, ZERO_HASH, slots, res.proof)).toBe(true);
      const gapped = [...slots.slice(0, 5), ...slots.slice(6)];
      await expect(verifySlots(fillers[0]!.root, ZERO_HASH, gapped, res.proof)).rejects.toThrow();
    });

    it('applies the origin and the limit hash to the first account, and proves that range', async () => {
      const slots = fillers[0]!.slots;
      const origin = increment(slots[10]!.hash);
      const limit = decrement(slots[20]!.hash);
      const res = await storageRanges([fillers[0]!.hash, fillers[1]!.hash], TWO_MIB, { origin, limit });
      // From the first slot past the origin up to and including the first at or past the limit; nothing more.
      expect(res.slots).toHaveLength(1);
      expect(hashesOf(res.slots[0]!)).toEqual(hashesOf(slots.slice(11, 21)));
      expect(await verifySlots(fillers[0]!.root, origin, res.slots[0]!, res.proof)).toBe(true);

      // An origin past the last slot: no slots, and a proof that none is there.
      const past = increment(slots.at(-1)!.hash);
      const empty = await storageRanges([fillers[0]!.hash], TWO_MIB, { origin: past });
      expect(empty.slots).toEqual([[]]);
      expect(await verifyMerkleRangeProof(fillers[0]!.root, past, null, [], [], empty.proof)).toBe(false);
    });

    it('gives the same answers when the trie walk pages through few slots at a time', async () => {
      const paged = new SnapServer(chain, { slotsPerPage: 7 });
      const res = await storageRanges(
        fillers.map((f) => f.hash),
        TWO_MIB,
        { on: paged },
      );
      for (const [i, slots] of res.slots.entries()) expect(hashesOf(slots)).toEqual(hashesOf(fillers[i]!.slots));
      const limited = await storageRanges([fillers[2]!.hash], TWO_MIB, {
        on: paged,
        origin: fillers[2]!.slots[3]!.hash,
        limit: fillers[2]!.slots[40]!.hash,
      });
      expect(hashesOf(limited.slots[0]!)).toEqual(hashesOf(fillers[2]!.slots.slice(3, 41)));
    });

    it('answers an empty reply for a root it does not serve, and stops at an account not in the state', async () => {
      const unknown = await storageRanges([fillers[0]!.hash], TWO_MIB, { root: keccak256(FRESH) });
      expect(unknown).toEqual({ requestId: 31n, slots: [], proof: [] });
      const absent = await storageRanges([keccak256(new Uint8Array(20).fill(0x77)), fillers[0]!.hash], TWO_MIB);
      expect(absent).toEqual({ requestId: 31n, slots: [], proof: [] });
    });
  });

  describe('GetTrieNodes', () => {
    async function trieNodes(paths: Uint8Array[][], bytes = TWO_MIB, root = headRoot): Promise<Uint8Array[]> {
      const reply = await server.serve(
        SnapCode.GetTrieNodes,
        encodeGetTrieNodes({ requestId: 41n, root, paths, bytes }),
      );
      expect(reply?.code).toBe(SnapCode.TrieNodes);
      const res = decodeTrieNodes(reply!.payload);
      expect(res.requestId).toBe(41n);
      return res.nodes;
    }

    /** The children of a branch node that are referenced by hash: [nibble, hash]. */
    function hashedChildren(node: Uint8Array): [number, Uint8Array][] {
      const items = RLP.decode(node) as (Uint8Array | Uint8Array[])[];
      expect(items).toHaveLength(17);
      return items
        .slice(0, 16)
        .map((item, nibble) => [nibble, item] as [number, Uint8Array | Uint8Array[]])
        .filter((entry): entry is [number, Uint8Array] => entry[1] instanceof Uint8Array && entry[1].length === 32);
    }

    it('serves the account trie by path: each node hashes to its parent’s reference, in request order', async () => {
      const [root] = await trieNodes([[compact([])]]);
      expect(bytesToHex(keccak256(root!))).toBe(bytesToHex(headRoot));
      const children = hashedChildren(root!);
      expect(children.length).toBeGreaterThan(1);
      // Asked in reverse order, answered in that order.
      const asked = [...children].reverse();
      const nodes = await trieNodes(asked.map(([nibble]) => [compact([nibble])]));
      expect(nodes.map((n) => bytesToHex(keccak256(n)))).toEqual(asked.map(([, hash]) => bytesToHex(hash)));
    });

    it('serves a storage trie by path behind the account hash', async () => {
      const filler = fillers[0]!;
      const [root] = await trieNodes([[filler.hash, compact([])]]);
      expect(bytesToHex(keccak256(root!))).toBe(bytesToHex(filler.root));
      const children = hashedChildren(root!);
      expect(children.length).toBeGreaterThan(1);
      const nodes = await trieNodes([[filler.hash, ...children.map(([nibble]) => compact([nibble]))]]);
      expect(nodes.map((n) => bytesToHex(keccak256(n)))).toEqual(children.map(([, hash]) => bytesToHex(hash)));
      // Several path sets in one request: account nodes and storage nodes interleaved, in request order.
      const mixed = await trieNodes([[compact([])], [fillers[1]!.hash, compact([])], [filler.hash, compact([])]]);
      expect(mixed.map((n) => bytesToHex(keccak256(n)))).toEqual(
        [headRoot, fillers[1]!.root, filler.root].map((h) => bytesToHex(h)),
      );
    });

    it('leaves out paths that lead to no node, and stops at the byte limit', async () => {
      const [root] = await trieNodes([[compact([])]]);
      const [[nibble]] = hashedChildren(root!) as [[number, Uint8Array]];
      // 64 nibbles of a key that is not in the trie run past a leaf or into an empty slot.
      const nowhere = compact(Array.from({ length: 64 }, (_, i) => (i === 0 ? nibble : 0x0f)));
      const nodes = await trieNodes([[compact([])], [nowhere], [compact([nibble])]]);
      expect(nodes).toHaveLength(2);
      expect(bytesToHex(keccak256(nodes[0]!))).toBe(bytesToHex(headRoot));
      // One byte: the first node fills the answer.
      expect(await trieNodes([[compact([])], [compact([nibble])]], 1n)).toHaveLength(1);
    });

    it('answers an empty reply for a root it does not serve', async () => {
      expect(await trieNodes([[compact([])]], TWO_MIB, keccak256(FRESH))).toEqual([]);
    });
  });

  describe('requests whose asker is gone', () => {
    const ask = () => encodeGetByteCodes({ requestId: 3n, hashes: [keccak256(code)], bytes: TWO_MIB });

    it('drops a request unanswered when the asking peer left before its turn', async () => {
      const left = { link: { closed: true } };
      const before = server.skipped;
      expect(await server.serve(SnapCode.GetByteCodes, ask(), left)).toBeUndefined();
      expect(server.skipped).toBe(before + 1);
      expect(await server.serve(SnapCode.GetByteCodes, ask(), { link: { closed: false } })).toBeDefined();
    });

    it('drops a request that waited in the peer queue past the asker timeout', async () => {
      const on = new SnapServer(chain, { requestsPerPeer: 1, staleAfterMs: 100 });
      const peer = { link: { closed: false } };
      // The peer's one slot is taken for 300 ms: the request queued behind it waits past 100 ms.
      let release!: () => void;
      const busy = on.budget.run(peer, () => new Promise<void>((r) => (release = r)));
      const queued = on.serve(SnapCode.GetByteCodes, ask(), peer);
      await new Promise((r) => setTimeout(r, 300));
      release();
      await busy;
      expect(await queued).toBeUndefined();
      expect(on.skipped).toBe(1);
      // A request that finds the slot free is answered.
      expect((await on.serve(SnapCode.GetByteCodes, ask(), peer))?.code).toBe(SnapCode.ByteCodes);
    });
  });

  describe('other messages', () => {
    it('returns undefined for responses and unknown codes', async () => {
      const payload = encodeAccountRange({ requestId: 1n, accounts: [], proof: [] });
      expect(await server.serve(SnapCode.AccountRange, payload)).toBeUndefined();
      expect(await server.serve(0x08, payload)).toBeUndefined();
    });

    it('throws WireDecodeError for a malformed request', async () => {
      await expect(server.serve(SnapCode.GetAccountRange, RLP.encode([1, headRoot]))).rejects.toBeInstanceOf(
        WireDecodeError,
      );
      await expect(server.serve(SnapCode.GetByteCodes, new Uint8Array([0xc3, 0x01]))).rejects.toBeInstanceOf(
        WireDecodeError,
      );
    });
  });
});

describe('snap/1 serving over the wire', () => {
  let node: NodeProcess;
  let peer: TestPeer | undefined;
  /** Two filler contracts deployed through JSON-RPC: address, trie key, storage root and expected storage. */
  const deployed: { hash: Uint8Array; root: Uint8Array; slots: Slot[] }[] = [];
  let stateRoot: Uint8Array;

  beforeAll(async () => {
    node = await startNode({ timeoutMs: 60_000 });
    const from = DEV_ACCOUNTS[3]!.address;
    for (let i = 0; i < 2; i++) {
      const data = bytesToHex(fillerInitCode(SLOTS));
      const txHash = await call<string>(node.url, 'eth_sendTransaction', [{ from, data, gas: '0x2625a0' }]);
      let receipt: { contractAddress: string; status: string } | null = null;
      while (receipt === null) {
        receipt = await call(node.url, 'eth_getTransactionReceipt', [txHash]);
        if (receipt === null) await new Promise((r) => setTimeout(r, 100));
      }
      expect(receipt.status).toBe('0x1');
      const address = hexToBytes(receipt.contractAddress as `0x${string}`);
      const proof = await call<{ storageHash: string }>(node.url, 'eth_getProof', [
        receipt.contractAddress,
        [],
        'latest',
      ]);
      deployed.push({
        hash: keccak256(address),
        root: hexToBytes(proof.storageHash as `0x${string}`),
        slots: storageOf(address, SLOTS),
      });
    }
    const head = await call<{ stateRoot: string }>(node.url, 'eth_getBlockByNumber', ['latest', false]);
    stateRoot = hexToBytes(head.stateRoot as `0x${string}`);
    peer = await TestPeer.dial(node.enode!);
    await peer.nodeStatus;
  }, 90_000);
  afterAll(async () => {
    await peer?.destroy();
    await node?.stop();
  });

  /** Sends a snap request and waits for the answer with the same request id. */
  async function ask<T extends { requestId: bigint }>(
    code: number,
    payload: Uint8Array,
    answerCode: number,
    decode: (payload: Uint8Array) => T,
    requestId: bigint,
  ): Promise<T> {
    const answer = peer!.waitForMessage(
      (m) => {
        if (m.protocol !== 'snap' || m.code !== answerCode) return false;
        try {
          return decode(m.payload).requestId === requestId;
        } catch {
          return false;
        }
      },
      `snap answer 0x${answerCode.toString(16)} to request ${requestId}`,
    );
    expect(peer!.link.send('snap', code, payload)).toBe(true);
    return decode((await answer).payload);
  }

  it('serves storage ranges of several accounts whose proofs verify, and a cut range with its proof', async () => {
    const whole = await ask(
      SnapCode.GetStorageRanges,
      encodeGetStorageRanges({
        requestId: 1n,
        root: stateRoot,
        accounts: deployed.map((d) => d.hash),
        origin: new Uint8Array(0),
        limit: new Uint8Array(0),
        bytes: TWO_MIB,
      }),
      SnapCode.StorageRanges,
      decodeStorageRanges,
      1n,
    );
    expect(whole.slots.map((list) => list.map((s) => bytesToHex(s.hash)))).toEqual(
      deployed.map((d) => d.slots.map((s) => bytesToHex(s.hash))),
    );
    expect(whole.proof).toEqual([]);
    for (const [i, list] of whole.slots.entries()) {
      const keys = list.map((s) => s.hash);
      expect(
        await verifyMerkleRangeProof(
          deployed[i]!.root,
          null,
          null,
          keys,
          list.map((s) => s.body),
          null,
        ),
      ).toBe(false);
    }

    const cut = await ask(
      SnapCode.GetStorageRanges,
      encodeGetStorageRanges({
        requestId: 2n,
        root: stateRoot,
        accounts: deployed.map((d) => d.hash),
        origin: new Uint8Array(0),
        limit: new Uint8Array(0),
        bytes: 500n,
      }),
      SnapCode.StorageRanges,
      decodeStorageRanges,
      2n,
    );
    expect(cut.slots).toHaveLength(1);
    const part = cut.slots[0]!;
    expect(part.length).toBeLessThan(SLOTS);
    const keys = part.map((s) => s.hash);
    expect(
      await verifyMerkleRangeProof(
        deployed[0]!.root,
        ZERO_HASH,
        keys.at(-1)!,
        keys,
        part.map((s) => s.body),
        cut.proof,
      ),
    ).toBe(true);
  });

  it('answers every one of many pipelined requests (over the per-peer budget they wait, not drop)', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => 100n + BigInt(i));
    const answers = await Promise.all(
      ids.map((requestId) =>
        ask(
          SnapCode.GetTrieNodes,
          encodeGetTrieNodes({
            requestId,
            root: stateRoot,
            paths: [[compact([])], [deployed[1]!.hash, compact([])]],
            bytes: TWO_MIB,
          }),
          SnapCode.TrieNodes,
          decodeTrieNodes,
          requestId,
        ),
      ),
    );
    for (const answer of answers) {
      expect(answer.nodes.map((n) => bytesToHex(keccak256(n)))).toEqual([
        bytesToHex(stateRoot),
        bytesToHex(deployed[1]!.root),
      ]);
    }
  });
});
