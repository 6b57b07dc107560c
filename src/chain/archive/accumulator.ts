/**
 * The era1 epoch accumulator: the SSZ hash_tree_root of `List[HeaderRecord, 8192]`, where a HeaderRecord is
 * `{ block_hash: Bytes32, total_difficulty: uint256 }`. Each record's root is sha256(hash ‖ td as 32 LE bytes);
 * the records are merkleized as a tree of depth 13 (8192 leaves, zero-padded) and the list length mixed in.
 * An era1 file stores this root; recomputing it from the file's own headers and totals proves they belong together
 * and, compared with published roots, that the file is the canonical history.
 */
import { hash } from 'node:crypto';

export const EPOCH_BLOCKS = 8192;
const DEPTH = 13; // log2(EPOCH_BLOCKS)

export interface HeaderRecord {
  readonly hash: Uint8Array;
  readonly totalDifficulty: bigint;
}

/** The two 32-byte halves hashed, as one input: the one-shot hash costs less than half of a Hash object's round. */
const pair = new Uint8Array(64);
function sha256(a: Uint8Array, b: Uint8Array): Uint8Array {
  pair.set(a, 0);
  pair.set(b, 32);
  return hash('sha256', pair, 'buffer');
}

/** uint256 as SSZ serialises it: 32 little-endian bytes. */
export function uint256LE(value: bigint): Uint8Array {
  if (value < 0n || value >= 1n << 256n) throw new RangeError(`${value} does not fit a uint256`);
  const out = new Uint8Array(32);
  let v = value;
  for (let i = 0; i < 32 && v > 0n; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

export function accumulatorRoot(records: readonly HeaderRecord[]): Uint8Array {
  if (records.length > EPOCH_BLOCKS) throw new RangeError(`${records.length} records, at most ${EPOCH_BLOCKS}`);
  let layer: Uint8Array[] = records.map((r) => sha256(r.hash, uint256LE(r.totalDifficulty)));
  // zero[d] = the root of an all-zero subtree of depth d: the padding up to the list's limit.
  let zero: Uint8Array = new Uint8Array(32);
  for (let depth = 0; depth < DEPTH; depth++) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < layer.length; i += 2) next.push(sha256(layer[i], layer[i + 1] ?? zero));
    layer = next;
    zero = sha256(zero, zero);
  }
  const root = layer[0] ?? zero;
  return sha256(root, uint256LE(BigInt(records.length)));
}
