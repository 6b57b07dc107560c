/**
 * The mark phase of state pruning: every trie node and contract code reachable from a set of state roots, walked
 * in slices (`step` works until a deadline and says whether it is done), so a large state is marked without
 * holding the event loop.
 *
 * The walk stops at a node it has walked already: the states kept share almost all of their nodes, so each is
 * walked only where it differs from the ones before it. That is exact because a node is marked once its children
 * are on the stack, and the sweep waits for an empty stack.
 *
 * Nodes written while the cycle runs are live too (`noteWritten`, the write barrier), in a set of their own that
 * the walk does not stop at: a block may write again, unchanged, a node of an older state (a path re-saved with the
 * same contents) without writing the subtree under it, so a written node says nothing of its children. Those
 * children belong to the state the block was built on, which is a root of this cycle (walked whole) or was itself
 * written during it (and so on back to a root).
 *
 * Marks are exact (node-key-set.ts: the keys themselves): a false "already marked" would skip a live subtree.
 *
 * Per node, the walk allocates nothing of its own: the hashes still to walk sit in one byte array, and a node's
 * children are found in its stored bytes (rlp-cursor.ts) instead of decoding it, so a slice makes no garbage for
 * the collector to stop it on and a node costs a read and a scan of its bytes.
 */
import { KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util';
import { NodeKeySet } from './node-key-set.js';
import { RlpCursor } from './rlp-cursor.js';

/** The state table's id of a contract code: 'c' + code hash (@ethereumjs/statemanager's CODEHASH_PREFIX). */
const CODE_PREFIX = 0x63;
/** A stack entry: a node's hash, then 1 for an account-trie node (its leaves name storage roots and code). */
const ENTRY = 33;

const codeId = (buf: Uint8Array, at: number): Uint8Array => {
  const id = new Uint8Array(33);
  id[0] = CODE_PREFIX;
  id.set(buf.subarray(at, at + 32), 1);
  return id;
};

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

export class StateMarks {
  private readonly marks: NodeKeySet;
  /** Written while the cycle runs (the barrier): live, but their subtrees are not known to be walked. */
  private readonly written = new NodeKeySet(1 << 12);
  private stack = new Uint8Array(ENTRY * 1024);
  private depth = 0;
  /** The hash of the node being read: one buffer handed to every `read`, which must not keep it. */
  private readonly id = new Uint8Array(32);
  private readonly cursor = new RlpCursor();
  private figures = { marked: 0, bytes: 0, missing: 0, written: 0 };

  /**
   * `read` answers a state-table id (a node hash, or 'c' + code hash) with its stored value, synchronously and
   * without keeping the id (the walk reuses it); `expected`, how many nodes the walk will likely mark (the last
   * cycle's count), sizes the mark table once.
   */
  constructor(
    private readonly read: (id: Uint8Array) => Uint8Array | undefined,
    expected?: number,
  ) {
    this.marks = new NodeKeySet(expected);
  }

  addRoot(stateRoot: Uint8Array): void {
    if (stateRoot.length === 32 && !sameAt(stateRoot, 0, KECCAK256_RLP)) this.push(stateRoot, 0, true);
  }

  /** The write barrier: `id` was just written (or is about to be) and is live. */
  noteWritten(id: Uint8Array): void {
    if (this.written.add(id)) this.figures.written++;
  }

  /** Live: walked from a root, or written during the cycle. */
  isMarked(id: Uint8Array): boolean {
    return this.marks.has(id) || this.written.has(id);
  }

  get done(): boolean {
    return this.depth === 0;
  }

  get result(): MarkFigures {
    return { ...this.figures };
  }

  /**
   * Walks until `deadline` (performance.now() milliseconds) or the end; true once every root is marked. The clock
   * is read before every node (tens of nanoseconds next to a read): one node's read is the most a slice overshoots.
   */
  step(deadline: number): boolean {
    const { id, figures } = this;
    while (this.depth > 0) {
      if (performance.now() >= deadline) return false;
      this.depth--;
      const at = this.depth * ENTRY;
      const stack = this.stack;
      if (this.marks.hasAt(stack, at)) continue;
      const accounts = stack[at + 32] === 1;
      for (let i = 0; i < 32; i++) id[i] = stack[at + i]!;
      const encoded = this.read(id);
      if (encoded === undefined) {
        figures.missing++;
        continue;
      }
      this.marks.addAt(id, 0);
      figures.marked++;
      figures.bytes += encoded.length;
      const end = this.cursor.read(encoded, 0, encoded.length);
      if (this.cursor.list) this.node(encoded, this.cursor.start, end, accounts);
    }
    return true;
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
    } else if (end - start === 32) this.push(buf, start, accounts);
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
      if (field === 2 && !sameAt(buf, c.start, KECCAK256_RLP)) this.push(buf, c.start, false);
      if (field === 3 && !sameAt(buf, c.start, KECCAK256_NULL)) this.code(codeId(buf, c.start));
    }
  }

  private code(id: Uint8Array): void {
    if (this.marks.has(id)) return;
    const code = this.read(id);
    if (code === undefined) {
      this.figures.missing++;
      return;
    }
    this.marks.add(id);
    this.figures.marked++;
    this.figures.bytes += code.length;
  }

  private push(buf: Uint8Array, at: number, accounts: boolean): void {
    let base = this.depth * ENTRY;
    if (base + ENTRY > this.stack.length) {
      const grown = new Uint8Array(this.stack.length * 2);
      grown.set(this.stack);
      this.stack = grown;
    }
    const { stack } = this;
    for (let i = 0; i < 32; i++) stack[base++] = buf[at + i]!;
    stack[base] = accounts ? 1 : 0;
    this.depth++;
  }
}
