/**
 * Serving snap/1 from a real chain engine: a dev chain in a temp dir with a deployed contract, asked for codes and
 * account ranges through the wire codec, with the answers' range proofs checked by @ethereumjs/mpt's verifier.
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
import type { Blockchain } from '../../src/chain/blockchain.js';
import { keccak256 } from '../../src/chain/crypto.js';
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
} from '../../src/p2p/snap/messages.js';
import { SnapServer } from '../../src/p2p/snap/serve.js';
import { addresses, mine, openDevChain, signedTx, tempDir } from '../chain/engine/fixtures.js';
import { Counter } from '../rpc/contracts.js';

const ZERO_HASH = new Uint8Array(32);
const MAX_HASH = new Uint8Array(32).fill(0xff);
const COINBASE = new Uint8Array(20).fill(0xcb);
const FRESH = new Uint8Array(20).fill(0x5a);
const TWO_MIB = 2n * 1024n * 1024n;

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
    const b2 = await mine(chain, [signedTx(chain, { from: 1, nonce: 0n, to: FRESH, value: 5n })], {
      coinbase: COINBASE,
    });
    expect(b2.result.status).toBe('head');

    const state = (await chain.stateAt('latest'))!;
    headRoot = state.stateRoot;
    code = await state.getCode(contract);
    expect(code.length).toBeGreaterThan(0);
    const holders = [...addresses, contract, COINBASE, FRESH];
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

  describe('other messages', () => {
    it('answers GetStorageRanges and GetTrieNodes with empty responses (not served yet)', async () => {
      const storage = await server.serve(
        SnapCode.GetStorageRanges,
        encodeGetStorageRanges({
          requestId: 3n,
          root: headRoot,
          accounts: [keccak256(contract)],
          origin: new Uint8Array(0),
          limit: MAX_HASH,
          bytes: TWO_MIB,
        }),
      );
      expect(storage?.code).toBe(SnapCode.StorageRanges);
      expect(decodeStorageRanges(storage!.payload)).toEqual({ requestId: 3n, slots: [], proof: [] });

      const nodes = await server.serve(
        SnapCode.GetTrieNodes,
        encodeGetTrieNodes({ requestId: 4n, root: headRoot, paths: [[new Uint8Array(0)]], bytes: TWO_MIB }),
      );
      expect(nodes?.code).toBe(SnapCode.TrieNodes);
      expect(decodeTrieNodes(nodes!.payload)).toEqual({ requestId: 4n, nodes: [] });
    });

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

/** The 32-byte big-endian number one above / below `hash` (with carry / borrow). */
function increment(hash: Uint8Array): Uint8Array {
  const out = Uint8Array.from(hash);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== 0xff) {
      out[i]!++;
      return out;
    }
    out[i] = 0;
  }
  return out;
}

function decrement(hash: Uint8Array): Uint8Array {
  const out = Uint8Array.from(hash);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== 0) {
      out[i]!--;
      return out;
    }
    out[i] = 0xff;
  }
  return out;
}
