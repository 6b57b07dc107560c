/**
 * Walks over stored tries by raw node, for the flat state (flat-table.ts): the difference between two roots
 * (descending only where the two tries' nodes differ, so a block's diff reads about the nodes it wrote), and the
 * leaves of one trie in key order from a start key (the table's background build). Keys of a secure trie are all
 * 32 bytes (64 nibbles), so only leaves carry values.
 */
import { RLP } from '@ethereumjs/rlp';
import { equalsBytes } from '@ethereumjs/util';

/** A child reference: a node hash (32 bytes), nothing (empty bytes), or a node under 32 bytes inlined (its list). */
type Ref = Uint8Array | unknown[];
/** A decoded node; `leaf` and `ext` may be virtual (a real one's tail below the nibble the walk has reached). */
export type Node =
  | { readonly t: 'branch'; readonly children: readonly Ref[] }
  | { readonly t: 'ext'; readonly path: readonly number[]; readonly child: Ref }
  | { readonly t: 'leaf'; readonly path: readonly number[]; readonly value: Uint8Array };
type Item = Ref | Node | undefined;

/** Reads a node by hash; undefined when it is not stored. */
export type NodeReader = (hash: Uint8Array) => Uint8Array | undefined;

/** A node a walk needs is not stored (a pruned or never-held state): the walk cannot answer. */
export class MissingTrieNodeError extends Error {
  constructor(hash: Uint8Array) {
    super(`trie node ${Buffer.from(hash).toString('hex')} is not stored`);
    this.name = 'MissingTrieNodeError';
  }
}

/** A leaf's key (32 bytes) and value; a changed one has both sides (null: absent there). */
export type LeafChange = (key: Uint8Array, before: Uint8Array | null, after: Uint8Array | null) => void;

function isNode(item: Item): item is Node {
  return item !== undefined && !(item instanceof Uint8Array) && !Array.isArray(item);
}

function isEmpty(item: Item): boolean {
  return item === undefined || (item instanceof Uint8Array && item.length === 0);
}

function hexPrefix(encoded: Uint8Array): { leaf: boolean; path: number[] } {
  const flag = encoded[0] >> 4;
  const path: number[] = [];
  if (flag & 1) path.push(encoded[0] & 0x0f);
  for (let i = 1; i < encoded.length; i++) path.push(encoded[i] >> 4, encoded[i] & 0x0f);
  return { leaf: flag >= 2, path };
}

function decodeList(list: unknown[]): Node {
  if (list.length === 17) return { t: 'branch', children: list.slice(0, 16) as Ref[] };
  const { leaf, path } = hexPrefix(list[0] as Uint8Array);
  return leaf ? { t: 'leaf', path, value: list[1] as Uint8Array } : { t: 'ext', path, child: list[1] as Ref };
}

/**
 * A stored node's bytes decoded. Branches (most of what a diff reads) are parsed here: 16 children that are each
 * empty (0x80), a hash (0xa0 + 32 bytes) or an inlined short node, then an empty value; the generic RLP decoder cost
 * about half of a block's diff. Anything else goes through it.
 */
function decodeNode(bytes: Uint8Array): Node {
  const first = bytes[0];
  let pos = first >= 0xf8 ? 1 + (first - 0xf7) : 1;
  if (first >= 0xf8 && bytes.length > 60) {
    const children: Ref[] = new Array(16);
    for (let i = 0; i < 16; i++) {
      const b = bytes[pos];
      // A node of another shape (a long leaf) fails one of these checks or the final one, and is decoded generically.
      if (pos + (b === 0xa0 ? 33 : b >= 0xc0 ? 1 + b - 0xc0 : 1) > bytes.length - 1) break;
      if (b === 0x80) {
        children[i] = EMPTY;
        pos++;
      } else if (b === 0xa0) {
        children[i] = bytes.subarray(pos + 1, pos + 33);
        pos += 33;
      } else if (b >= 0xc0 && b <= 0xf7) {
        children[i] = RLP.decode(bytes.subarray(pos, pos + 1 + b - 0xc0)) as unknown[];
        pos += 1 + b - 0xc0;
      } else {
        break;
      }
    }
    if (children[15] !== undefined && bytes[pos] === 0x80 && pos + 1 === bytes.length) return { t: 'branch', children };
  }
  return decodeList(RLP.decode(bytes) as unknown[]);
}

const EMPTY = new Uint8Array(0);

function samePath(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function nibblesToKey(nibbles: readonly number[]): Uint8Array {
  const key = new Uint8Array(nibbles.length >> 1);
  for (let i = 0; i < key.length; i++) key[i] = (nibbles[2 * i] << 4) | nibbles[2 * i + 1];
  return key;
}

export function keyToNibbles(key: Uint8Array): number[] {
  const out: number[] = [];
  for (const b of key) out.push(b >> 4, b & 0x0f);
  return out;
}

/** Decoded nodes by hash (hex) kept between walks: a block's diff reads as old the nodes the last one read as new. */
export interface DecodedNodes {
  get(hex: string): Node | undefined;
  set(hex: string, node: Node): void;
}

export class TrieWalker {
  constructor(
    private readonly read: NodeReader,
    private readonly decoded?: DecodedNodes,
  ) {}

  private resolve(item: Item): Node | undefined {
    if (isEmpty(item)) return undefined;
    if (isNode(item)) return item;
    if (Array.isArray(item)) return decodeList(item);
    const hash = item as Uint8Array;
    const hex = this.decoded === undefined ? '' : Buffer.from(hash.buffer, hash.byteOffset, 32).toString('hex');
    const known = this.decoded?.get(hex);
    if (known !== undefined) return known;
    const bytes = this.read(hash);
    if (bytes === undefined) throw new MissingTrieNodeError(hash);
    const node = decodeNode(bytes);
    this.decoded?.set(hex, node);
    return node;
  }

  /** Cheap equality (hashes, inlined nodes, virtual tails): false may still be equal, and the walk then descends. */
  private same(a: Item, b: Item): boolean {
    if (a instanceof Uint8Array && b instanceof Uint8Array) return equalsBytes(a, b);
    if (Array.isArray(a) && Array.isArray(b)) return equalsBytes(RLP.encode(a as never), RLP.encode(b as never));
    if (isNode(a) && isNode(b)) {
      if (a.t === 'leaf' && b.t === 'leaf') return samePath(a.path, b.path) && equalsBytes(a.value, b.value);
      if (a.t === 'ext' && b.t === 'ext') return samePath(a.path, b.path) && this.same(a.child, b.child);
    }
    return false;
  }

  /** The node's children one nibble down (a leaf or extension becomes a one-child branch over its tail). */
  private expand(node: Node): Item[] {
    const out: Item[] = new Array(16);
    if (node.t === 'branch') {
      for (let i = 0; i < 16; i++) out[i] = node.children[i];
    } else if (node.t === 'ext') {
      out[node.path[0]] =
        node.path.length === 1 ? node.child : { t: 'ext', path: node.path.slice(1), child: node.child };
    } else {
      out[node.path[0]] = { t: 'leaf', path: node.path.slice(1), value: node.value };
    }
    return out;
  }

  /** Every leaf that differs between the tries of roots `before` and `after` (empty bytes: the empty trie). */
  diff(before: Uint8Array, after: Uint8Array, onChange: LeafChange): void {
    this.diffItems(before, after, [], onChange);
  }

  private diffItems(a: Item, b: Item, prefix: number[], onChange: LeafChange): void {
    if (isEmpty(a) && isEmpty(b)) return;
    if (!isEmpty(a) && !isEmpty(b) && this.same(a, b)) return;
    const na = this.resolve(a);
    const nb = this.resolve(b);
    if (na === undefined) return this.leavesOf(nb, prefix, (k, v) => onChange(k, null, v));
    if (nb === undefined) return this.leavesOf(na, prefix, (k, v) => onChange(k, v, null));
    if (na.t === 'leaf' && nb.t === 'leaf' && samePath(na.path, nb.path)) {
      if (!equalsBytes(na.value, nb.value)) onChange(nibblesToKey([...prefix, ...na.path]), na.value, nb.value);
      return;
    }
    const ea = this.expand(na);
    const eb = this.expand(nb);
    for (let i = 0; i < 16; i++) {
      if (isEmpty(ea[i]) && isEmpty(eb[i])) continue;
      prefix.push(i);
      this.diffItems(ea[i], eb[i], prefix, onChange);
      prefix.pop();
    }
  }

  private leavesOf(
    node: Node | undefined,
    prefix: number[],
    onLeaf: (key: Uint8Array, value: Uint8Array) => void,
  ): void {
    if (node === undefined) return;
    if (node.t === 'leaf') return onLeaf(nibblesToKey([...prefix, ...node.path]), node.value);
    if (node.t === 'ext') return this.leavesOf(this.resolve(node.child), [...prefix, ...node.path], onLeaf);
    for (let i = 0; i < 16; i++)
      if (!isEmpty(node.children[i])) this.leavesOf(this.resolve(node.children[i]), [...prefix, i], onLeaf);
  }

  /** Every leaf of the trie of `root`, in key order. */
  leaves(root: Uint8Array, onLeaf: (key: Uint8Array, value: Uint8Array) => void): void {
    this.leavesOf(this.resolve(root), [], onLeaf);
  }

  /**
   * The leaves of the trie of `root` in key order from `start` (inclusive) while `onLeaf` returns true; returns
   * true when the walk reached the end (no leaf stopped it).
   */
  leavesFrom(root: Uint8Array, start: Uint8Array, onLeaf: (key: Uint8Array, value: Uint8Array) => boolean): boolean {
    return this.walkFrom(root, [], keyToNibbles(start), true, onLeaf);
  }

  private walkFrom(
    item: Item,
    prefix: number[],
    start: readonly number[],
    onBound: boolean,
    onLeaf: (key: Uint8Array, value: Uint8Array) => boolean,
  ): boolean {
    const node = this.resolve(item);
    if (node === undefined) return true;
    if (node.t === 'branch') {
      const d = prefix.length;
      for (let i = onBound ? start[d] : 0; i < 16; i++) {
        if (isEmpty(node.children[i])) continue;
        if (!this.walkFrom(node.children[i], [...prefix, i], start, onBound && i === start[d], onLeaf)) return false;
      }
      return true;
    }
    const path = [...prefix, ...node.path];
    let bound = onBound;
    if (bound) {
      const order = comparePaths(path, start.slice(0, path.length));
      if (order < 0) return true;
      if (order > 0) bound = false;
    }
    if (node.t === 'leaf') return onLeaf(nibblesToKey(path), node.value);
    return this.walkFrom(node.child, path, start, bound, onLeaf);
  }
}

function comparePaths(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
