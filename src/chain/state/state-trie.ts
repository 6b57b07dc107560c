/**
 * The Merkle-Patricia trie of the world state and of storage, with a faster path lookup.
 *
 * `MerklePatriciaTrie.findPath` walks through the library's generic `WalkController` (a prioritised task
 * queue with a promise per node), which profiled as the main cost of every account read, insert and
 * delete. A path lookup visits one node per level, so a plain loop gives the same answer: same node,
 * same remaining nibbles, same stack, same handling of missing nodes. Every other trie operation is
 * the library's, and storage tries (shallow copies) get the same lookup.
 *
 * Lookups are also memoised in the node store, keyed by (root, key): a trie under a given root never
 * changes, so a remembered answer is always right. Decoded nodes are shared the same way (keyed by their
 * hash), because the top levels of the trie are decoded again for every account otherwise; the library's
 * own put/del edit the nodes of their path in place, so those get freshly decoded nodes.
 *
 * Between `beginBatch` and `commitBatch`, puts and deletes are collected and then applied together with
 * one hash per changed node (trie-batch.ts); the state manager flushes a block's accounts this way.
 */
import {
  BranchMPTNode,
  ExtensionMPTNode,
  LeafMPTNode,
  MerklePatriciaTrie,
  type MPTNode,
  type MPTOpts,
  type Path,
  type TrieShallowCopyOpts,
  decodeRawMPTNode,
} from '@ethereumjs/mpt';
import { equalsBytes } from '@ethereumjs/util';
import { hexKey } from '../db/hex-key.js';
import type { Lru } from '../db/lru.js';
import { toNibbles } from './nibbles.js';
import { applyBatch } from './trie-batch.js';

/** (root hex + key hex) → the value under that key, or null when absent. */
export type TrieLookupMemo = Lru<string, Uint8Array | null>;
/** Node hash hex → the decoded node. Shared nodes must never be edited. */
export type DecodedNodeCache = Lru<string, MPTNode>;

export interface StateTrieCaches {
  readonly lookups?: TrieLookupMemo;
  readonly nodes?: DecodedNodeCache;
  /**
   * A missing node is an error, never an absent key (a forked chain's trie is partial until read: fork/fork-state.ts).
   * Otherwise, as in the library, a lookup that meets a missing node answers "absent".
   */
  readonly missingNodeIsError?: boolean;
}

const MISSING_NODE = 'Missing node in DB';

/** The trie's error for a node its database does not hold. */
export function isMissingNode(err: unknown): boolean {
  return err instanceof Error && err.message === MISSING_NODE;
}

export class StateTrie extends MerklePatriciaTrie {
  private readonly memo: TrieLookupMemo | undefined;
  private readonly decoded: DecodedNodeCache | undefined;
  /** Library put/del calls in progress on this trie: they must get nodes of their own. */
  private editing = 0;

  constructor(
    opts: MPTOpts,
    private readonly caches: StateTrieCaches = {},
  ) {
    super(opts);
    this.memo = caches.lookups;
    this.decoded = caches.nodes;
  }

  override async lookupNode(node: Uint8Array | Uint8Array[]): Promise<MPTNode> {
    if (this.decoded === undefined || this.editing > 0 || !(node instanceof Uint8Array)) return super.lookupNode(node);
    const key = hexKey(node);
    const known = this.decoded.get(key);
    if (known !== undefined) return known;
    const fresh = await super.lookupNode(node);
    this.decoded.set(key, fresh);
    return fresh;
  }

  /** Collected updates by transformed key (hex) while a batch is open. */
  private collected: Map<string, readonly [Uint8Array, Uint8Array | null]> | undefined;

  beginBatch(): void {
    if (this.collected !== undefined) throw new Error('a trie batch is already open');
    this.collected = new Map();
  }

  /** Applies the collected updates, stores the new nodes and moves the root. */
  async commitBatch(): Promise<void> {
    const updates = this.collected;
    this.collected = undefined;
    if (updates === undefined || updates.size === 0) return;
    const root = this.root();
    const { root: newRoot, writes } = await applyBatch(
      {
        load: (ref) => this.lookupNode(ref),
        hash: (bytes) => this.hash(bytes),
        // The next batch (the dev miner's next block, an import's next flush) opens the paths this one wrote.
        created: (hash, raw) => this.decoded?.set(hexKey(hash), decodeRawMPTNode(raw)),
      },
      equalsBytes(root, this.EMPTY_TRIE_ROOT) ? undefined : root,
      updates.values(),
      this.EMPTY_TRIE_ROOT,
    );
    if (writes.length > 0)
      await this._db.batch(writes.map(([hash, value]) => ({ type: 'put' as const, key: this._getDbKey(hash), value })));
    this.root(newRoot);
  }

  /** The open batch's updates so far: transformed (hashed) key and value, null deleting (change-list.ts). */
  pendingUpdates(): Iterable<readonly [Uint8Array, Uint8Array | null]> {
    return this.collected?.values() ?? [];
  }

  /** Whether a batch is open: the root does not yet say what the trie holds (a flat read must not stand in). */
  get batching(): boolean {
    return this.collected !== undefined;
  }

  /** Drops the collected updates (the flush that collected them failed). */
  discardBatch(): void {
    this.collected = undefined;
  }

  override async put(key: Uint8Array, value: Uint8Array | null, skipKeyTransform = false): Promise<void> {
    if (this.collected === undefined) return this.edit(() => super.put(key, value, skipKeyTransform));
    const applied = skipKeyTransform ? key : this.appliedKey(key);
    this.collected.set(hexKey(applied), [applied, value === null || value.length === 0 ? null : value]);
  }

  override async del(key: Uint8Array, skipKeyTransform = false): Promise<void> {
    if (this.collected === undefined) return this.edit(() => super.del(key, skipKeyTransform));
    const applied = skipKeyTransform ? key : this.appliedKey(key);
    this.collected.set(hexKey(applied), [applied, null]);
  }

  private async edit(change: () => Promise<void>): Promise<void> {
    this.editing++;
    try {
      await change();
    } finally {
      this.editing--;
    }
  }

  override async get(key: Uint8Array, throwIfMissing = false): Promise<Uint8Array | null> {
    if (this.collected !== undefined) {
      const pending = this.collected.get(hexKey(this.appliedKey(key)));
      if (pending !== undefined) return pending[1];
    }
    if (this.memo === undefined || throwIfMissing) return super.get(key, throwIfMissing);
    const memoKey = hexKey(this.root()) + hexKey(key);
    const known = this.memo.get(memoKey);
    if (known !== undefined) return known;
    const value = await super.get(key);
    this.memo.set(memoKey, value);
    return value;
  }

  override async findPath(
    key: Uint8Array,
    throwIfMissing = false,
    partialPath: { stack: MPTNode[] } = { stack: [] },
  ): Promise<Path> {
    // Resuming from a partial stack is rare (proof code): leave it to the library.
    if (partialPath.stack.length > 0) return super.findPath(key, throwIfMissing, partialPath);
    const target = toNibbles(key);
    const keyLength = target.length;
    const stack: MPTNode[] = [];
    let progress = 0;
    let ref: Parameters<MerklePatriciaTrie['lookupNode']>[0] = this.root();
    try {
      for (;;) {
        const node = await this.lookupNode(ref);
        stack.push(node);
        if (node instanceof BranchMPTNode) {
          if (progress === keyLength) return { node, remaining: [], stack };
          const child = node.getBranch(target[progress]);
          if (!child) return { node: null, remaining: target.slice(progress), stack };
          progress++;
          ref = child;
        } else if (node instanceof LeafMPTNode) {
          const start = progress;
          const nibbles = node.key();
          if (keyLength - progress > nibbles.length) return { node: null, remaining: target.slice(start), stack };
          for (const nibble of nibbles) {
            if (nibble !== target[progress]) return { node: null, remaining: target.slice(start), stack };
            progress++;
          }
          return { node, remaining: [], stack };
        } else if (node instanceof ExtensionMPTNode) {
          const start = progress;
          for (const nibble of node.key()) {
            if (nibble !== target[progress]) return { node: null, remaining: target.slice(start), stack };
            progress++;
          }
          ref = node.value();
        } else {
          return { node: null, remaining: [], stack };
        }
      }
    } catch (error) {
      // As the library: a missing node (e.g. the empty trie's root) ends the search unless told to throw.
      if (!isMissingNode(error) || throwIfMissing) throw error;
      if (this.caches.missingNodeIsError === true && !equalsBytes(this.root(), this.EMPTY_TRIE_ROOT)) throw error;
      return { node: null, remaining: [], stack };
    }
  }

  override shallowCopy(includeCheckpoints = true, opts?: TrieShallowCopyOpts): StateTrie {
    const trie = new StateTrie(
      { ...this._opts, db: this._db.db.shallowCopy(), root: this.root(), cacheSize: 0, ...(opts ?? {}) },
      this.caches,
    );
    if (includeCheckpoints && this.hasCheckpoints()) trie._db.setCheckpoints(this._db.checkpoints);
    return trie;
  }
}
