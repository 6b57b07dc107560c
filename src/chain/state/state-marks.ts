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
 */
import { RLP } from '@ethereumjs/rlp';
import { KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util';
import { NodeKeySet } from './node-key-set.js';

/** The state table's id of a contract code: 'c' + code hash (@ethereumjs/statemanager's CODEHASH_PREFIX). */
const CODE_PREFIX = 0x63;

const codeId = (codeHash: Uint8Array): Uint8Array => {
  const id = new Uint8Array(33);
  id[0] = CODE_PREFIX;
  id.set(codeHash, 1);
  return id;
};

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

interface Pending {
  readonly hash: Uint8Array;
  /** An account-trie node (its leaves name storage roots and code), else a storage-trie node. */
  readonly accounts: boolean;
}

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
  private readonly stack: Pending[] = [];
  private figures = { marked: 0, bytes: 0, missing: 0, written: 0 };

  /**
   * `read` answers a state-table id (a node hash, or 'c' + code hash) with its stored value; `expected`, how many
   * nodes the walk will likely mark (the last cycle's count), sizes the mark table once.
   */
  constructor(
    private readonly read: (id: Uint8Array) => Uint8Array | undefined,
    expected?: number,
  ) {
    this.marks = new NodeKeySet(expected);
  }

  addRoot(stateRoot: Uint8Array): void {
    if (!sameBytes(stateRoot, KECCAK256_RLP)) this.stack.push({ hash: stateRoot, accounts: true });
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
    return this.stack.length === 0;
  }

  get result(): MarkFigures {
    return { ...this.figures };
  }

  /** Walks until `deadline` (performance.now() milliseconds) or the end; true once every root is marked. */
  step(deadline: number): boolean {
    let n = 0;
    while (this.stack.length > 0) {
      // The clock is read every 16 nodes (under 1 ms of work on a slow core): a slice overshoots little.
      if ((++n & 15) === 0 && performance.now() >= deadline) return false;
      const { hash, accounts } = this.stack.pop()!;
      if (this.marks.has(hash)) continue;
      const encoded = this.read(hash);
      if (encoded === undefined) {
        this.figures.missing++;
        continue;
      }
      this.marks.add(hash);
      this.figures.marked++;
      this.figures.bytes += encoded.length;
      this.visit(RLP.decode(encoded) as NodeItems, accounts);
    }
    return true;
  }

  private visit(node: NodeItems, accounts: boolean): void {
    if (node.length === 17) {
      for (let i = 0; i < 16; i++) this.child(node[i]!, accounts);
      return;
    }
    if (node.length !== 2) return;
    const path = node[0] as Uint8Array;
    const isLeaf = path.length > 0 && path[0]! >> 4 >= 2;
    if (!isLeaf) return this.child(node[1]!, accounts);
    if (accounts) this.account(node[1] as Uint8Array);
  }

  /** A child reference: a hash to look up, an inline node (shorter than a hash) to visit, or nothing. */
  private child(ref: NodeItems[number], accounts: boolean): void {
    if (Array.isArray(ref)) {
      if (ref.length > 0) this.visit(ref as NodeItems, accounts);
      return;
    }
    if ((ref as Uint8Array).length === 32) this.stack.push({ hash: ref as Uint8Array, accounts });
  }

  /** An account leaf's value: [nonce, balance, storageRoot, codeHash]. */
  private account(value: Uint8Array): void {
    const [, , storageRoot, codeHash] = RLP.decode(value) as Uint8Array[];
    if (storageRoot !== undefined && storageRoot.length === 32 && !sameBytes(storageRoot, KECCAK256_RLP))
      this.stack.push({ hash: storageRoot, accounts: false });
    if (codeHash === undefined || codeHash.length !== 32 || sameBytes(codeHash, KECCAK256_NULL)) return;
    const id = codeId(codeHash);
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
}

type NodeItems = (Uint8Array | NodeItems)[];
