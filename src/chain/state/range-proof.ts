/**
 * Checks a snap range answer (consecutive keys from `origin` with the proof of its two edges) and, in the same
 * pass, yields the trie nodes the range proves complete, ready to store.
 *
 * Why not @ethereumjs/mpt's verifyMerkleRangeProof alone: it inserts key by key into a trie that re-encodes and
 * re-hashes the whole path on every insert (~0.45 ms per key here, the bound of the whole snap sync), and what it
 * builds is thrown away, so the range was built a second time to be stored. This follows the same method (geth's
 * VerifyRangeProof): the edge paths from the proof, everything between them cut out, the keys inserted, the root
 * compared, but on the batch builder (trie-batch.ts) that hashes each node once. range-proof.test.ts checks it
 * against the library's verifier on valid and tampered answers.
 *
 * What may be stored: a node whose every key lies in [origin, last key] (or past it, when nothing follows the
 * range) was rebuilt from the answer's keys and matched the root, so it is a true node with a complete subtree.
 * Nodes on the edge paths also match the root, but their outer children are not stored: they are left out.
 */
import { decodeMPTNode, decodeRawMPTNode, type MPTNode } from '@ethereumjs/mpt';
import { encodeRlp, type RlpItem } from '../codec/rlp-encode.js';
import { bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util';
import { toNibbles } from './nibbles.js';
import { TrieBatch } from './trie-batch.js';

export class RangeProofError extends Error {
  override name = 'RangeProofError';
}

export interface ProvenRange {
  /** Whether the trie holds keys after the last one given. */
  readonly more: boolean;
  /** (hash, encoding) of the nodes proven complete, the root among them when the range is the whole trie. */
  readonly nodes: ReadonlyArray<readonly [Uint8Array, Uint8Array]>;
}

/**
 * Verifies that `keys`/`values` (sorted, at least one) are all the entries of the trie under `root` from `origin`
 * to the last key, given the proof nodes of the paths to `origin` and to the last key. Throws RangeProofError.
 */
export async function verifyRangeWithProof(
  root: Uint8Array,
  origin: Uint8Array,
  keys: readonly Uint8Array[],
  values: readonly Uint8Array[],
  proof: readonly Uint8Array[],
  hash: (bytes: Uint8Array) => Uint8Array,
): Promise<ProvenRange> {
  if (keys.length === 0 || keys.length !== values.length) throw new RangeProofError('no keys, or not one value each');
  if (origin.length !== 32 || keys.some((k) => k.length !== 32)) throw new RangeProofError('keys must be 32 bytes');
  if (Buffer.compare(keys[0]!, origin) < 0) throw new RangeProofError('a key before the origin');
  for (let i = 1; i < keys.length; i++)
    if (Buffer.compare(keys[i - 1]!, keys[i]!) >= 0) throw new RangeProofError('keys not in strictly rising order');
  if (values.some((v) => v.length === 0)) throw new RangeProofError('an empty value');

  const byHash = new Map<string, Uint8Array>();
  for (const node of proof) byHash.set(bytesToUnprefixedHex(hash(node)), node);
  const source = {
    load: async (ref: Uint8Array | Uint8Array[]): Promise<MPTNode> => {
      if (Array.isArray(ref)) return decodeRawMPTNode(ref);
      const encoded = byHash.get(bytesToUnprefixedHex(ref));
      if (encoded === undefined) throw new RangeProofError('the proof lacks a node on an edge path');
      return decodeMPTNode(encoded);
    },
    hash,
  };
  const first = toNibbles(origin);
  const last = toNibbles(keys.at(-1)!);
  const right = { more: false };
  // Decided once the cut knows whether keys follow the range; only then are nodes encoded.
  const complete = (covered: readonly number[]) =>
    startsAtOrAfter(covered, first) && (!right.more ? true : endsAtOrBefore(covered, last));
  const batch = new TrieBatch(source, complete);

  let top: Awaited<ReturnType<TrieBatch['clip']>>;
  try {
    top = await batch.clip({ kind: 'stored', ref: root }, [], first, last, right);
    // In memory from here: the range's keys reach no node the clip left stored (those lie wholly outside it).
    for (let i = 0; i < keys.length; i++) top = batch.insertNow(top, toNibbles(keys[i]!), 0, values[i]!);
  } catch (err) {
    if (err instanceof RangeProofError) throw err;
    throw new RangeProofError(`the proof does not decode: ${(err as Error).message}`);
  }
  const encoded = encodeRlp(batch.raw(top!) as RlpItem);
  const built = hash(encoded);
  if (!equalsBytes(built, root)) throw new RangeProofError('the range and its proof do not build the root');
  const nodes = batch.writes;
  if (complete([])) nodes.push([built, encoded]);
  return { more: right.more, nodes };
}

/** Whether every key below `covered` is ≥ `bound`. */
function startsAtOrAfter(covered: readonly number[], bound: readonly number[]): boolean {
  for (let i = 0; i < bound.length; i++) {
    if (i >= covered.length) return bound[i] === 0 && bound.slice(i).every((n) => n === 0);
    if (covered[i] !== bound[i]) return covered[i]! > bound[i]!;
  }
  return true;
}

/** Whether every key below `covered` is ≤ `bound`. */
function endsAtOrBefore(covered: readonly number[], bound: readonly number[]): boolean {
  for (let i = 0; i < bound.length; i++) {
    if (i >= covered.length) return bound.slice(i).every((n) => n === 15);
    if (covered[i] !== bound[i]) return covered[i]! < bound[i]!;
  }
  return true;
}
