/**
 * State trie storage on the chain database.
 *
 * Trie nodes are content-addressed and shared between the states of many blocks, so a trie never deletes one
 * (in `--gcmode full` the pruner removes those no kept state reaches: blockchain/pruner.ts). A state manager writes into a
 * `BufferedTrieDB`; the buffer is flushed into the block's LevelDB batch, so a block's header, body,
 * receipts, indexes and state nodes land atomically. Read-only work (calls, historical reads) uses a
 * buffer that is simply dropped.
 */
import { type BatchDBOp, bytesToUnprefixedHex, type DB } from '@ethereumjs/util';
import { DEFAULT_CACHE_LIMITS } from '../base/cache-limits.js';
import type { ChainDB, WriteBatch } from '../db/chain-db.js';
import { keys } from '../db/keys.js';
import { Lru } from '../db/lru.js';
import type { ForkStateSource } from '../fork/fork-state.js';
import { type FlatReader, NO_FLAT_STATE } from './flat-reader.js';
import type { StateTrieCaches } from './state-trie.js';
import type { WrittenKeys } from './written-keys.js';

/** The trie's hex keys back to bytes: Node's native decoder, about twice as fast as the checked one of util. */
const unprefixedHexToBytes = (hex: string): Uint8Array => Buffer.from(hex, 'hex');

/** Committed nodes: LevelDB under the state tag, fronted by an LRU of recently used nodes. */
export class TrieNodeStore {
  /** Exposed for tests of the bound. */
  readonly recent: Lru<string, Uint8Array>;
  /** Trie lookup answers and decoded nodes, shared by every trie on this store (see state-trie.ts). */
  trieCaches: StateTrieCaches;
  /** On a forked chain: where missing state comes from (fork/fork-state.ts). */
  private forkSource: ForkStateSource | undefined;
  /** On the dev chain: the plain keys of what the state managers write (written-keys.ts); undefined elsewhere. */
  writtenKeys: WrittenKeys | undefined;
  /** The flat state beside the trie (flat-reader.ts): set by the chain once it holds one; readers ask it first. */
  flat: FlatReader = NO_FLAT_STATE;

  constructor(
    private readonly db: ChainDB,
    cacheSize = DEFAULT_CACHE_LIMITS.trieNodes,
    lookupMemoSize = DEFAULT_CACHE_LIMITS.trieLookups,
    decodedNodes = DEFAULT_CACHE_LIMITS.trieDecodedNodes,
  ) {
    this.recent = new Lru(cacheSize);
    this.trieCaches = { lookups: new Lru(lookupMemoSize), nodes: new Lru(decodedNodes) };
  }

  async get(hexKey: string): Promise<Uint8Array | undefined> {
    // Synchronous: a node read is LevelDB's own lookup (block cache or page cache, microseconds), while the
    // thread-pool round trip of an async get cost more CPU than that and, on a busy machine, waited for a pool
    // thread far longer (state-heavy import: ~24 % less CPU per block; bench/results/state-heavy-blocks.md).
    return this.readNow(hexKey, true);
  }

  /**
   * The node under `hexKey` read at once (undefined when absent), for walks that read many nodes once each (snap
   * range answers): `keep` false leaves a miss out of the LRU, so a walk over many leaves does not evict the
   * nodes other readers share (and costs no cache insert per leaf).
   */
  readNow(hexKey: string, keep: boolean): Uint8Array | undefined {
    const cached = this.recent.get(hexKey);
    if (cached !== undefined) return cached;
    const value = this.db.getSync(keys.state(unprefixedHexToBytes(hexKey)));
    if (keep && value !== undefined) this.recent.set(hexKey, value);
    return value;
  }

  /**
   * A node read past the LRU, by its hash as bytes: for the deep nodes of a range walk (leaves and the levels above
   * them, each read once per range and rarely in the LRU, which holds the nodes of recent blocks). The LRU check
   * cost a hex key, its conversion back to bytes and a Map lookup per node, ~10 % of a snap server's walk; every
   * committed node is in LevelDB (or the write-behind queue, which getSync reads first) whether cached or not.
   */
  readStored(hash: Uint8Array): Uint8Array | undefined {
    return this.db.getSync(keys.state(hash));
  }

  get fork(): ForkStateSource | undefined {
    return this.forkSource;
  }

  /** Makes this store's tries partial (a missing node is an error, not absence) and reads the rest from `fork`. */
  attachFork(fork: ForkStateSource): void {
    this.forkSource = fork;
    this.trieCaches = { ...this.trieCaches, missingNodeIsError: true };
  }

  /** Call after the batch holding these nodes has been written: they are the hottest nodes. */
  remember(nodes: ReadonlyMap<string, Uint8Array>): void {
    for (const [k, v] of nodes) this.recent.set(k, v);
  }
}

/** The @ethereumjs `DB` a trie writes through: puts are held in memory until `writeTo`. */
export class BufferedTrieDB implements DB<string, Uint8Array> {
  readonly pending = new Map<string, Uint8Array>();

  constructor(private readonly store: TrieNodeStore) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.pending.get(key) ?? (await this.store.get(key));
  }

  /**
   * A synchronous read (TrieNodeStore.readNow) for walks over committed state; undefined on a forked chain, whose
   * missing nodes only the async read fetches.
   */
  readNow(key: string, keep: boolean): Uint8Array | undefined {
    if (this.store.fork !== undefined) return undefined;
    return this.pending.get(key) ?? this.store.readNow(key, keep);
  }

  /** The flat state beside these tries (none on a forked chain, whose tries fill in as they are read). */
  get flat(): FlatReader {
    return this.store.fork === undefined ? this.store.flat : NO_FLAT_STATE;
  }

  /** readNow by the node's hash as bytes; `keep` false reads past the node LRU (TrieNodeStore.readStored). */
  readHashNow(hash: Uint8Array, keep: boolean): Uint8Array | undefined {
    if (this.store.fork !== undefined) return undefined;
    if (keep || this.pending.size > 0) return this.readNow(bytesToUnprefixedHex(hash), keep);
    return this.store.readStored(hash);
  }

  async put(key: string, value: Uint8Array): Promise<void> {
    this.pending.set(key, value);
  }

  /** Nodes may still be referenced by older states, so deletes are ignored. */
  async del(_key: string): Promise<void> {}

  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.pending.set(op.key, op.value);
  }

  /** Storage tries are shallow copies of the account trie and must write into the same buffer. */
  shallowCopy(): DB<string, Uint8Array> {
    return this;
  }

  async open(): Promise<void> {}

  /** Adds the buffered nodes to a block's batch, and the plain keys first written since the last batch (dev chain). */
  writeTo(batch: WriteBatch): void {
    for (const [k, v] of this.pending) batch.put(keys.state(unprefixedHexToBytes(k)), v);
    this.store.writtenKeys?.stageNew(batch);
  }
}
