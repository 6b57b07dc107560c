import { RLP } from '@ethereumjs/rlp';
import { accountBodyToSlim, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { bytes, enc, expectReject, h32, hex } from './wire-codec-fixture.js';
import * as snap from '../../src/p2p/snap/messages.js';
import { SnapCode, WireDecodeError } from '../../src/p2p/snap/messages.js';

const empty = new Uint8Array(0);

/** Slim account RLP as @ethereumjs/util builds it (empty root and code hash → empty strings). */
const plainAccount = RLP.encode(
  accountBodyToSlim([Uint8Array.of(5), bytes('0de0b6b3a7640000'), KECCAK256_RLP, KECCAK256_NULL]),
);
const contractAccount = RLP.encode(accountBodyToSlim([Uint8Array.of(1), empty, h32('5707a6e'), h32('c0de')]));

describe('constants', () => {
  it('match snap/1', () => {
    expect(snap.SNAP_VERSION).toBe(1);
    expect(snap.SNAP_MESSAGE_COUNT).toBe(8);
    expect(Object.values(SnapCode)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('round trips', () => {
  it('GetAccountRange: [reqID, root, origin, limit, bytes] with minimal integers', () => {
    const req = {
      requestId: 1n,
      root: h32('aa'),
      origin: new Uint8Array(32),
      limit: new Uint8Array(32).fill(0xff),
      bytes: 512n * 1024n,
    };
    const wire = snap.encodeGetAccountRange(req);
    expect(hex(wire)).toBe(`f86801a0${hex(req.root)}a0${'00'.repeat(32)}a0${'ff'.repeat(32)}83080000`);
    expect(snap.decodeGetAccountRange(wire)).toEqual(req);
  });

  it('AccountRange embeds the slim body as a list (geth rlp.RawValue), not as a byte string', () => {
    expect(hex(plainAccount)).toBe('cc05880de0b6b3a76400008080');
    const res = {
      requestId: 7n,
      accounts: [
        { hash: h32('01'), body: plainAccount },
        { hash: h32('02'), body: contractAccount },
      ],
      proof: [bytes('c0ffee'), bytes('beef')],
    };
    const wire = snap.encodeAccountRange(res);
    const expected = enc([
      Uint8Array.of(7),
      [
        [h32('01'), RLP.decode(plainAccount)],
        [h32('02'), RLP.decode(contractAccount)],
      ],
      [bytes('c0ffee'), bytes('beef')],
    ]);
    expect(hex(wire)).toBe(hex(expected));
    expect(snap.decodeAccountRange(wire)).toEqual(res);
    expect(snap.decodeAccountRange(snap.encodeAccountRange({ requestId: 0n, accounts: [], proof: [] }))).toEqual({
      requestId: 0n,
      accounts: [],
      proof: [],
    });
  });

  it('GetStorageRanges and StorageRanges', () => {
    const req = {
      requestId: 3n,
      root: h32('aa'),
      accounts: [h32('01'), h32('02')],
      origin: empty,
      limit: empty,
      bytes: 1000n,
    };
    expect(snap.decodeGetStorageRanges(snap.encodeGetStorageRanges(req))).toEqual(req);
    const single = { ...req, accounts: [h32('01')], origin: h32('10'), limit: new Uint8Array(32).fill(0xff) };
    expect(snap.decodeGetStorageRanges(snap.encodeGetStorageRanges(single))).toEqual(single);
    const res = { requestId: 3n, slots: [[{ hash: h32('11'), body: bytes('822a2a') }], []], proof: [] };
    expect(snap.decodeStorageRanges(snap.encodeStorageRanges(res))).toEqual(res);
  });

  it('GetByteCodes and ByteCodes', () => {
    const req = { requestId: 4n, hashes: [h32('c0de'), h32('c0df')], bytes: 2n ** 64n - 1n };
    expect(snap.decodeGetByteCodes(snap.encodeGetByteCodes(req))).toEqual(req);
    const res = { requestId: 4n, codes: [bytes('6001600055'), empty] };
    expect(snap.decodeByteCodes(snap.encodeByteCodes(res))).toEqual(res);
  });

  it('GetTrieNodes and TrieNodes', () => {
    const req = {
      requestId: 5n,
      root: h32('aa'),
      paths: [[bytes('01')], [h32('02'), bytes('1f'), bytes('20')]],
      bytes: 100n,
    };
    expect(snap.decodeGetTrieNodes(snap.encodeGetTrieNodes(req))).toEqual(req);
    const res = { requestId: 5n, nodes: [bytes('c0'), bytes('e2a0')] };
    expect(snap.decodeTrieNodes(snap.encodeTrieNodes(res))).toEqual(res);
  });
});

describe('emptySnapResponse', () => {
  it('answers each request with the matching empty response and its request id', () => {
    const cases: Array<[number, Uint8Array, number, unknown]> = [
      [
        SnapCode.GetAccountRange,
        snap.encodeGetAccountRange({ requestId: 11n, root: h32('1'), origin: h32('0'), limit: h32('f'), bytes: 1n }),
        SnapCode.AccountRange,
        { requestId: 11n, accounts: [], proof: [] },
      ],
      [
        SnapCode.GetStorageRanges,
        snap.encodeGetStorageRanges({
          requestId: 12n,
          root: h32('1'),
          accounts: [h32('2')],
          origin: empty,
          limit: empty,
          bytes: 1n,
        }),
        SnapCode.StorageRanges,
        { requestId: 12n, slots: [], proof: [] },
      ],
      [
        SnapCode.GetByteCodes,
        snap.encodeGetByteCodes({ requestId: 13n, hashes: [h32('3')], bytes: 1n }),
        SnapCode.ByteCodes,
        { requestId: 13n, codes: [] },
      ],
      [
        SnapCode.GetTrieNodes,
        snap.encodeGetTrieNodes({ requestId: 14n, root: h32('1'), paths: [[empty]], bytes: 1n }),
        SnapCode.TrieNodes,
        { requestId: 14n, nodes: [] },
      ],
    ];
    const decoders: Record<number, (p: Uint8Array) => unknown> = {
      [SnapCode.AccountRange]: snap.decodeAccountRange,
      [SnapCode.StorageRanges]: snap.decodeStorageRanges,
      [SnapCode.ByteCodes]: snap.decodeByteCodes,
      [SnapCode.TrieNodes]: snap.decodeTrieNodes,
    };
    for (const [code, payload, answerCode, answer] of cases) {
      const out = snap.emptySnapResponse(code, payload);
      expect(out?.code).toBe(answerCode);
      expect(decoders[answerCode]!(out!.payload)).toEqual(answer);
    }
  });

  it('ignores responses and throws WireDecodeError for a malformed request', () => {
    expect(snap.emptySnapResponse(SnapCode.AccountRange, enc([]))).toBeUndefined();
    expect(snap.emptySnapResponse(99, enc([]))).toBeUndefined();
    expect(() => snap.emptySnapResponse(SnapCode.GetByteCodes, enc([Uint8Array.of(1)]))).toThrow(WireDecodeError);
  });
});

describe('malformed input is a WireDecodeError naming the message and field', () => {
  const okGet = [Uint8Array.of(1), h32('1'), h32('2'), h32('3'), Uint8Array.of(9)];
  const replace = (arr: unknown[], i: number, v: unknown) => arr.map((x, j) => (j === i ? v : x));

  it('GetAccountRange', () => {
    expect(snap.decodeGetAccountRange(enc(okGet)).bytes).toBe(9n);
    expectReject(snap.decodeGetAccountRange, bytes('c0ff'), /^GetAccountRange: invalid RLP/);
    expectReject(
      snap.decodeGetAccountRange,
      enc(okGet.slice(0, 4)),
      /^GetAccountRange: message must have 5 items, got 4/,
    );
    expectReject(
      snap.decodeGetAccountRange,
      enc(replace(okGet, 1, new Uint8Array(31))),
      /root must be 32 bytes, got 31/,
    );
    expectReject(snap.decodeGetAccountRange, enc(replace(okGet, 2, [h32('2')])), /origin must be a byte string/);
    expectReject(
      snap.decodeGetAccountRange,
      enc(replace(okGet, 4, new Uint8Array(9).fill(1))),
      /bytes is a 9-byte integer/,
    );
    expectReject(
      snap.decodeGetAccountRange,
      enc(replace(okGet, 0, bytes('00'))),
      /request id is a non-canonical integer/,
    );
  });

  it('AccountRange', () => {
    const acc = (body: unknown) => enc([Uint8Array.of(1), [[h32('1'), body]], []]);
    expectReject(snap.decodeAccountRange, acc(plainAccount), /^AccountRange: accounts\[0\]\.body must be a list/);
    expectReject(
      snap.decodeAccountRange,
      acc([Uint8Array.of(1), empty, empty]),
      /accounts\[0\]\.body must have 4 items, got 3/,
    );
    expectReject(
      snap.decodeAccountRange,
      acc([Uint8Array.of(1), empty, new Uint8Array(31), empty]),
      /accounts\[0\]\.body\.storageRoot must be empty \(slim\) or 32 bytes, got 31/,
    );
    expectReject(
      snap.decodeAccountRange,
      acc([Uint8Array.of(1), empty, empty, Uint8Array.of(1)]),
      /body\.codeHash must be empty \(slim\) or 32 bytes, got 1/,
    );
    expectReject(
      snap.decodeAccountRange,
      acc([new Uint8Array(9).fill(1), empty, empty, empty]),
      /body\.nonce is a 9-byte integer/,
    );
    expectReject(
      snap.decodeAccountRange,
      acc([empty, new Uint8Array(33).fill(1), empty, empty]),
      /body\.balance is a 33-byte integer/,
    );
    expectReject(snap.decodeAccountRange, enc([Uint8Array.of(1), [[h32('1')]], []]), /accounts\[0\] must have 2 items/);
    expectReject(snap.decodeAccountRange, enc([Uint8Array.of(1), [], [[]]]), /proof\[0\] must be a byte string/);
  });

  it('GetStorageRanges', () => {
    const ok = [Uint8Array.of(1), h32('1'), [h32('2')], empty, empty, Uint8Array.of(9)];
    expect(snap.decodeGetStorageRanges(enc(ok)).accounts).toEqual([h32('2')]);
    expectReject(
      snap.decodeGetStorageRanges,
      enc(replace(ok, 2, [h32('2').subarray(1)])),
      /^GetStorageRanges: accounts\[0\] must be 32 bytes/,
    );
    expectReject(
      snap.decodeGetStorageRanges,
      enc(replace(ok, 3, new Uint8Array(33))),
      /origin must be at most 32 bytes, got 33/,
    );
    expectReject(snap.decodeGetStorageRanges, enc(replace(ok, 4, [])), /limit must be a byte string/);
    expectReject(snap.decodeGetStorageRanges, enc(ok.slice(0, 5)), /message must have 6 items, got 5/);
  });

  it('StorageRanges', () => {
    expectReject(
      snap.decodeStorageRanges,
      enc([Uint8Array.of(1), [[[h32('1')]]], []]),
      /^StorageRanges: slots\[0\]\[0\] must have 2 items/,
    );
    expectReject(
      snap.decodeStorageRanges,
      enc([Uint8Array.of(1), [[h32('1'), empty]], []]),
      /slots\[0\]\[0\] must be a list/,
    );
  });

  it('GetByteCodes and ByteCodes', () => {
    expectReject(
      snap.decodeGetByteCodes,
      enc([Uint8Array.of(1), [empty], Uint8Array.of(1)]),
      /^GetByteCodes: hashes\[0\] must be 32 bytes, got 0/,
    );
    expectReject(snap.decodeGetByteCodes, enc([Uint8Array.of(1), h32('1'), Uint8Array.of(1)]), /hashes must be a list/);
    expectReject(
      snap.decodeByteCodes,
      enc([Uint8Array.of(1), [[empty]]]),
      /^ByteCodes: codes\[0\] must be a byte string/,
    );
  });

  it('GetTrieNodes and TrieNodes', () => {
    expectReject(
      snap.decodeGetTrieNodes,
      enc([Uint8Array.of(1), h32('1'), [[]], Uint8Array.of(1)]),
      /^GetTrieNodes: paths\[0\] must hold at least the account path/,
    );
    expectReject(
      snap.decodeGetTrieNodes,
      enc([Uint8Array.of(1), h32('1'), [empty], Uint8Array.of(1)]),
      /paths\[0\] must be a list/,
    );
    expectReject(
      snap.decodeGetTrieNodes,
      enc([Uint8Array.of(1), h32('1'), [[[empty]]], Uint8Array.of(1)]),
      /paths\[0\]\[0\] must be a byte string/,
    );
    expectReject(snap.decodeTrieNodes, enc([Uint8Array.of(1)]), /^TrieNodes: message must have 2 items, got 1/);
  });

  it('random mutations never escape as anything but WireDecodeError', () => {
    const valid: Array<[string, (p: Uint8Array) => unknown, Uint8Array]> = [
      ['GetAccountRange', snap.decodeGetAccountRange, enc(okGet)],
      [
        'AccountRange',
        snap.decodeAccountRange,
        snap.encodeAccountRange({
          requestId: 1n,
          accounts: [{ hash: h32('1'), body: contractAccount }],
          proof: [bytes('c0')],
        }),
      ],
      [
        'GetStorageRanges',
        snap.decodeGetStorageRanges,
        snap.encodeGetStorageRanges({
          requestId: 1n,
          root: h32('1'),
          accounts: [h32('2')],
          origin: empty,
          limit: empty,
          bytes: 5n,
        }),
      ],
      [
        'GetByteCodes',
        snap.decodeGetByteCodes,
        snap.encodeGetByteCodes({ requestId: 1n, hashes: [h32('1')], bytes: 5n }),
      ],
      [
        'GetTrieNodes',
        snap.decodeGetTrieNodes,
        snap.encodeGetTrieNodes({ requestId: 1n, root: h32('1'), paths: [[bytes('01'), bytes('02')]], bytes: 5n }),
      ],
    ];
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    let rejected = 0;
    for (const [name, decode, good] of valid) {
      expect(() => decode(good)).not.toThrow();
      for (let round = 0; round < 300; round++) {
        const p = good.slice();
        p[Math.floor(rand() * p.length)] = Math.floor(rand() * 256);
        const input = round % 2 === 0 ? p : p.subarray(0, Math.floor(rand() * p.length));
        try {
          decode(input);
        } catch (err) {
          expect(err, `${name} on ${hex(input)}`).toBeInstanceOf(WireDecodeError);
          expect((err as Error).message.startsWith(`${name}: `)).toBe(true);
          rejected++;
        }
      }
    }
    expect(rejected).toBeGreaterThan(500);
  });
});
