import { describe, expect, it } from 'vitest';
import { bytes, enc, expectReject, h32, hex } from './wire-codec-fixture.js';
import * as eth from '../../src/p2p/eth/messages.js';
import {
  EthCode,
  WireDecodeError,
  type RawBody,
  type RawHeader,
  type RawReceipt,
  type RawTx,
} from '../../src/p2p/eth/messages.js';
import { MAX_RLP_DEPTH } from '../../src/p2p/wire-shape.js';

/** A 15-field pre-London header (ETC's form), distinct per `seed`. */
function header(seed: number): RawHeader {
  const f = (n: number) => Uint8Array.of(seed, n);
  return [
    h32('01'),
    h32('02'),
    new Uint8Array(20).fill(seed),
    h32('03'),
    h32('04'),
    h32('05'),
    new Uint8Array(256),
    f(1),
    f(2),
    f(3),
    f(4),
    f(5),
    f(6),
    h32('06'),
    new Uint8Array(8).fill(seed),
  ];
}
const legacyTx: Uint8Array[] = [
  Uint8Array.of(9),
  bytes('04a817c809'),
  bytes('033450'),
  new Uint8Array(20).fill(0x35),
  bytes('02d9'),
  new Uint8Array(0),
  Uint8Array.of(0x25),
  h32('aa'),
  h32('bb'),
];
const typedTx = bytes('01f8650180843b9aca0082520894');
const legacyReceipt = [
  Uint8Array.of(1),
  bytes('5208'),
  new Uint8Array(256),
  [[new Uint8Array(20).fill(0x11), [h32('dead'), h32('beef')], bytes('0100ff')]],
];
const typedReceipt = new Uint8Array([0x01, ...enc([new Uint8Array(0), bytes('01'), new Uint8Array(256), []])]);

/** Throws a WireDecodeError whose message matches every pattern. */

describe('constants', () => {
  it('match eth/68', () => {
    expect(eth.ETH_VERSION).toBe(68);
    expect(eth.ETH_MESSAGE_COUNT).toBe(17);
    expect(Math.max(...Object.values(EthCode)) + 1).toBe(eth.ETH_MESSAGE_COUNT);
    expect(eth.MAX_HEADERS_SERVE).toBe(1024);
  });
});

describe('go-ethereum wire vectors (EIP-2481 / eth/protocols/eth/protocol_test.go)', () => {
  const hashes = [h32('deadc0de'), h32('feedbeef')];

  it('GetBlockHeaders by number and by hash', () => {
    const byNumber = bytes('ca820457c682270f050580');
    expect(
      hex(eth.encodeGetBlockHeaders({ requestId: 1111n, origin: 9999n, amount: 5, skip: 5, reverse: false })),
    ).toBe(hex(byNumber));
    expect(eth.decodeGetBlockHeaders(byNumber)).toEqual({
      requestId: 1111n,
      origin: 9999n,
      amount: 5,
      skip: 5,
      reverse: false,
    });
    const byHash = bytes('e8820457e4a000000000000000000000000000000000000000000000000000000000deadc0de050580');
    expect(
      hex(eth.encodeGetBlockHeaders({ requestId: 1111n, origin: hashes[0]!, amount: 5, skip: 5, reverse: false })),
    ).toBe(hex(byHash));
    expect(eth.decodeGetBlockHeaders(byHash)).toEqual({
      requestId: 1111n,
      origin: hashes[0],
      amount: 5,
      skip: 5,
      reverse: false,
    });
  });

  it('GetBlockBodies, GetReceipts and GetPooledTransactions', () => {
    const want =
      'f847820457f842a000000000000000000000000000000000000000000000000000000000deadc0dea000000000000000000000000000000000000000000000000000000000feedbeef';
    expect(hex(eth.encodeGetBlockBodies(1111n, hashes))).toBe(want);
    expect(hex(eth.encodeGetReceipts(1111n, hashes))).toBe(want);
    expect(hex(eth.encodeGetPooledTransactions(1111n, hashes))).toBe(want);
    for (const decode of [eth.decodeGetBlockBodies, eth.decodeGetReceipts, eth.decodeGetPooledTransactions]) {
      expect(decode(bytes(want))).toEqual({ requestId: 1111n, hashes });
    }
  });

  const txsHex =
    'f867088504a817c8088302e2489435353535353535353535353535353535353535358202008025a064b1702d9298fee62dfeccc57d322a463ad55ca201256d01f62b45b2e1c21c12a064b1702d9298fee62dfeccc57d322a463ad55ca201256d01f62b45b2e1c21c10' +
    'f867098504a817c809830334509435353535353535353535353535353535353535358202d98025a052f8f61201b2b11a78d6e866abc9c3db2ae8631fa656bfe5cb53668255367afba052f8f61201b2b11a78d6e866abc9c3db2ae8631fa656bfe5cb53668255367afb';

  it('PooledTransactions (two legacy transactions)', () => {
    const wire = bytes(`f8d7820457f8d2${txsHex}`);
    const { requestId, txs } = eth.decodePooledTransactions(wire);
    expect(requestId).toBe(1111n);
    expect(txs).toHaveLength(2);
    expect((txs[0] as Uint8Array[])[0]).toEqual(Uint8Array.of(8));
    expect(hex(eth.encodePooledTransactions(requestId, txs))).toBe(hex(wire));
  });

  it('BlockBodies (two legacy transactions, one uncle)', () => {
    // The uncle: a 15-field header, zero hashes, empty bloom, difficulty 0x08ae, number 0x0d05, …, extra 0x7788.
    const z = (n: number) => '00'.repeat(n);
    const uncle = `f901f9a0${z(32)}a0${z(32)}94${z(20)}a0${z(32)}a0${z(32)}a0${z(32)}b90100${z(256)}8208ae820d0582115c8215b3821a0a827788a0${z(32)}88${z(8)}`;
    const wire = bytes(`f902dc820457f902d6f902d3f8d2${txsHex}f901fc${uncle}`);
    const { requestId, bodies } = eth.decodeBlockBodies(wire);
    expect(requestId).toBe(1111n);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.txs).toHaveLength(2);
    expect(bodies[0]!.uncles).toHaveLength(1);
    expect(bodies[0]!.uncles[0]).toHaveLength(15);
    expect(bodies[0]!.uncles[0]![8]).toEqual(bytes('0d05'));
    expect(hex(eth.encodeBlockBodies(requestId, bodies))).toBe(hex(wire));
  });

  it('Receipts (one block, one legacy receipt with a log)', () => {
    const wire = bytes(
      'f90172820457f9016cf90169f901668001b9010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000f85ff85d940000000000000000000000000000000000000011f842a0000000000000000000000000000000000000000000000000000000000000deada0000000000000000000000000000000000000000000000000000000000000beef830100ff',
    );
    const { requestId, receipts } = eth.decodeReceipts(wire);
    expect(requestId).toBe(1111n);
    expect(receipts).toHaveLength(1);
    const [status, gas] = receipts[0]![0] as Uint8Array[];
    expect(status).toEqual(new Uint8Array(0)); // failed
    expect(gas).toEqual(Uint8Array.of(1));
    expect(hex(eth.encodeReceipts(requestId, receipts))).toBe(hex(wire));
  });

  it('NewBlockHashes (block 10567341)', () => {
    const wire = bytes('e6e5a07100614faba6650b53fe0913ed7267bcc968eb362e3df908645a50aa526c72ba83a13ead');
    const items = eth.decodeNewBlockHashes(wire);
    expect(items).toEqual([
      { hash: bytes('7100614faba6650b53fe0913ed7267bcc968eb362e3df908645a50aa526c72ba'), number: 10567341n },
    ]);
    expect(hex(eth.encodeNewBlockHashes(items))).toBe(hex(wire));
  });
});

describe('round trips', () => {
  it('Status, with minimal integers and the fork id of reference §1.4', () => {
    const status = {
      version: 68,
      networkId: 1n,
      td: 0x400000000n,
      bestHash: h32('be57'),
      genesisHash: bytes('d4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3'),
      forkId: { hash: bytes('fc64ec04'), next: 1_150_000n },
    };
    const wire = eth.encodeStatus(status);
    // [0x44, 0x01, 0x85 0400000000, 0xa0 best, 0xa0 genesis, c984fc64ec0483118c30]
    expect(hex(wire)).toBe(
      `f854440185040000000${'0'}a0${hex(status.bestHash)}a0${hex(status.genesisHash)}c984fc64ec0483118c30`,
    );
    expect(eth.decodeStatus(wire)).toEqual(status);
  });

  it('Status fork id encodings of EIP-2124', () => {
    const base = { version: 68, networkId: 0n, td: 0n, bestHash: h32('1'), genesisHash: h32('2') };
    const cases: Array<[string, bigint, string]> = [
      ['00000000', 0n, 'c6840000000080'],
      ['deadbeef', 0xbaddcafen, 'ca84deadbeef84baddcafe'],
      ['ffffffff', 2n ** 64n - 1n, 'ce84ffffffff88ffffffffffffffff'],
    ];
    for (const [hash, next, want] of cases) {
      const wire = eth.encodeStatus({ ...base, forkId: { hash: bytes(hash), next } });
      expect(hex(wire).endsWith(want)).toBe(true);
      expect(eth.decodeStatus(wire).forkId).toEqual({ hash: bytes(hash), next });
    }
  });

  it('Status with zero td and network id encodes them as empty strings', () => {
    const wire = eth.encodeStatus({
      version: 68,
      networkId: 0n,
      td: 0n,
      bestHash: h32('1'),
      genesisHash: h32('2'),
      forkId: { hash: bytes('00000000'), next: 0n },
    });
    expect(hex(wire).slice(4, 10)).toBe('448080');
  });

  it('Transactions: legacy lists and typed bytes side by side', () => {
    const txs: RawTx[] = [legacyTx, typedTx];
    expect(eth.decodeTransactions(eth.encodeTransactions(txs))).toEqual(txs);
    expect(eth.decodeTransactions(eth.encodeTransactions([]))).toEqual([]);
  });

  it('GetBlockHeaders: reverse, zero origin, huge skip saturates', () => {
    const req = { requestId: 0n, origin: 0n, amount: 1024, skip: 0, reverse: true };
    expect(eth.decodeGetBlockHeaders(eth.encodeGetBlockHeaders(req))).toEqual(req);
    const huge = enc([
      Uint8Array.of(7),
      [Uint8Array.of(1), Uint8Array.of(2), bytes('ffffffffffffffff'), new Uint8Array(0)],
    ]);
    expect(eth.decodeGetBlockHeaders(huge)).toMatchObject({
      requestId: 7n,
      origin: 1n,
      amount: 2,
      skip: Number.MAX_SAFE_INTEGER,
      reverse: false,
    });
  });

  it('BlockHeaders', () => {
    const headers = [header(1), header(2), [...header(3), Uint8Array.of(0xcc)]];
    expect(eth.decodeBlockHeaders(eth.encodeBlockHeaders(2n ** 64n - 1n, headers))).toEqual({
      requestId: 2n ** 64n - 1n,
      headers,
    });
    expect(eth.decodeBlockHeaders(eth.encodeBlockHeaders(5n, []))).toEqual({ requestId: 5n, headers: [] });
  });

  it('BlockBodies: empty bodies and mixed transactions', () => {
    const bodies: RawBody[] = [
      { txs: [], uncles: [] },
      { txs: [legacyTx, typedTx], uncles: [header(4), header(5)] },
    ];
    expect(eth.decodeBlockBodies(eth.encodeBlockBodies(9n, bodies))).toEqual({ requestId: 9n, bodies });
  });

  it('NewBlock', () => {
    const msg = {
      block: [header(7), [typedTx, legacyTx], [header(8)]] as [RawHeader, RawTx[], RawHeader[]],
      td: 2n ** 200n + 3n,
    };
    expect(eth.decodeNewBlock(eth.encodeNewBlock(msg))).toEqual(msg);
  });

  it('NewPooledTransactionHashes (eth/68: types as one byte string)', () => {
    const a = { types: Uint8Array.of(0, 1), sizes: [110, 4_294_967_295], hashes: [h32('a1'), h32('a2')] };
    const wire = eth.encodeNewPooledTransactionHashes(a);
    expect(hex(wire).startsWith('f84e820001c66e84ffffffff')).toBe(true);
    expect(eth.decodeNewPooledTransactionHashes(wire)).toEqual(a);
    const empty = { types: new Uint8Array(0), sizes: [], hashes: [] };
    expect(eth.decodeNewPooledTransactionHashes(eth.encodeNewPooledTransactionHashes(empty))).toEqual(empty);
  });

  it('PooledTransactions', () => {
    expect(eth.decodePooledTransactions(eth.encodePooledTransactions(3n, [typedTx]))).toEqual({
      requestId: 3n,
      txs: [typedTx],
    });
  });

  it('Receipts: legacy lists, typed bytes, post-state roots, blocks without receipts', () => {
    const preByzantium = [h32('5ea7'), bytes('5208'), new Uint8Array(256), []];
    const receipts: RawReceipt[][] = [[legacyReceipt, typedReceipt, preByzantium], []];
    expect(eth.decodeReceipts(eth.encodeReceipts(4n, receipts))).toEqual({ requestId: 4n, receipts });
  });
});

describe('malformed input is a WireDecodeError naming the message and field', () => {
  const status = (fields: unknown[]) => enc(fields);
  const okStatus = [
    Uint8Array.of(68),
    Uint8Array.of(1),
    Uint8Array.of(1),
    h32('1'),
    h32('2'),
    [bytes('fc64ec04'), new Uint8Array(0)],
  ];
  const replace = (arr: unknown[], i: number, v: unknown) => arr.map((x, j) => (j === i ? v : x));

  it('invalid RLP and trailing bytes', () => {
    expectReject(eth.decodeStatus, new Uint8Array(0), /^Status: message must be a list/);
    expectReject(eth.decodeStatus, bytes('c0ff'), /^Status: invalid RLP/);
    expectReject(eth.decodeStatus, bytes('f9ffff00'), /^Status: invalid RLP/);
    expectReject(eth.decodeStatus, bytes('c28100'), /^Status: invalid RLP/); // 0x00 wrongly prefixed
    expectReject(eth.decodeStatus, new Uint8Array([...status(okStatus), 0x80]), /^Status: invalid RLP/);
  });

  it('Status fields', () => {
    expect(eth.decodeStatus(status(okStatus)).version).toBe(68);
    expectReject(eth.decodeStatus, status(okStatus.slice(0, 5)), /^Status: message must have 6 items, got 5/);
    expectReject(
      eth.decodeStatus,
      status(replace(okStatus, 0, bytes('0100000000'))),
      /version is a 5-byte integer, at most 4/,
    );
    expectReject(
      eth.decodeStatus,
      status(replace(okStatus, 1, bytes('010000000000000000'))),
      /networkId is a 9-byte integer, at most 8/,
    );
    expectReject(eth.decodeStatus, status(replace(okStatus, 1, bytes('0001'))), /networkId is a non-canonical integer/);
    expectReject(eth.decodeStatus, status(replace(okStatus, 2, new Uint8Array(33).fill(1))), /td is a 33-byte integer/);
    expectReject(eth.decodeStatus, status(replace(okStatus, 2, [])), /td must be a byte string, got a list/);
    expectReject(
      eth.decodeStatus,
      status(replace(okStatus, 3, new Uint8Array(31))),
      /bestHash must be 32 bytes, got 31/,
    );
    expectReject(eth.decodeStatus, status(replace(okStatus, 4, [h32('2')])), /genesisHash must be a byte string/);
    expectReject(eth.decodeStatus, status(replace(okStatus, 5, bytes('fc64ec04'))), /forkId must be a list/);
    expectReject(
      eth.decodeStatus,
      status(replace(okStatus, 5, [bytes('fc64ec'), new Uint8Array(0)])),
      /forkId\.hash must be 4 bytes, got 3/,
    );
    expectReject(
      eth.decodeStatus,
      status(replace(okStatus, 5, [bytes('fc64ec04'), bytes('010000000000000000')])),
      /forkId\.next is a 9-byte integer/,
    );
    expectReject(
      eth.decodeStatus,
      status(replace(okStatus, 5, [bytes('fc64ec04')])),
      /forkId must have 2 items, got 1/,
    );
  });

  it('NewBlockHashes', () => {
    expectReject(eth.decodeNewBlockHashes, enc([[h32('1')]]), /^NewBlockHashes: announcements\[0\] must have 2 items/);
    expectReject(
      eth.decodeNewBlockHashes,
      enc([
        [h32('1'), Uint8Array.of(1)],
        [new Uint8Array(20), Uint8Array.of(1)],
      ]),
      /announcements\[1\]\.hash must be 32 bytes, got 20/,
    );
    expectReject(
      eth.decodeNewBlockHashes,
      enc([[h32('1'), new Uint8Array(9).fill(1)]]),
      /announcements\[0\]\.number is a 9-byte integer/,
    );
    expectReject(eth.decodeNewBlockHashes, enc(h32('1')), /announcements must be a list/);
  });

  it('Transactions', () => {
    expectReject(
      eth.decodeTransactions,
      enc([legacyTx.slice(0, 8)]),
      /^Transactions: txs\[0\] must have 9 fields as a legacy transaction, got 8/,
    );
    expectReject(
      eth.decodeTransactions,
      enc([typedTx, [...legacyTx.slice(0, 8), [Uint8Array.of(1)]]]),
      /txs\[1\]\[8\] must be a byte string/,
    );
    expectReject(eth.decodeTransactions, enc([new Uint8Array(0)]), /txs\[0\] is an empty typed transaction/);
    expectReject(eth.decodeTransactions, enc([bytes('f86508')]), /txs\[0\] must start with an EIP-2718 type byte/);
  });

  it('GetBlockHeaders', () => {
    const q = (
      origin: unknown,
      amount: unknown = Uint8Array.of(1),
      skip: unknown = new Uint8Array(0),
      reverse: unknown = new Uint8Array(0),
    ) => enc([Uint8Array.of(1), [origin, amount, skip, reverse]]);
    expectReject(
      eth.decodeGetBlockHeaders,
      q(new Uint8Array(20).fill(1)),
      /^GetBlockHeaders: origin must be a block number \(≤ 8 bytes\) or a 32-byte hash, got 20 bytes/,
    );
    expectReject(eth.decodeGetBlockHeaders, q(bytes('0001')), /origin is a non-canonical integer/);
    expectReject(eth.decodeGetBlockHeaders, q([]), /origin must be a byte string/);
    expectReject(
      eth.decodeGetBlockHeaders,
      q(Uint8Array.of(1), new Uint8Array(9).fill(1)),
      /amount is a 9-byte integer/,
    );
    expectReject(
      eth.decodeGetBlockHeaders,
      q(Uint8Array.of(1), Uint8Array.of(1), [Uint8Array.of(1)]),
      /skip must be a byte string/,
    );
    expectReject(
      eth.decodeGetBlockHeaders,
      q(Uint8Array.of(1), Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(2)),
      /reverse must be 0 or 1/,
    );
    expectReject(
      eth.decodeGetBlockHeaders,
      q(Uint8Array.of(1), Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(0)),
      /reverse must be 0 or 1/,
    );
    expectReject(
      eth.decodeGetBlockHeaders,
      enc([Uint8Array.of(1), [Uint8Array.of(1), Uint8Array.of(1), Uint8Array.of(1)]]),
      /query must have 4 items, got 3/,
    );
    expectReject(
      eth.decodeGetBlockHeaders,
      enc([[Uint8Array.of(1)], [Uint8Array.of(1), Uint8Array.of(1), Uint8Array.of(1), new Uint8Array(0)]]),
      /request id must be a byte string/,
    );
    expectReject(eth.decodeGetBlockHeaders, enc([Uint8Array.of(1)]), /message must have 2 items, got 1/);
  });

  it('BlockHeaders', () => {
    expectReject(
      eth.decodeBlockHeaders,
      enc([Uint8Array.of(1), [header(1), header(2).slice(0, 14)]]),
      /^BlockHeaders: headers\[1\] must have at least 15 fields, got 14/,
    );
    expectReject(
      eth.decodeBlockHeaders,
      enc([Uint8Array.of(1), [header(1).map((f, i) => (i === 3 ? [f] : f))]]),
      /headers\[0\]\[3\] must be a byte string/,
    );
    expectReject(eth.decodeBlockHeaders, enc([Uint8Array.of(1), header(1)]), /headers\[0\] must be a list/);
    expectReject(eth.decodeBlockHeaders, enc([new Uint8Array(9).fill(1), []]), /request id is a 9-byte integer/);
  });

  it('hash-list requests', () => {
    expectReject(
      eth.decodeGetBlockBodies,
      enc([Uint8Array.of(1), [h32('1'), h32('1').subarray(1)]]),
      /^GetBlockBodies: hashes\[1\] must be 32 bytes, got 31/,
    );
    expectReject(eth.decodeGetReceipts, enc([Uint8Array.of(1), h32('1')]), /^GetReceipts: hashes must be a list/);
    expectReject(
      eth.decodeGetPooledTransactions,
      enc([Uint8Array.of(1), [[h32('1')]]]),
      /^GetPooledTransactions: hashes\[0\] must be a byte string/,
    );
  });

  it('BlockBodies', () => {
    expectReject(
      eth.decodeBlockBodies,
      enc([Uint8Array.of(1), [[[], [], []]]]),
      /^BlockBodies: bodies\[0\] must have 2 items, got 3/,
    );
    expectReject(
      eth.decodeBlockBodies,
      enc([Uint8Array.of(1), [[[legacyTx], [header(1).slice(1)]]]]),
      /bodies\[0\]\.uncles\[0\] must have at least 15 fields/,
    );
    expectReject(
      eth.decodeBlockBodies,
      enc([Uint8Array.of(1), [[[legacyTx.slice(1)], []]]]),
      /bodies\[0\]\.txs\[0\] must have 9 fields/,
    );
    expectReject(eth.decodeBlockBodies, enc([Uint8Array.of(1), [[typedTx, []]]]), /bodies\[0\]\.txs must be a list/);
  });

  it('NewBlock', () => {
    expectReject(eth.decodeNewBlock, enc([[header(1), [], []]]), /^NewBlock: message must have 2 items/);
    expectReject(eth.decodeNewBlock, enc([[header(1), []], Uint8Array.of(1)]), /block must have 3 items/);
    expectReject(
      eth.decodeNewBlock,
      enc([[header(1).slice(2), [], []], Uint8Array.of(1)]),
      /block\.header must have at least 15 fields/,
    );
    expectReject(
      eth.decodeNewBlock,
      enc([[header(1), [new Uint8Array(0)], []], Uint8Array.of(1)]),
      /block\.txs\[0\] is an empty typed transaction/,
    );
    expectReject(
      eth.decodeNewBlock,
      enc([[header(1), [], [[]]], Uint8Array.of(1)]),
      /block\.uncles\[0\] must have at least 15 fields/,
    );
    expectReject(eth.decodeNewBlock, enc([[header(1), [], []], new Uint8Array(33).fill(1)]), /td is a 33-byte integer/);
  });

  it('NewPooledTransactionHashes', () => {
    expectReject(
      eth.decodeNewPooledTransactionHashes,
      enc([Uint8Array.of(0), [Uint8Array.of(1)], [h32('1'), h32('2')]]),
      /^NewPooledTransactionHashes: types\/sizes\/hashes must have equal lengths, got 1\/1\/2/,
    );
    expectReject(
      eth.decodeNewPooledTransactionHashes,
      enc([[Uint8Array.of(0)], [Uint8Array.of(1)], [h32('1')]]),
      /types must be a byte string/,
    );
    expectReject(
      eth.decodeNewPooledTransactionHashes,
      enc([Uint8Array.of(0), [bytes('0100000000')], [h32('1')]]),
      /sizes\[0\] is a 5-byte integer, at most 4/,
    );
    // The eth/66–67 form (a bare hash list) is not eth/68.
    expectReject(eth.decodeNewPooledTransactionHashes, enc([h32('1'), h32('2')]), /message must have 3 items, got 2/);
  });

  it('PooledTransactions', () => {
    expectReject(
      eth.decodePooledTransactions,
      enc([Uint8Array.of(1), [bytes('c0')]]),
      /^PooledTransactions: txs\[0\] must start with an EIP-2718 type byte/,
    );
  });

  it('Receipts', () => {
    const r = (receipt: unknown) => enc([Uint8Array.of(1), [[receipt]]]);
    const with_ = (i: number, v: unknown) => legacyReceipt.map((x, j) => (j === i ? v : x));
    expectReject(
      eth.decodeReceipts,
      r(legacyReceipt.slice(0, 3)),
      /^Receipts: receipts\[0\]\[0\] must have 4 items, got 3/,
    );
    expectReject(
      eth.decodeReceipts,
      r(with_(0, Uint8Array.of(2))),
      /receipts\[0\]\[0\]\[0\] \(status or post-state root\) must be empty, 0x01 or 32 bytes/,
    );
    expectReject(
      eth.decodeReceipts,
      r(with_(1, new Uint8Array(9).fill(1))),
      /\[1\] \(cumulative gas\) is a 9-byte integer/,
    );
    expectReject(eth.decodeReceipts, r(with_(2, new Uint8Array(255))), /\[2\] \(bloom\) must be 256 bytes, got 255/);
    expectReject(
      eth.decodeReceipts,
      r(with_(3, [[new Uint8Array(19), [], new Uint8Array(0)]])),
      /\[3\] \(logs\)\[0\]\[0\] \(address\) must be 20 bytes, got 19/,
    );
    expectReject(
      eth.decodeReceipts,
      r(with_(3, [[new Uint8Array(20), [h32('1').subarray(2)], new Uint8Array(0)]])),
      /\(topics\)\[0\] must be 32 bytes/,
    );
    expectReject(
      eth.decodeReceipts,
      r(with_(3, [[new Uint8Array(20), [], [new Uint8Array(0)]]])),
      /\(data\) must be a byte string/,
    );
    expectReject(
      eth.decodeReceipts,
      r(new Uint8Array(0)),
      /receipts\[0\]\[0\] must be a legacy receipt list or a typed receipt/,
    );
    expectReject(eth.decodeReceipts, r(bytes('01c3')), /typed receipt body is invalid RLP/);
    expectReject(
      eth.decodeReceipts,
      r(new Uint8Array([0x01, ...enc([new Uint8Array(0), Uint8Array.of(1), new Uint8Array(256)])])),
      /\(type 1 body\) must have 4 items, got 3/,
    );
    expectReject(
      eth.decodeReceipts,
      enc([Uint8Array.of(1), [legacyReceipt]]),
      /receipts\[0\]\[0\] must be a list|receipts\[0\]\[\d\]/,
    );
  });
});

/** `depth` lists nested in one another, `[[[…[]…]]]`, written directly (RLP.encode would recurse as deep). */
function nestedLists(depth: number): Uint8Array {
  const prefixes: number[][] = [];
  let length = 0;
  for (let i = 0; i < depth; i++) {
    let prefix: number[];
    if (length < 56) prefix = [0xc0 + length];
    else {
      const lengthBytes: number[] = [];
      for (let l = length; l > 0; l = Math.floor(l / 256)) lengthBytes.unshift(l & 0xff);
      prefix = [0xf7 + lengthBytes.length, ...lengthBytes];
    }
    prefixes.push(prefix);
    length += prefix.length;
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (let i = prefixes.length - 1; i >= 0; i--) {
    out.set(prefixes[i]!, offset);
    offset += prefixes[i]!.length;
  }
  return out;
}

/** Deterministic xorshift PRNG, so a failure can be reproduced. */
function prng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

describe('fuzzing: decoders never throw anything but WireDecodeError', () => {
  const valid: Array<[string, (p: Uint8Array) => unknown, Uint8Array]> = [
    [
      'Status',
      eth.decodeStatus,
      eth.encodeStatus({
        version: 68,
        networkId: 1n,
        td: 17n,
        bestHash: h32('1'),
        genesisHash: h32('2'),
        forkId: { hash: bytes('fc64ec04'), next: 1n },
      }),
    ],
    ['NewBlockHashes', eth.decodeNewBlockHashes, eth.encodeNewBlockHashes([{ hash: h32('1'), number: 5n }])],
    ['Transactions', eth.decodeTransactions, eth.encodeTransactions([legacyTx, typedTx])],
    [
      'GetBlockHeaders',
      eth.decodeGetBlockHeaders,
      eth.encodeGetBlockHeaders({ requestId: 1n, origin: h32('1'), amount: 3, skip: 1, reverse: true }),
    ],
    ['BlockHeaders', eth.decodeBlockHeaders, eth.encodeBlockHeaders(1n, [header(1)])],
    ['GetBlockBodies', eth.decodeGetBlockBodies, eth.encodeGetBlockBodies(1n, [h32('1')])],
    [
      'BlockBodies',
      eth.decodeBlockBodies,
      eth.encodeBlockBodies(1n, [{ txs: [legacyTx, typedTx], uncles: [header(2)] }]),
    ],
    ['NewBlock', eth.decodeNewBlock, eth.encodeNewBlock({ block: [header(3), [typedTx], []], td: 99n })],
    [
      'NewPooledTransactionHashes',
      eth.decodeNewPooledTransactionHashes,
      eth.encodeNewPooledTransactionHashes({ types: Uint8Array.of(1), sizes: [5], hashes: [h32('1')] }),
    ],
    ['PooledTransactions', eth.decodePooledTransactions, eth.encodePooledTransactions(1n, [typedTx])],
    ['Receipts', eth.decodeReceipts, eth.encodeReceipts(1n, [[legacyReceipt, typedReceipt]])],
  ];

  it('mutated and truncated valid messages, and random bytes', () => {
    const rand = prng(0x5eed);
    let rejected = 0;
    for (const [name, decode, good] of valid) {
      expect(() => decode(good), name).not.toThrow();
      for (let round = 0; round < 300; round++) {
        const p = good.slice();
        const kind = round % 3;
        let input: Uint8Array;
        if (kind === 0) {
          for (let k = 0; k < 1 + Math.floor(rand() * 3); k++)
            p[Math.floor(rand() * p.length)] = Math.floor(rand() * 256);
          input = p;
        } else if (kind === 1) {
          input = p.subarray(0, Math.floor(rand() * p.length));
        } else {
          input = Uint8Array.from({ length: Math.floor(rand() * 64) }, () => Math.floor(rand() * 256));
        }
        try {
          decode(input);
        } catch (err) {
          expect(err, `${name} on ${hex(input)}`).toBeInstanceOf(WireDecodeError);
          expect((err as Error).message.startsWith(`${name}: `)).toBe(true);
          rejected++;
        }
      }
    }
    expect(rejected).toBeGreaterThan(1000);
  });

  it('deeply nested lists are refused before decoding, quickly even at 4 MB', () => {
    expect(MAX_RLP_DEPTH).toBe(16);
    for (const depth of [17, 100]) {
      const payload = nestedLists(depth);
      for (const [name, decode] of valid)
        expectReject(decode, payload, new RegExp(`^${name}: invalid RLP \\(lists nested deeper than 16\\)`));
    }
    // Without the check, RLP.decode copies each level's contents: this one would block for about a minute.
    const huge = nestedLists(1_000_000);
    expect(huge.length).toBeGreaterThan(3_500_000);
    const started = performance.now();
    expectReject(eth.decodeReceipts, huge, /nested deeper than 16/);
    expect(performance.now() - started).toBeLessThan(10_000);
    // The same limit guards the RLP inside a typed receipt.
    const typed = new Uint8Array([0x01, ...nestedLists(30)]);
    expectReject(
      eth.decodeReceipts,
      enc([Uint8Array.of(1), [[typed]]]),
      /typed receipt body is invalid RLP \(lists nested deeper than 16\)/,
    );
  });

  it('items overrunning their list are refused before decoding', () => {
    // [ [ 3-byte string ] ] whose inner list claims 1 byte.
    expectReject(
      eth.decodeStatus,
      bytes('c5c1830102'),
      /^Status: invalid RLP \(an item runs past the end of its list\)/,
    );
    expectReject(eth.decodeStatus, bytes('f9'), /^Status: invalid RLP \(length prefix runs past the end\)/);
    expectReject(eth.decodeStatus, bytes('bfffffffffffffffff'), /^Status: invalid RLP/);
  });
});
