/**
 * era1 files: pre-merge history in 8192-block epochs (Portal Network / nimbus format), as e2store entries
 *
 *   Version | (CompressedHeader | CompressedBody | CompressedReceipts | TotalDifficulty)* | Accumulator | BlockIndex
 *
 * Header, body and receipts are snappy-framed RLP; the total difficulty is a uint256 in 32 LE bytes; the block index
 * holds the first block number, one offset per block (relative to the index entry) and the count. The accumulator
 * (accumulator.ts) is checked against the headers and totals as the blocks stream by (`checkedBlocks`).
 */
import { type FileHandle, open } from 'node:fs/promises';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';
import { accumulatorRoot, EPOCH_BLOCKS, type HeaderRecord } from './accumulator.js';
import { E2_HEADER_BYTES, E2StoreError, readEntries } from './e2store.js';
import { unframeSnappy } from './snappy-frames.js';

const TYPE_VERSION = 0x3265;
const TYPE_HEADER = 0x0003;
const TYPE_BODY = 0x0004;
const TYPE_RECEIPTS = 0x0005;
const TYPE_TOTAL_DIFFICULTY = 0x0006;
const TYPE_ACCUMULATOR = 0x0007;
const TYPE_BLOCK_INDEX = 0x3266;

export class Era1Error extends Error {}
/** The file's headers disagree with its accumulator or with each other (known only once they are all read). */
export class Era1CheckError extends Era1Error {}

export interface Era1Block {
  readonly number: bigint;
  /** The header's RLP. */
  readonly header: Uint8Array;
  /** The body's RLP: [transactions, uncles]. */
  readonly body: Uint8Array;
  readonly totalDifficulty: bigint;
}

export class Era1File {
  private constructor(
    private readonly file: FileHandle,
    private readonly size: number,
    readonly path: string,
    readonly startNumber: bigint,
    /** Offsets of each block's header entry in the file. */
    private readonly offsets: readonly number[],
    readonly accumulator: Uint8Array,
  ) {}

  get count(): number {
    return this.offsets.length;
  }

  get lastNumber(): bigint {
    return this.startNumber + BigInt(this.offsets.length) - 1n;
  }

  /** Opens and checks the file's frame: version entry first, accumulator and block index last. */
  static async open(path: string): Promise<Era1File> {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      const head = await readAt(file, 0, E2_HEADER_BYTES);
      if (size < E2_HEADER_BYTES || readType(head, 0) !== TYPE_VERSION)
        throw new Era1Error(`${path} is not an era1 file (no e2store version entry at its start)`);
      const count = size >= 8 ? Number((await readAt(file, size - 8, 8)).readBigInt64LE(0)) : 0;
      const indexBytes = E2_HEADER_BYTES + 16 + 8 * count;
      const indexAt = size - indexBytes;
      if (count <= 0 || count > EPOCH_BLOCKS || indexAt < E2_HEADER_BYTES)
        throw new Era1Error(`${path}: no valid block index at the end of the file`);
      const index = await readAt(file, indexAt, indexBytes);
      if (readType(index, 0) !== TYPE_BLOCK_INDEX) throw new Era1Error(`${path}: the last entry is not a block index`);
      const startNumber = index.readBigUInt64LE(E2_HEADER_BYTES);
      const offsets: number[] = [];
      for (let i = 0; i < count; i++) {
        const at = indexAt + Number(index.readBigInt64LE(E2_HEADER_BYTES + 8 + 8 * i));
        if (at < E2_HEADER_BYTES || at >= indexAt) throw new Era1Error(`${path}: block index entry ${i} out of range`);
        offsets.push(at);
      }
      const accAt = indexAt - (E2_HEADER_BYTES + 32);
      const acc = await readAt(file, accAt, E2_HEADER_BYTES + 32);
      if (readType(acc, 0) !== TYPE_ACCUMULATOR || acc.readUInt32LE(2) !== 32)
        throw new Era1Error(`${path}: no epoch accumulator before the block index`);
      return new Era1File(file, size, path, startNumber, offsets, new Uint8Array(acc.subarray(E2_HEADER_BYTES)));
    } catch (err) {
      await file.close();
      if (err instanceof E2StoreError) throw new Era1Error(`${path}: ${err.message}`);
      throw err;
    }
  }

  /**
   * Recomputes the epoch accumulator from the file's headers and total difficulties and compares it with the
   * stored one. Also checks that block numbers and parent links run without a gap.
   */
  async verifyAccumulator(): Promise<void> {
    for await (const _ of this.checkedBlocks(this.lastNumber + 1n)) {
      // Nothing to hand out: every header is read for the accumulator only.
    }
  }

  /**
   * The blocks from `from` on, each with its hash, the accumulator recomputed as they stream by (an import reads
   * the file once, not twice): blocks before `from` are read header-only for it. Its verdict comes after the last
   * block, as an Era1CheckError naming the file, so a reader that stored the blocks must undo them then.
   */
  async *checkedBlocks(
    from: bigint,
    opts: { readonly bodies?: boolean } = {},
  ): AsyncGenerator<Era1Block & { readonly hash: Uint8Array }> {
    const records: HeaderRecord[] = [];
    let parent: Uint8Array | undefined;
    const record = (block: Era1Block): Uint8Array => {
      const hash = keccak256(block.header);
      if (parent !== undefined && !equalsBytes(parentHashOf(block.header, this.path, block.number), parent))
        throw new Era1CheckError(`${this.path}: block ${block.number} does not link to the block before it`);
      parent = hash;
      records.push({ hash, totalDifficulty: block.totalDifficulty });
      return hash;
    };
    if (from > this.startNumber) {
      for await (const block of this.blocks(this.startNumber, { bodies: false })) {
        if (block.number >= from) break;
        record(block);
      }
    }
    for await (const block of this.blocks(from, opts)) {
      const hash = record(block);
      yield {
        number: block.number,
        header: block.header,
        body: block.body,
        totalDifficulty: block.totalDifficulty,
        hash,
      };
    }
    const root = accumulatorRoot(records);
    if (!equalsBytes(root, this.accumulator)) {
      throw new Era1CheckError(
        `${this.path}: epoch accumulator mismatch: the file says ${bytesToHex(this.accumulator)}, ` +
          `its headers and total difficulties give ${bytesToHex(root)}`,
      );
    }
  }

  /** The blocks from `from` (default: the first) to the end of the file, in order. */
  async *blocks(from = this.startNumber, opts: { readonly bodies?: boolean } = {}): AsyncGenerator<Era1Block> {
    const first = Number(from - this.startNumber);
    if (first >= this.offsets.length) return;
    const bodies = opts.bodies !== false;
    let number = from < this.startNumber ? this.startNumber : from;
    let header: Uint8Array | undefined;
    let body: Uint8Array | undefined;
    const end = this.offsets[this.offsets.length - 1];
    const what = () => `${this.path}: block ${number}`;
    // One catch around the loop, not in it: a broken entry frame (E2StoreError from readEntries) names the file too.
    try {
      for await (const entry of readEntries(this.file, this.size, this.offsets[Math.max(0, first)])) {
        if (entry.type === TYPE_HEADER) header = unframeSnappy(entry.data);
        else if (entry.type === TYPE_BODY) body = bodies ? unframeSnappy(entry.data) : entry.data;
        else if (entry.type === TYPE_RECEIPTS) continue;
        else if (entry.type === TYPE_TOTAL_DIFFICULTY) {
          if (header === undefined || body === undefined) throw new Era1Error(`${what()}: entries out of order`);
          if (entry.data.length !== 32) throw new Era1Error(`${what()}: total difficulty is not 32 bytes`);
          yield { number, header, body, totalDifficulty: readUint256LE(entry.data) };
          header = body = undefined;
          number++;
          if (entry.offset > end) return;
        } else if (entry.type === TYPE_ACCUMULATOR || entry.type === TYPE_BLOCK_INDEX) return;
      }
    } catch (err) {
      if (err instanceof Era1Error) throw err;
      throw new Era1Error(`${what()}: ${(err as Error).message}`);
    }
  }

  close(): Promise<void> {
    return this.file.close();
  }
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const out = Buffer.alloc(length);
  const { bytesRead } = await file.read(out, 0, length, position);
  if (bytesRead !== length) throw new E2StoreError(`unexpected end of file at byte ${position + bytesRead}`);
  return out;
}

function readType(bytes: Buffer, at: number): number {
  return bytes.readUInt16LE(at);
}

function readUint256LE(bytes: Uint8Array): bigint {
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i]);
  return v;
}

/** The parent hash, the first field of a header's RLP list (after the list prefix and the 0xa0 string prefix). */
function parentHashOf(header: Uint8Array, path: string, number: bigint): Uint8Array {
  const prefix = header[0];
  const listHeader = prefix <= 0xf7 ? 1 : 1 + (prefix - 0xf7);
  if (header[listHeader] !== 0xa0)
    throw new Era1Error(`${path}: block ${number}: header RLP does not start with a 32-byte parent hash`);
  return header.subarray(listHeader + 1, listHeader + 33);
}
