/**
 * Applies many key updates to a Merkle-Patricia trie at once and hashes each changed node once.
 *
 * The library's `put`/`del` re-encode and re-hash the whole path from the leaf to the root on every
 * call, so flushing a block that touched 1,000 accounts hashed ~5,000 nodes, most of them overwritten
 * by the next insert (profiled at ~25% of block assembly). Here the changed part of the trie is built
 * in memory from the original nodes, untouched subtrees stay as references to their stored hashes, and
 * the new nodes are encoded bottom-up once at the end.
 *
 * An MPT is canonical (its shape depends only on the final key/value set), so applying the updates in
 * any order gives the same root as applying them one by one.
 */
import { encodeRlp, type RlpItem } from '../codec/rlp-encode.js';
import {
  type BranchMPTNode,
  ExtensionMPTNode,
  LeafMPTNode,
  type MPTNode,
  type NodeReferenceOrRawMPTNode,
} from '@ethereumjs/mpt';
import { toNibbles } from './nibbles.js';

type Ref = NodeReferenceOrRawMPTNode;

/** A node of the in-memory working copy. `ref` is set while the node is as stored (its encoding is known). */
type Work =
  | { kind: 'stored'; ref: Ref }
  | { kind: 'leaf'; path: number[]; value: Uint8Array }
  | { kind: 'ext'; path: number[]; child: Work }
  | { kind: 'branch'; children: (Work | undefined)[]; value: Uint8Array | null };

export interface TrieNodeSource {
  /** Decodes a stored (hash) or inline (raw) node. */
  load(ref: Ref): Promise<MPTNode>;
  hash(bytes: Uint8Array): Uint8Array;
  /**
   * Told of each new node stored (its hash and raw form): a trie whose next batch opens the nodes this one wrote
   * can keep them decoded instead of decoding their encodings again.
   */
  created?(hash: Uint8Array, raw: Uint8Array[]): void;
}

export interface BatchResult {
  /** The new root hash; `emptyRoot` when no key is left. */
  readonly root: Uint8Array;
  /** Nodes to store: (hash, encoding), the root included. */
  readonly writes: ReadonlyArray<readonly [Uint8Array, Uint8Array]>;
}

/**
 * `updates`: already-transformed keys (e.g. keccak of the address) → new value, or null to delete.
 * `root` undefined = the empty trie.
 */
export async function applyBatch(
  source: TrieNodeSource,
  root: Uint8Array | undefined,
  updates: Iterable<readonly [Uint8Array, Uint8Array | null]>,
  emptyRoot: Uint8Array,
): Promise<BatchResult> {
  const batch = new TrieBatch(source);
  let top: Work | undefined = root === undefined ? undefined : { kind: 'stored', ref: root };
  for (const [key, value] of updates) {
    const nibbles = toNibbles(key);
    top =
      value === null || value.length === 0
        ? (await batch.remove(top, nibbles, 0)).node
        : await batch.insert(top, nibbles, 0, value);
  }
  if (top === undefined) return { root: emptyRoot, writes: [] };
  if (top.kind === 'stored' && top.ref instanceof Uint8Array) return { root: top.ref, writes: [] };
  const raw = batch.raw(top);
  const encoded = encodeRlp(raw as RlpItem);
  const rootHash = source.hash(encoded);
  batch.writes.push([rootHash, encoded]);
  source.created?.(rootHash, raw as Uint8Array[]);
  return { root: rootHash, writes: batch.writes };
}

/** Which new nodes go to `writes`, by the key prefix the node covers (all of it: a leaf's whole key). */
export type WriteFilter = (covered: readonly number[]) => boolean;

export class TrieBatch {
  readonly writes: [Uint8Array, Uint8Array][] = [];

  constructor(
    private readonly source: TrieNodeSource,
    private readonly keepWrite?: WriteFilter,
  ) {}

  /** A stored node, decoded into a working node whose children are still references. */
  private async open(node: Work): Promise<Exclude<Work, { kind: 'stored' }>> {
    if (node.kind !== 'stored') return node;
    const decoded = await this.source.load(node.ref);
    if (decoded instanceof LeafMPTNode) return { kind: 'leaf', path: decoded.key(), value: decoded.value()! };
    if (decoded instanceof ExtensionMPTNode)
      return { kind: 'ext', path: decoded.key(), child: { kind: 'stored', ref: decoded.value() as Ref } };
    const branch = decoded as BranchMPTNode;
    const children: (Work | undefined)[] = new Array(16);
    for (let i = 0; i < 16; i++) {
      const ref = branch.getBranch(i);
      children[i] = ref === null ? undefined : { kind: 'stored', ref };
    }
    return { kind: 'branch', children, value: branch.value() };
  }

  async insert(node: Work | undefined, key: number[], at: number, value: Uint8Array): Promise<Work> {
    if (node === undefined) return { kind: 'leaf', path: key.slice(at), value };
    const open = await this.open(node);
    switch (open.kind) {
      case 'branch': {
        if (at === key.length) open.value = value;
        else open.children[key[at]] = await this.insert(open.children[key[at]], key, at + 1, value);
        return open;
      }
      case 'leaf':
        return intoLeaf(open, key, at, value);
      case 'ext': {
        const common = commonPrefix(open.path, key, at);
        if (common < open.path.length) return splitExt(open, common, key, at, value);
        return { kind: 'ext', path: open.path, child: await this.insert(open.child, key, at + common, value) };
      }
    }
  }

  /**
   * `insert` for a working copy whose path to `key` holds no stored node (a trie built from nothing, or a range
   * proof's trie once its edge paths are open): synchronous, so inserting a range answer's thousands of keys costs
   * no promise per trie level (the async insert was most of a snap-syncing node's trie building, and its garbage).
   * Throws on a stored node on the way.
   */
  insertNow(node: Work | undefined, key: number[], at: number, value: Uint8Array): Work {
    if (node === undefined) return { kind: 'leaf', path: key.slice(at), value };
    switch (node.kind) {
      case 'stored':
        throw new Error('a stored node on the path of an in-memory insert');
      case 'branch': {
        if (at === key.length) node.value = value;
        else node.children[key[at]] = this.insertNow(node.children[key[at]], key, at + 1, value);
        return node;
      }
      case 'leaf':
        return intoLeaf(node, key, at, value);
      case 'ext': {
        const common = commonPrefix(node.path, key, at);
        if (common < node.path.length) return splitExt(node, common, key, at, value);
        return { kind: 'ext', path: node.path, child: this.insertNow(node.child, key, at + common, value) };
      }
    }
  }

  /** Deletes `key`; `changed` false (and the node as given) when the key was not there. */
  async remove(
    node: Work | undefined,
    key: number[],
    at: number,
  ): Promise<{ node: Work | undefined; changed: boolean }> {
    if (node === undefined) return { node, changed: false };
    const open = await this.open(node);
    switch (open.kind) {
      case 'leaf': {
        const matches = at + open.path.length === key.length && commonPrefix(open.path, key, at) === open.path.length;
        return matches ? { node: undefined, changed: true } : { node, changed: false };
      }
      case 'ext': {
        if (commonPrefix(open.path, key, at) !== open.path.length) return { node, changed: false };
        const below = await this.remove(open.child, key, at + open.path.length);
        if (!below.changed) return { node, changed: false };
        if (below.node === undefined) return { node: undefined, changed: true };
        return { node: await this.prefixed(open.path, below.node), changed: true };
      }
      case 'branch': {
        if (at === key.length) {
          if (open.value === null) return { node, changed: false };
          open.value = null;
        } else {
          const slot = key[at];
          const below = await this.remove(open.children[slot], key, at + 1);
          if (!below.changed) return { node, changed: false };
          open.children[slot] = below.node;
        }
        return { node: await this.normalised(open), changed: true };
      }
    }
  }

  /** A branch left with fewer than two entries collapses into its only entry. */
  private async normalised(branch: Extract<Work, { kind: 'branch' }>): Promise<Work | undefined> {
    let only = -1;
    let count = 0;
    for (let i = 0; i < 16; i++) {
      if (branch.children[i] !== undefined) {
        count++;
        only = i;
      }
    }
    if (branch.value !== null) count++;
    if (count >= 2) return branch;
    if (count === 0) return undefined;
    if (branch.value !== null) return { kind: 'leaf', path: [], value: branch.value };
    return this.prefixed([only], branch.children[only]!);
  }

  /** `path` followed by `node`, merged into one leaf or extension where the shapes allow. */
  private async prefixed(path: number[], node: Work): Promise<Work> {
    const open = await this.open(node);
    if (open.kind === 'leaf') return { kind: 'leaf', path: [...path, ...open.path], value: open.value };
    if (open.kind === 'ext') return { kind: 'ext', path: [...path, ...open.path], child: open.child };
    // A branch keeps its stored reference if it has one: no need to encode it again.
    return { kind: 'ext', path, child: node };
  }

  /**
   * The node's raw form; children of 32 bytes or more are hashed and queued for storage (those the write filter
   * keeps). `at`: the key prefix above the node, tracked only when there is a filter, on one array pushed and
   * popped along the walk (a fresh prefix array per node was a large share of a range proof's garbage); the filter
   * must not keep it.
   */
  raw(node: Work, at: number[] = []): Ref | Uint8Array[] | (Ref | Uint8Array)[] {
    const track = this.keepWrite !== undefined;
    switch (node.kind) {
      case 'stored':
        return node.ref;
      case 'leaf':
        return [hexPrefix(node.path, true), node.value];
      case 'ext': {
        const depth = at.length;
        if (track) for (const n of node.path) at.push(n);
        const child = this.reference(node.child, at);
        at.length = depth;
        return [hexPrefix(node.path, false), child];
      }
      case 'branch': {
        const out: (Ref | Uint8Array)[] = new Array(17);
        for (let i = 0; i < 16; i++) {
          const child = node.children[i];
          if (child === undefined) {
            out[i] = EMPTY;
            continue;
          }
          if (track) at.push(i);
          out[i] = this.reference(child, at);
          if (track) at.pop();
        }
        out[16] = node.value ?? EMPTY;
        return out;
      }
    }
  }

  /** How a parent refers to a child: its hash, or the child itself inline when it encodes to under 32 bytes. */
  reference(node: Work, at: number[] = []): Ref {
    if (node.kind === 'stored') return node.ref;
    const raw = this.raw(node, at);
    const encoded = encodeRlp(raw as RlpItem);
    if (encoded.length < 32) return raw as Ref;
    const hash = this.source.hash(encoded);
    if (this.keepWrite === undefined) {
      this.writes.push([hash, encoded]);
      this.source.created?.(hash, raw as Uint8Array[]);
    } else {
      // What the node covers: the prefix above it, and its own path unless it is a branch.
      const depth = at.length;
      if (node.kind !== 'branch') for (const n of node.path) at.push(n);
      const keep = this.keepWrite(at);
      at.length = depth;
      if (keep) this.writes.push([hash, encoded]);
    }
    return hash;
  }

  /**
   * Cuts out of `node` (below key prefix `at`) every key in [first, last], as a range proof is checked: the
   * subtrees wholly outside stay as the references the proof gives, those wholly inside go (the range's keys are
   * inserted again afterwards), and only nodes on the two edge paths are opened, so they must be in the source.
   * The result may be a non-canonical trie until those keys are back. `right.more` is set when a key after `last`
   * remains.
   */
  async clip(
    node: Work | undefined,
    at: number[],
    first: readonly number[],
    last: readonly number[],
    right: { more: boolean },
  ): Promise<Work | undefined> {
    if (node === undefined) return undefined;
    const place = (covered: readonly number[]): 'left' | 'right' | 'inside' | 'edge' => {
      const lo = comparePrefixOf(covered, first);
      const hi = comparePrefixOf(covered, last);
      if (lo < 0) return 'left';
      if (hi > 0) return 'right';
      return (lo > 0 && hi < 0) || covered.length >= first.length ? 'inside' : 'edge';
    };
    const whole = place(at);
    if (whole === 'left') return node;
    if (whole === 'right') {
      right.more = true;
      return node;
    }
    if (whole === 'inside') return undefined;
    const open = await this.open(node);
    switch (open.kind) {
      case 'leaf': {
        const where = place([...at, ...open.path]);
        if (where === 'right') right.more = true;
        return where === 'inside' ? undefined : open;
      }
      case 'ext': {
        const child = await this.clip(open.child, [...at, ...open.path], first, last, right);
        return child === undefined ? undefined : { kind: 'ext', path: open.path, child };
      }
      case 'branch': {
        for (let i = 0; i < 16; i++)
          open.children[i] = await this.clip(open.children[i], [...at, i], first, last, right);
        return open;
      }
    }
  }
}

/** Compares `prefix` with the same-length prefix of `key` (nibbles). */
function comparePrefixOf(prefix: readonly number[], key: readonly number[]): number {
  for (let i = 0; i < prefix.length && i < key.length; i++) if (prefix[i] !== key[i]) return prefix[i]! - key[i]!;
  return 0;
}

const EMPTY = new Uint8Array(0);

/** `key` (from `at`) put into `leaf`: the leaf's new value, or a branch holding both (below their common part). */
function intoLeaf(leaf: Extract<Work, { kind: 'leaf' }>, key: number[], at: number, value: Uint8Array): Work {
  const common = commonPrefix(leaf.path, key, at);
  if (common === leaf.path.length && at + common === key.length) return { kind: 'leaf', path: leaf.path, value };
  const branch = newBranch();
  hang(branch, leaf.path.slice(common), leaf.value);
  hang(branch, key.slice(at + common), value);
  return common === 0 ? branch : { kind: 'ext', path: leaf.path.slice(0, common), child: branch };
}

/** `key` put beside `ext`, which it leaves after `common` nibbles (fewer than its path): a branch at that point. */
function splitExt(
  ext: Extract<Work, { kind: 'ext' }>,
  common: number,
  key: number[],
  at: number,
  value: Uint8Array,
): Work {
  const branch = newBranch();
  const rest = ext.path.slice(common + 1);
  branch.children[ext.path[common]] = rest.length === 0 ? ext.child : { kind: 'ext', path: rest, child: ext.child };
  hang(branch, key.slice(at + common), value);
  return common === 0 ? branch : { kind: 'ext', path: ext.path.slice(0, common), child: branch };
}

/** Puts a leaf below a fresh branch at `rest` (empty rest = the branch's own value). */
function hang(branch: Extract<Work, { kind: 'branch' }>, rest: number[], value: Uint8Array): void {
  if (rest.length === 0) branch.value = value;
  else branch.children[rest[0]] = { kind: 'leaf', path: rest.slice(1), value };
}

function newBranch(): Extract<Work, { kind: 'branch' }> {
  return { kind: 'branch', children: new Array(16).fill(undefined), value: null };
}

/** Length of the common prefix of `path` and `key` from `at`. */
function commonPrefix(path: number[], key: number[], at: number): number {
  let i = 0;
  while (i < path.length && at + i < key.length && path[i] === key[at + i]) i++;
  return i;
}

/** Compact (hex-prefix) encoding of a nibble path, with the leaf flag. */
function hexPrefix(path: number[], leaf: boolean): Uint8Array {
  const odd = path.length % 2 === 1;
  const out = new Uint8Array(Math.floor(path.length / 2) + 1);
  const flag = (leaf ? 2 : 0) + (odd ? 1 : 0);
  let n = 0;
  if (odd) out[0] = (flag << 4) | path[n++];
  else out[0] = flag << 4;
  for (let i = 1; i < out.length; i++, n += 2) out[i] = (path[n] << 4) | path[n + 1];
  return out;
}
