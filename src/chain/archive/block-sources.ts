/**
 * The blocks of one history file, whatever its format: an era1 file (its accumulator checked as they stream) or an RLP
 * block stream, gzip'd or not. Each block carries its number and hash before it is decoded, so blocks the chain
 * already holds are skipped without decoding their bodies.
 */
import { open, stat } from 'node:fs/promises';
import type { Block } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { noteHeaderBytes } from '../codec/header-bytes.js';
import { Era1File } from './era1.js';
import { readRlpBlocks } from './rlp-blocks.js';

export interface SourceBlock {
  readonly number: bigint;
  readonly hash: Uint8Array;
  /** The total difficulty the file states for the block (era1), to compare with the chain's. */
  readonly totalDifficulty?: bigint;
  decode(): Block;
}

export interface HistoryFile {
  readonly path: string;
  readonly format: 'era1' | 'rlp';
  /** How many blocks the file holds. */
  readonly count: number;
  /** The first block's number, where the file has an index (era1): blocks before `from` are skipped unread. */
  readonly startNumber?: bigint;
  /** The blocks from `from` on (a hint: an RLP stream has no index, so it starts at its start). */
  blocks(from: bigint): AsyncGenerator<SourceBlock>;
  close(): Promise<void>;
}

/** What decodes a block for a given chain (its fork rules by height). */
export interface BlockDecoder {
  decodeBlock(rlp: Uint8Array): Block;
  decodeBlockValues(
    header: readonly Uint8Array[],
    txs: readonly (Uint8Array | readonly Uint8Array[])[],
    uncles: readonly (readonly Uint8Array[])[],
  ): Block;
}

export class HistoryFileError extends Error {}

/** Opens `path` as the format its first bytes say; refuses a missing file or one of neither format. */
export async function openHistoryFile(path: string, decoder: BlockDecoder): Promise<HistoryFile> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) throw new HistoryFileError(`${path}: no such file`);
  if (!info.isFile())
    throw new HistoryFileError(`${path}: not a file (${info.isDirectory() ? 'a directory' : 'not regular'})`);
  const head = Buffer.alloc(2);
  const file = await open(path, 'r');
  await file.read(head, 0, 2, 0).finally(() => file.close());
  if (head[0] === 0x65 && head[1] === 0x32) return openEra1(path, decoder);
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  if (!gzip && !(head[0] >= 0xc0)) {
    throw new HistoryFileError(`${path}: neither an era1 file nor an RLP block stream (plain or .gz)`);
  }
  return openRlp(path, decoder);
}

async function openEra1(path: string, decoder: BlockDecoder): Promise<HistoryFile> {
  const era = await Era1File.open(path);
  return {
    path,
    format: 'era1',
    count: era.count,
    startNumber: era.startNumber,
    async *blocks(from) {
      // The accumulator is checked as the blocks go by: its verdict (an Era1CheckError) follows the last block.
      for await (const b of era.checkedBlocks(from)) {
        yield {
          number: b.number,
          hash: b.hash,
          totalDifficulty: b.totalDifficulty,
          decode() {
            const [txs, uncles] = RLP.decode(b.body) as unknown as [Uint8Array[][], Uint8Array[][]];
            const block = decoder.decodeBlockValues(RLP.decode(b.header) as Uint8Array[], txs, uncles);
            noteHeaderBytes(block.header, b.header, b.hash);
            return block;
          },
        };
      }
    },
    close: () => era.close(),
  };
}

async function openRlp(path: string, decoder: BlockDecoder): Promise<HistoryFile> {
  // One pass to count the blocks (for the progress line's total and ETA); only length prefixes are read.
  let count = 0;
  for await (const _ of readRlpBlocks(path)) count++;
  return {
    path,
    format: 'rlp',
    count,
    async *blocks() {
      for await (const rlp of readRlpBlocks(path)) {
        const block = decoder.decodeBlock(rlp);
        yield { number: block.header.number, hash: block.hash(), decode: () => block };
      }
    },
    close: async () => {},
  };
}
