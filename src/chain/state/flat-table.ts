/**
 * The flat state (issue 39): every account and storage slot of the head's state by hashed key ('a'/'o' in
 * db/keys.ts), beside the trie. Every head move writes through `writeHead`, which stages the trie diff from the
 * table's root to the new head's root (trie-walk.ts) into the move's own batch, with the meta record of what the
 * table holds: after a crash the table still equals the stored head's state. The reverse diffs of recent moves stay
 * in memory (flat-layers.ts) so reads at a few states below the head answer too.
 *
 * With no usable table (an old datadir, after a snap sync, a diff that could not be walked) it is built in the
 * background (flat-build.ts); until then, and while a move's write is in flight, `covers` is false and readers use
 * the trie.
 */
import { RLP } from '@ethereumjs/rlp';
import { equalsBytes, KECCAK256_RLP } from '@ethereumjs/util';
import type { ProgressLogger } from '../base/progress-log.js';
import { type ChainDB, WriteBatch } from '../db/chain-db.js';
import { keys, Tag } from '../db/keys.js';
import type { FlatEntry, FlatReader } from './flat-reader.js';
import { DEFAULT_FLAT_LAYER_LIMITS, type FlatLayerLimits, FlatLayers } from './flat-layers.js';
import { hexKey } from '../db/hex-key.js';
import type { TrieNodeStore } from './trie-db.js';
import { Lru } from '../db/lru.js';
import { MissingTrieNodeError, type Node, type NodeReader, TrieWalker } from './trie-walk.js';

const NO_ROOT = new Uint8Array(0);

/** The trie walks' form of a root: the empty trie's root is not a stored node. */
export function walkRoot(root: Uint8Array): Uint8Array {
  return equalsBytes(root, KECCAK256_RLP) ? NO_ROOT : root;
}

/**
 * An account leaf's storage root in walk form (no account: the empty trie). The leaf is RLP [nonce, balance,
 * storageRoot, codeHash] whose last two items are always 32-byte strings (0xa0 + 32 bytes): sliced, not decoded
 * (the RLP decoder was most of a new account's cost in a block's diff).
 */
export function storageRootOf(account: Uint8Array | null): Uint8Array {
  if (account === null) return NO_ROOT;
  const end = account.length - 33;
  return walkRoot(account.subarray(end - 32, end));
}

/** What the table holds: ready at `root`, or being built (keys below `cursor` equal `root`'s state). */
export interface FlatMeta {
  readonly root: Uint8Array;
  readonly cursor?: Uint8Array;
}

export function encodeFlatMeta(meta: FlatMeta): Uint8Array {
  return RLP.encode(meta.cursor === undefined ? [meta.root] : [meta.root, meta.cursor]);
}

export function decodeFlatMeta(bytes: Uint8Array | undefined): FlatMeta | undefined {
  if (bytes === undefined) return undefined;
  const [root, cursor] = RLP.decode(bytes) as Uint8Array[];
  return cursor === undefined ? { root } : { root, cursor };
}

export interface FlatTableOptions {
  /** Where the background build logs its start, progress lines and end. */
  readonly log?: ProgressLogger;
  readonly layers?: FlatLayerLimits;
  /** Longest stretch of build work between two yields to the event loop (default 20 ms). */
  readonly sliceMs?: number;
}

/** 'off': no table kept (fork mode); 'clearing': an old table is being removed; then 'building', then 'ready'. */
export type FlatMode = 'off' | 'clearing' | 'building' | 'ready';

export class FlatTable implements FlatReader {
  mode: FlatMode = 'off';
  /** The state the table (below `cursor` while building) equals once the writes made so far land. */
  root: Uint8Array = KECCAK256_RLP;
  /** The head's state root as the last move left it (what a build starts from). */
  headRoot: Uint8Array = KECCAK256_RLP;
  /** While building: the first account key not yet written, or an account's key and its first slot not written. */
  cursor: Uint8Array | undefined;
  readonly layers: FlatLayers;
  /** How many times a move's diff failed and the table was dropped for a rebuild (tests assert none). */
  rebuilds = 0;
  /** Moves staged from their execution's listed changes instead of a walk (tests assert the path is taken). */
  listedMoves = 0;
  /** Decoded nodes of the last diffs (trie-walk.ts), for the next one's old side. */
  private readonly decoded = new Lru<string, Node>(4096);
  /** A move's write is in flight: the table is between two states. */
  private moving = false;
  private lock: Promise<void> = Promise.resolve();
  /** The background build or clear, while one runs. */
  private background: Promise<void> | undefined;
  /** The build stopped on a state it cannot walk: tried again only after a rebuild is asked for (or a restart). */
  stalled = false;
  /** Starts the build (flat-build.ts sets it, so this file does not import the build). */
  startBuild: (() => Promise<void>) | undefined;
  closed = false;
  /** Longest stretch of build work between two yields (tests shorten it to have many slices). */
  sliceMs: number;

  constructor(
    readonly db: ChainDB,
    private readonly nodes: TrieNodeStore,
    readonly options: FlatTableOptions = {},
  ) {
    this.sliceMs = options.sliceMs ?? 20;
    this.layers = new FlatLayers(options.layers ?? DEFAULT_FLAT_LAYER_LIMITS);
  }

  /** A node read for walks of committed state (write-behind queue first, then LevelDB). */
  readonly readNode: NodeReader = (hash) => this.db.getSync(keys.state(hash));

  /** A new database: the table is empty, at the empty state, and the genesis write fills it. */
  openEmpty(): void {
    this.mode = 'ready';
    this.root = this.headRoot = KECCAK256_RLP;
  }

  /** An existing database whose head's state is `headRoot`: takes the stored table, catches it up or rebuilds it. */
  async open(headRoot: Uint8Array): Promise<void> {
    this.headRoot = headRoot;
    const meta = decodeFlatMeta(this.db.getSync(keys.meta('flatState')));
    if (meta === undefined) {
      this.mode = 'clearing';
    } else {
      this.root = meta.root;
      this.cursor = meta.cursor;
      this.mode = meta.cursor === undefined ? 'ready' : 'building';
      // Behind the head: a node version without the table moved it. The diff brings it there, if it can be walked.
      if (!equalsBytes(meta.root, headRoot)) await this.writeHead(new WriteBatch(), headRoot);
    }
    this.resumeBuild();
  }

  /** Runs the background build or clear when the table needs one and none runs. */
  resumeBuild(): void {
    if (this.closed || this.stalled || this.background !== undefined || this.startBuild === undefined) return;
    if (this.mode !== 'clearing' && this.mode !== 'building') return;
    this.background = this.startBuild()
      .catch((err) => {
        this.stalled = true;
        this.options.log?.info('flat state build failed', { error: String(err) });
      })
      .finally(() => {
        this.background = undefined;
        // A rebuild asked for while a build ran (the snap handover) starts once that one has stopped.
        this.resumeBuild();
      });
  }

  /** Stops the background work (it resumes from its cursor at the next open). */
  async close(): Promise<void> {
    this.closed = true;
    await this.background;
  }

  /** Runs `work` with no head move or build step in between (they take turns on the table). */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const before = this.lock;
    let release!: () => void;
    this.lock = new Promise((resolve) => {
      release = resolve;
    });
    await before;
    try {
      return await work();
    } finally {
      release();
    }
  }

  /**
   * Writes `batch`, a head move whose new head state is `newRoot` (its trie nodes in the batch or stored), with the
   * table's change in it. `rebuild`: the table is dropped and built again for the new head (the snap handover).
   */
  async writeHead(batch: WriteBatch, newRoot: Uint8Array, rebuild = false): Promise<void> {
    if (this.mode === 'off') return this.db.write(batch);
    await this.exclusive(async () => {
      const before = this.root;
      let reverse: Map<string, Uint8Array | null> | undefined;
      let dropped = rebuild;
      if (!rebuild && (this.mode === 'ready' || this.mode === 'building') && !equalsBytes(before, newRoot)) {
        try {
          reverse = this.listed(batch, newRoot) ? this.stageListed(batch) : this.stageDiff(batch, newRoot);
          if (this.checkListed && batch.flatChanges !== undefined) this.compareWithWalk(batch, newRoot, reverse);
        } catch (err) {
          if (err instanceof FlatChangesMismatchError) throw err;
          // Never fail the head move for the table's sake: it is dropped (in this batch) and built again.
          this.options.log?.info('flat state: the diff to the new head cannot be walked, rebuilding', {
            reason: err instanceof MissingTrieNodeError ? err.message : String(err),
          });
          dropped = true;
          this.rebuilds++;
        }
      }
      if (dropped) batch.del(keys.meta('flatState'));
      else if (this.mode !== 'clearing')
        batch.put(keys.meta('flatState'), encodeFlatMeta({ root: newRoot, cursor: this.cursor }));
      this.moving = true;
      try {
        await this.db.write(batch);
      } finally {
        this.moving = false;
      }
      this.headRoot = newRoot;
      if (dropped) {
        this.stalled = false;
        this.mode = 'clearing';
        this.cursor = undefined;
        this.layers.clear();
        return;
      }
      if (this.mode === 'clearing') return;
      this.root = newRoot;
      if (reverse !== undefined && this.mode === 'ready') this.layers.push(before, reverse);
    });
    if (this.mode === 'clearing') this.resumeBuild();
  }

  /**
   * Whether the move's batch lists its changes (db/flat-changes.ts) from exactly the table's state to `newRoot`, on a
   * complete table: then they are staged as listed, without walking the two tries.
   */
  private listed(batch: WriteBatch, newRoot: Uint8Array): boolean {
    const changes = batch.flatChanges;
    return (
      changes !== undefined &&
      this.mode === 'ready' &&
      equalsBytes(changes.fromRoot, this.root) &&
      equalsBytes(changes.toRoot, newRoot)
    );
  }

  private stageListed(batch: WriteBatch): Map<string, Uint8Array | null> {
    this.listedMoves++;
    const reverse = new Map<string, Uint8Array | null>();
    const change = (key: Uint8Array, before: Uint8Array | null, after: Uint8Array | null) => {
      if (after === null) batch.del(key);
      else batch.put(key, after);
      reverse.set(hexKey(key), before);
    };
    for (const account of batch.flatChanges!.accounts) {
      if (!sameLeaf(account.before, account.after))
        change(keys.flatAccount(account.hashedKey), account.before, account.after);
      for (const slot of account.slots)
        if (!sameLeaf(slot.before, slot.after))
          change(keys.flatStorage(account.hashedKey, slot.hashedKey), slot.before, slot.after);
    }
    return reverse;
  }

  /**
   * Tests' proof of the listed path: the walk's diff of the same move, staged into a scratch batch, must hold the
   * same table writes and reverse values (in any order); a difference throws (never swallowed as a rebuild).
   */
  checkListed = false;

  private compareWithWalk(batch: WriteBatch, newRoot: Uint8Array, reverse: Map<string, Uint8Array | null>): void {
    const scratch = new WriteBatch();
    scratch.ops.push(...batch.ops.filter((op) => op.key[0] === Tag.state));
    const walked = this.stageDiff(scratch, newRoot);
    const ours = new Map<string, Uint8Array | null>();
    const theirs = new Map<string, Uint8Array | null>();
    for (const op of batch.ops)
      if (op.key[0] === Tag.flatAccount || op.key[0] === Tag.flatStorage)
        ours.set(hexKey(op.key), op.type === 'put' ? op.value : null);
    for (const op of scratch.ops)
      if (op.key[0] === Tag.flatAccount || op.key[0] === Tag.flatStorage)
        theirs.set(hexKey(op.key), op.type === 'put' ? op.value : null);
    const same = (a: Map<string, Uint8Array | null>, b: Map<string, Uint8Array | null>) =>
      a.size === b.size && [...a].every(([k, v]) => b.has(k) && sameLeaf(v, b.get(k)!));
    if (!same(ours, theirs)) throw new FlatChangesMismatchError('table writes', ours, theirs);
    if (!same(reverse, walked)) throw new FlatChangesMismatchError('reverse values', reverse, walked);
  }

  /** Stages the diff from the table's root to `newRoot` (below the cursor while building); returns the reverse diff. */
  private stageDiff(batch: WriteBatch, newRoot: Uint8Array): Map<string, Uint8Array | null> {
    const walker = new TrieWalker(this.readerWith(batch), this.decoded);
    // While building: accounts below the cursor's account are in the table; the cursor's own account is too when
    // the cursor is inside its storage, with its slots below the cursor's slot.
    const cursorAccount = this.cursor?.subarray(0, 32);
    const cursorSlot = this.cursor !== undefined && this.cursor.length === 64 ? this.cursor.subarray(32) : undefined;
    const reverse = new Map<string, Uint8Array | null>();
    const change = (key: Uint8Array, before: Uint8Array | null, after: Uint8Array | null) => {
      if (after === null) batch.del(key);
      else batch.put(key, after);
      reverse.set(hexKey(key), before);
    };
    walker.diff(walkRoot(this.root), walkRoot(newRoot), (account, before, after) => {
      const order = cursorAccount === undefined ? -1 : compareBytes(account, cursorAccount);
      if (order > 0 || (order === 0 && cursorSlot === undefined)) return;
      change(keys.flatAccount(account), before, after);
      const storageBefore = storageRootOf(before);
      const storageAfter = storageRootOf(after);
      if (equalsBytes(storageBefore, storageAfter)) return;
      walker.diff(storageBefore, storageAfter, (slot, b, a) => {
        if (order === 0 && compareBytes(slot, cursorSlot!) >= 0) return;
        change(keys.flatStorage(account, slot), b, a);
      });
    });
    return reverse;
  }

  /**
   * Node reads for a move's diff: the new state's nodes are mostly in the move's own batch, the old state's mostly
   * in the node LRU (recent blocks' nodes); the rest from LevelDB (or the write-behind queue).
   */
  private readerWith(batch: WriteBatch): NodeReader {
    // Indexed lazily from the end: a diff reads the new root's path, whose nodes the move wrote last, while a bulk
    // chunk's batch holds every block's nodes (indexing them all cost a hex key and a map entry per node, ~5 % of
    // the chunk). Nodes are content-addressed, so where one is found does not matter.
    const ops = batch.ops;
    const pending = new Map<string, Uint8Array>();
    let unscanned = ops.length;
    return (hash) => {
      const hex = hexKey(hash);
      const known = pending.get(hex) ?? this.nodes.recent.get(hex);
      if (known !== undefined) return known;
      while (unscanned > 0) {
        const op = ops[--unscanned];
        if (op.type !== 'put' || op.key.length !== 33 || op.key[0] !== Tag.state) continue;
        const key = hexKey(op.key.subarray(1));
        pending.set(key, op.value);
        if (key === hex) return op.value;
      }
      return this.nodes.readNow(hex, false);
    };
  }

  // ---- FlatReader ----

  covers(stateRoot: Uint8Array): boolean {
    return this.layerOf(stateRoot) !== undefined;
  }

  /** -1: the table itself answers for `root`; n: layers from n on, then the table; undefined: not covered. */
  private layerOf(root: Uint8Array): number | undefined {
    if (this.mode !== 'ready' || this.moving) return undefined;
    if (equalsBytes(root, this.root)) return -1;
    const i = this.layers.indexOf(root);
    return i < 0 ? undefined : i;
  }

  private read(root: Uint8Array, key: Uint8Array): Uint8Array | null | undefined {
    const from = this.layerOf(root);
    if (from === undefined) return undefined;
    if (from >= 0) {
      const v = this.layers.lookup(from, key);
      if (v !== undefined) return v;
    }
    return this.db.getSync(key) ?? null;
  }

  account(stateRoot: Uint8Array, hashedAddress: Uint8Array): Uint8Array | null | undefined {
    return this.read(stateRoot, keys.flatAccount(hashedAddress));
  }

  storage(stateRoot: Uint8Array, hashedAddress: Uint8Array, hashedSlot: Uint8Array): Uint8Array | null | undefined {
    return this.read(stateRoot, keys.flatStorage(hashedAddress, hashedSlot));
  }

  accountRange(stateRoot: Uint8Array, start: Uint8Array, maxCount: number, maxBytes: number) {
    return this.range(stateRoot, keys.flatAccount(start), Uint8Array.of(Tag.flatAccount + 1), 1, maxCount, maxBytes);
  }

  storageRange(
    stateRoot: Uint8Array,
    hashedAddress: Uint8Array,
    start: Uint8Array,
    maxCount: number,
    maxBytes: number,
  ): Promise<FlatEntry[] | undefined> {
    const end = new Uint8Array(66).fill(0xff);
    end.set(keys.flatStorage(hashedAddress, new Uint8Array(32)).subarray(0, 33));
    return this.range(stateRoot, keys.flatStorage(hashedAddress, start), end, 33, maxCount, maxBytes);
  }

  /** Table entries in `[gte, lt)` at `root`: LevelDB's snapshot merged with the layers' older values. */
  private async range(
    root: Uint8Array,
    gte: Uint8Array,
    lt: Uint8Array,
    keyOffset: number,
    maxCount: number,
    maxBytes: number,
  ): Promise<FlatEntry[] | undefined> {
    await this.db.flushed();
    // From here to the iterator's creation nothing awaits: its snapshot and the layers taken are of one moment.
    const from = this.layerOf(root);
    if (from === undefined) return undefined;
    const iterator = this.db.entriesNow({ gte, lt });
    if (iterator === undefined) return undefined;
    const [gteHex, ltHex] = [hexKey(gte), hexKey(lt)];
    const overrides = from < 0 ? [] : [...this.layers.overrides(from)].filter(([k]) => k >= gteHex && k < ltHex);
    overrides.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const out: FlatEntry[] = [];
    let bytes = 0;
    const emit = (key: Uint8Array, value: Uint8Array | null): boolean => {
      if (value !== null) {
        out.push({ key: key.slice(keyOffset), value: Uint8Array.from(value) });
        bytes += value.length + 32;
      }
      return out.length < maxCount && bytes < maxBytes;
    };
    try {
      let o = 0;
      let page = await iterator.nextv(128);
      let p = 0;
      for (;;) {
        if (p === page.length && page.length > 0) {
          page = await iterator.nextv(128);
          p = 0;
        }
        const stored = p < page.length ? page[p] : undefined;
        const override = o < overrides.length ? overrides[o] : undefined;
        // A key's hex is needed only to merge it with the layers' older values (none at the head's own state).
        const storedHex = stored === undefined || override === undefined ? undefined : hexKey(stored[0]);
        if (stored === undefined && override === undefined) break;
        let more: boolean;
        if (override !== undefined && (storedHex === undefined || override[0] <= storedHex)) {
          if (override[0] === storedHex) p++;
          o++;
          more = emit(bytesOfHex(override[0]), override[1]);
        } else {
          p++;
          more = emit(stored![0], stored![1]);
        }
        if (!more) break;
      }
    } finally {
      await iterator.close();
    }
    return out;
  }
}

const bytesOfHex = (hex: string): Uint8Array => Buffer.from(hex, 'hex');

const sameLeaf = (a: Uint8Array | null, b: Uint8Array | null): boolean =>
  a === null || b === null ? a === b : equalsBytes(a, b);

/** The listed changes of a move differ from the walk's (`FlatTable.checkListed`, tests only). */
export class FlatChangesMismatchError extends Error {
  constructor(what: string, listed: Map<string, Uint8Array | null>, walked: Map<string, Uint8Array | null>) {
    const show = (m: Map<string, Uint8Array | null>) =>
      [...m].map(([k, v]) => `${k}=${v === null ? 'null' : Buffer.from(v).toString('hex')}`).join(', ');
    super(`flat state: listed ${what} differ from the walk's: listed {${show(listed)}}, walked {${show(walked)}}`);
    this.name = 'FlatChangesMismatchError';
  }
}

/** Key order (util's compareBytes goes through bigints). */
const compareBytes = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(a, b);
