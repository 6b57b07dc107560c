/**
 * The mark phase of state pruning: every trie node and contract code reachable from a set of state roots, walked
 * in batches so a large state is marked without holding the event loop: `take` hands out the ids to read next, the
 * caller reads them off the main thread (one synchronous read waiting on the disk stalled the loop for tens of
 * ms), and `absorb` marks what was read and stacks its children, until a deadline.
 *
 * The walk stops at a node it has walked already: the states kept share almost all of their nodes, so each is
 * walked only where it differs from the ones before it. That is exact because a node is marked once its children
 * are on the stack, and the sweep waits until `take` has nothing left after the last `absorb`.
 *
 * Nodes written while the cycle runs are live too (`noteWritten`, the write barrier), in a set of their own that
 * the walk does not stop at: a block may write again, unchanged, a node of an older state (a path re-saved with the
 * same contents) without writing the subtree under it, so a written node says nothing of its children. Those
 * children belong to the state the block was built on, which is a root of this cycle (walked whole) or was itself
 * written during it (and so on back to a root).
 *
 * Marks are exact (node-key-set.ts: the keys themselves): a false "already marked" would skip a live subtree.
 *
 * The hashes still to walk sit in one byte array, and a node's children are found in its stored bytes
 * (rlp-cursor.ts) instead of decoding it: a node costs its read and a scan of its bytes, and little garbage.
 */
import { KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util';
import { NodeKeySet } from './node-key-set.js';
import { RlpCursor } from './rlp-cursor.js';

/** The state table's id of a contract code: 'c' + code hash (@ethereumjs/statemanager's CODEHASH_PREFIX). */
const CODE_PREFIX = 0x63;
/** A stack entry: a hash, then what it names (the kinds below). */
const ENTRY = 33;
const STORAGE_NODE = 0;
/** An account-trie node: its leaves name storage roots and code. */
const ACCOUNT_NODE = 1;
const CODE = 2;

const sameAt = (buf: Uint8Array, at: number, b: Uint8Array): boolean => {
  for (let i = 0; i < b.length; i++) if (buf[at + i] !== b[i]) return false;
  return true;
};

export interface MarkFigures {
  /** Nodes and codes marked by the walk (not those the barrier marked). */
  readonly marked: number;
  /** Their bytes: the live size of the kept states. */
  readonly bytes: number;
  /** Nodes the walk wanted and the table did not hold (below a snap-sync base, or a state never stored). */
  readonly missing: number;
  /** Marked by the write barrier. */
  readonly written: number;
}

/** Ids `take` handed out to be read, and what each names. */
export interface MarkBatch {
  readonly ids: readonly Uint8Array[];
  readonly kinds: readonly number[];
}

export class StateMarks {
  private readonly marks: NodeKeySet;
  /** Codes walked, by code hash. */
  private readonly codes = new NodeKeySet(1 << 10);
  /** Written while the cycle runs (the barrier): live, but their subtrees are not known to be walked. */
  private readonly written = new NodeKeySet(1 << 12);
  private stack = new Uint8Array(ENTRY * 1024);
  private depth = 0;
  private readonly cursor = new RlpCursor();
  private figures = { marked: 0, bytes: 0, missing: 0, written: 0 };

  /** `expected`: how many nodes the walk will likely mark (the last cycle's count), sizes the mark table once. */
  constructor(expected?: number) {
    this.marks = new NodeKeySet(expected);
  }

  /** Readies the mark table's memory in slices (`NodeKeySet.prefault`) before the walk; true once done. */
  prepare(deadline: number): boolean {
    return this.marks.prefault(deadline);
  }

  addRoot(stateRoot: Uint8Array): void {
    if (stateRoot.length === 32 && !sameAt(stateRoot, 0, KECCAK256_RLP)) this.push(stateRoot, 0, ACCOUNT_NODE);
  }

  /** The write barrier: `id` was just written (or is about to be) and is live. */
  noteWritten(id: Uint8Array): void {
    if (this.written.add(id)) this.figures.written++;
  }

  /** Live: walked from a root, or written during the cycle. */
  isMarked(id: Uint8Array): boolean {
    if (id.length === 33 && id[0] === CODE_PREFIX && this.codes.hasAt(id, 1)) return true;
    return this.marks.has(id) || this.written.has(id);
  }

  get result(): MarkFigures {
    return { ...this.figures };
  }

  /**
   * Up to `max` state-table ids (node hashes, 'c' + code hashes) to read next, off the stack; none: the walk is done
   * once every batch taken was absorbed. Batches may be out together (a node in two of them is walked once).
   */
  take(max: number): MarkBatch {
    const ids: Uint8Array[] = [];
    const kinds: number[] = [];
    while (this.depth > 0 && ids.length < max) {
      this.depth--;
      const at = this.depth * ENTRY;
      const kind = this.stack[at + 32]!;
      if (kind === CODE ? this.codes.hasAt(this.stack, at) : this.marks.hasAt(this.stack, at)) continue;
      const id = new Uint8Array(kind === CODE ? 33 : 32);
      if (kind === CODE) {
        id[0] = CODE_PREFIX;
        id.set(this.stack.subarray(at, at + 32), 1);
      } else id.set(this.stack.subarray(at, at + 32));
      ids.push(id);
      kinds.push(kind);
    }
    return { ids, kinds };
  }

  /**
   * The stored values of a batch's ids (undefined: not stored), from index `from`: marks each and stacks its
   * children until `deadline` (performance.now() milliseconds, read before every value); returns the index it
   * stopped at, `values.length` once all are in.
   */
  absorb(batch: MarkBatch, values: readonly (Uint8Array | undefined)[], from: number, deadline: number): number {
    const { ids, kinds } = batch;
    const { figures } = this;
    let i = from;
    for (; i < values.length; i++) {
      if (i > from && performance.now() >= deadline) return i;
      const id = ids[i]!;
      const value = values[i];
      const kind = kinds[i]!;
      const set = kind === CODE ? this.codes : this.marks;
      const at = kind === CODE ? 1 : 0;
      // Taken twice in one batch (two parents share it): walked once.
      if (set.hasAt(id, at)) continue;
      if (value === undefined) {
        figures.missing++;
        continue;
      }
      set.addAt(id, at);
      figures.marked++;
      figures.bytes += value.length;
      if (kind === CODE) continue;
      const end = this.cursor.read(value, 0, value.length);
      if (this.cursor.list) this.node(value, this.cursor.start, end, kind === ACCOUNT_NODE);
    }
    return i;
  }
  /** A node's list payload `buf[start…end)`: a branch's 16 children, an extension's child, an account leaf's value. */
  private node(buf: Uint8Array, start: number, end: number, accounts: boolean): void {
    const c = this.cursor;
    let count = 0;
    for (let p = start; p < end; count++) p = c.read(buf, p, end);
    if (count === 17) {
      // The cursor is read again by an inline child's own walk: only `p` is carried across a child.
      for (let i = 0, p = start; i < 16; i++) {
        p = c.read(buf, p, end);
        this.child(buf, c.start, c.end, c.list, accounts);
      }
      return;
    }
    if (count !== 2) return;
    const p = c.read(buf, start, end);
    const leaf = !c.list && c.end > c.start && buf[c.start]! >> 4 >= 2;
    c.read(buf, p, end);
    if (!leaf) this.child(buf, c.start, c.end, c.list, accounts);
    else if (accounts && !c.list) this.account(buf, c.start, c.end);
  }

  /** A child reference: a hash to look up, an inline node (shorter than a hash) to visit, or nothing. */
  private child(buf: Uint8Array, start: number, end: number, list: boolean, accounts: boolean): void {
    if (list) {
      if (end > start) this.node(buf, start, end, accounts);
    } else if (end - start === 32) this.push(buf, start, accounts ? ACCOUNT_NODE : STORAGE_NODE);
  }

  /** An account leaf's value `buf[start…end)`: the RLP of [nonce, balance, storageRoot, codeHash]. */
  private account(buf: Uint8Array, start: number, end: number): void {
    const c = this.cursor;
    c.read(buf, start, end);
    if (!c.list) return;
    const fieldsEnd = c.end;
    let p = c.start;
    for (let field = 0; field < 4; field++) {
      if (p >= fieldsEnd) return;
      p = c.read(buf, p, fieldsEnd);
      if (field < 2 || c.list || c.end - c.start !== 32) continue;
      if (field === 2 && !sameAt(buf, c.start, KECCAK256_RLP)) this.push(buf, c.start, STORAGE_NODE);
      if (field === 3 && !sameAt(buf, c.start, KECCAK256_NULL)) this.push(buf, c.start, CODE);
    }
  }

  private push(buf: Uint8Array, at: number, kind: number): void {
    let base = this.depth * ENTRY;
    if (base + ENTRY > this.stack.length) {
      const grown = new Uint8Array(this.stack.length * 2);
      grown.set(this.stack);
      this.stack = grown;
    }
    const { stack } = this;
    for (let i = 0; i < 32; i++) stack[base++] = buf[at + i]!;
    stack[base] = kind;
    this.depth++;
  }
}
