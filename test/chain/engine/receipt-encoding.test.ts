import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, concatBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import {
  decodeStoredReceipts,
  encodeConsensusReceipt,
  encodeStoredReceipts,
  type TxReceipt,
} from '../../../src/chain/codec/receipts.js';

/** A small deterministic generator, so a failure names its case. */
function receipts(count: number): TxReceipt[] {
  let seed = 0x68e31da4;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const bytes = (n: number) => Uint8Array.from({ length: n }, next);
  let cumulative = 0n;
  return Array.from({ length: count }, (_, i) => {
    const gasUsed = BigInt(next() % 200_000);
    cumulative += gasUsed;
    const logs = Array.from({ length: [0, 1, 1, 3, 0][i % 5]! }, (_, l) => ({
      address: bytes(20),
      topics: Array.from({ length: (i + l) % 5 }, () => bytes(32)),
      // Empty, one byte below and at 0x80, short, and past the 55-byte short form.
      data: bytes([0, 1, 1, 32, 56, 300][(i + l) % 6]!),
    }));
    return {
      type: [0, 1, 2][i % 3]!,
      ...(i % 7 === 6 ? { stateRoot: bytes(32) } : { status: (i % 4 === 3 ? 0 : 1) as 0 | 1 }),
      cumulativeGasUsed: cumulative,
      gasUsed,
      logs,
      logsBloom: bytes(256),
      from: bytes(20),
      ...(i % 9 === 0 ? { contractAddress: bytes(20) } : {}),
    } satisfies TxReceipt;
  });
}

const statusOrRoot = (r: TxReceipt) => r.stateRoot ?? (r.status === 1 ? Uint8Array.of(1) : new Uint8Array(0));
const logTuples = (r: TxReceipt) => r.logs.map((l) => [l.address, [...l.topics], l.data]);

describe('receipt encodings', () => {
  const all = receipts(300);

  it('the consensus form is the library RLP of [status or root, cumulative gas, bloom, logs], typed ones prefixed', () => {
    for (const r of all) {
      const body = RLP.encode([statusOrRoot(r), bigIntToUnpaddedBytes(r.cumulativeGasUsed), r.logsBloom, logTuples(r)]);
      expect(encodeConsensusReceipt(r)).toEqual(r.type === 0 ? body : concatBytes(Uint8Array.of(r.type), body));
    }
  });

  it('the storage form is the library RLP of the rows, and decodes back', () => {
    for (const n of [0, 1, 2, 55, 300]) {
      const list = all.slice(0, n);
      const expected = RLP.encode(
        list.map((r) => [
          bigIntToUnpaddedBytes(BigInt(r.type)),
          statusOrRoot(r),
          bigIntToUnpaddedBytes(r.cumulativeGasUsed),
          logTuples(r),
          r.from,
          r.contractAddress ?? new Uint8Array(0),
          bigIntToUnpaddedBytes(r.gasUsed),
        ]),
      );
      const encoded = encodeStoredReceipts(list);
      expect(encoded).toEqual(expected);
      const back = decodeStoredReceipts(encoded);
      expect(back.map((r) => [r.type, r.cumulativeGasUsed, r.gasUsed, r.logs.length])).toEqual(
        list.map((r) => [r.type, r.cumulativeGasUsed, r.gasUsed, r.logs.length]),
      );
    }
  });
});
