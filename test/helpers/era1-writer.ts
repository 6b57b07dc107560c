/**
 * Writes an era1 file (e2store entries, snappy frames of uncompressed chunks, the epoch accumulator recomputed from
 * the headers given, the block index): a test can hand `svc-node import` blocks that were changed after they were
 * mined, in a file whose frame and accumulator are right, so the import reaches the block itself.
 */
import { writeFileSync } from 'node:fs';
import { RLP } from '@ethereumjs/rlp';
import { accumulatorRoot, uint256LE } from '../../src/chain/archive/accumulator.js';
import { Era1File } from '../../src/chain/archive/era1.js';
import { maskedCrc32c } from '../../src/chain/archive/snappy-frames.js';
import { keccak256 } from '../../src/chain/base/crypto.js';

export interface Era1Record {
  /** The header's RLP. */
  readonly header: Uint8Array;
  /** The body's RLP: [transactions, uncles]. */
  readonly body: Uint8Array;
  readonly totalDifficulty: bigint;
}

/** Blocks `from`..`to` of an era1 file, as records to write again (changed or not). */
export async function readEra1(path: string, from: bigint, to: bigint): Promise<Era1Record[]> {
  const era = await Era1File.open(path);
  const out: Era1Record[] = [];
  try {
    for await (const b of era.blocks(from)) {
      if (b.number > to) break;
      out.push({ header: b.header, body: b.body, totalDifficulty: b.totalDifficulty });
    }
  } finally {
    await era.close();
  }
  return out;
}

/** `record` with header field `index` (RLP list position) replaced by `value`. */
export function withHeaderField(record: Era1Record, index: number, value: Uint8Array): Era1Record {
  const fields = RLP.decode(record.header) as Uint8Array[];
  fields[index] = value;
  return { ...record, header: RLP.encode(fields) };
}

/** `accumulator`: the root to store instead of the right one (a file whose headers disagree with it). */
export function writeEra1(
  path: string,
  startNumber: bigint,
  records: readonly Era1Record[],
  opts: { readonly accumulator?: Uint8Array } = {},
): void {
  const parts: Uint8Array[] = [entry(0x3265, new Uint8Array(0))];
  let at = 8;
  const push = (e: Uint8Array) => {
    parts.push(e);
    at += e.length;
  };
  const offsets: number[] = [];
  for (const r of records) {
    offsets.push(at);
    push(entry(0x0003, framed(r.header)));
    push(entry(0x0004, framed(r.body)));
    push(entry(0x0005, framed(RLP.encode([]))));
    push(entry(0x0006, uint256LE(r.totalDifficulty)));
  }
  const root = accumulatorRoot(records.map((r) => ({ hash: keccak256(r.header), totalDifficulty: r.totalDifficulty })));
  push(entry(0x0007, opts.accumulator ?? root));
  const index = Buffer.alloc(16 + 8 * records.length);
  index.writeBigUInt64LE(startNumber, 0);
  offsets.forEach((o, i) => {
    index.writeBigInt64LE(BigInt(o - at), 8 + 8 * i);
  });
  index.writeBigUInt64LE(BigInt(records.length), 8 + 8 * records.length);
  push(entry(0x3266, index));
  writeFileSync(path, Buffer.concat(parts));
}

function entry(type: number, data: Uint8Array): Uint8Array {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(type, 0);
  head.writeUInt32LE(data.length, 2);
  return Buffer.concat([head, data]);
}

/** A snappy frame stream of uncompressed chunks (at most 65,536 bytes each). */
function framed(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [Buffer.from([0xff, 6, 0, 0, ...Buffer.from('sNaPpY')])];
  for (let i = 0; i === 0 || i < data.length; i += 65_536) {
    const chunk = data.subarray(i, i + 65_536);
    const head = Buffer.alloc(8);
    head[0] = 0x01;
    head.writeUIntLE(chunk.length + 4, 1, 3);
    head.writeUInt32LE(maskedCrc32c(chunk), 4);
    parts.push(head, chunk);
  }
  return Buffer.concat(parts);
}
