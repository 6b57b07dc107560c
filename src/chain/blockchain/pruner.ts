/**
 * `--gcmode full`: trie nodes and codes no kept state reaches are removed, by mark and sweep cycles over the
 * state table (state/state-marks.ts, state/state-sweep.ts). Kept states: `StateRetention.keptNumbers(head)` on the
 * canonical chain (post-states, so a dev chain's edited ones), and side-chain blocks within the window (a reorg to
 * them must still work). Nodes written while a cycle runs are marked as they are written (ChainDB.stateWrites).
 *
 * Nothing of a cycle is stored: the marks live in memory and only garbage is ever deleted, so a kill at any moment
 * leaves a database whose kept states are whole, and the next cycle starts over. A cycle starts once the state bytes
 * written since the last one pass a fraction of the live size that one measured, and soon after an open that turned
 * an archive datadir into a full one. Marking reads nodes in batches off the main thread and works on what they
 * bring in slices of `sliceMs` with a turn of the event loop between them; the sweep's turns are one chunk of keys
 * each.
 *
 * The mode is recorded in the datadir (meta `gcMode`): archive → full is accepted (the first cycle prunes), a pruned
 * datadir is refused as an archive.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { bytesToHex, utf8ToBytes } from '@ethereumjs/util';
import { type ChainDB, WriteBatch } from '../db/chain-db.js';
import type { BlockStore } from '../db/block-store.js';
import { keys } from '../db/keys.js';
import type { ImportResult } from '../import/fork-choice.js';
import { StateRetention } from '../state/retention.js';
import { type MarkBatch, StateMarks } from '../state/state-marks.js';
import { type SweepFigures, sweepState } from '../state/state-sweep.js';
import type { ChainView } from '../view/chain-view.js';
import type { OpenOptions } from './open-options.js';

export const PRUNED_DATADIR_MESSAGE =
  'this datadir was pruned (gcmode full): its older states are gone; run with --gcmode full or start a new datadir for archive';

/** One cycle's figures (its log line, metrics, `svc-node db prune`'s summary). */
export interface PruneCycleFigures {
  readonly roots: number;
  /** Nodes and codes the walk marked, and their bytes (the live size of the kept states). */
  readonly marked: number;
  readonly liveBytes: number;
  /** Marked by the write barrier: written while the cycle ran. */
  readonly written: number;
  /** Nodes a kept state names that the table does not hold (below a snap-sync base). */
  readonly missing: number;
  readonly scanned: number;
  readonly swept: number;
  /** LevelDB's estimate of the state table's size before the cycle and after its compaction. */
  readonly diskBytesBefore: number;
  readonly diskBytesAfter: number;
  readonly seconds: number;
  /** Of which the mark phase (the rest: sweep and compaction). */
  readonly markSeconds: number;
  /** The longest turn of the event loop the cycle took (a mark slice or a sweep chunk), in milliseconds. */
  readonly longestSliceMs: number;
  /** The longest mark slice and the longest sweep chunk, apart. */
  readonly longestMarkSliceMs: number;
  readonly longestSweepTurnMs: number;
}

export interface PruneProgress {
  readonly phase: 'mark' | 'sweep';
  readonly marked: number;
  readonly swept: number;
  readonly scanned: number;
}

export interface PruningOptions {
  /** false: cycles run only when `prune` is called (`svc-node db prune`); default true. */
  readonly automatic?: boolean;
  /** The most one mark slice works before giving the event loop a turn (default 10 ms). */
  readonly sliceMs?: number;
  /** A cycle starts once the state bytes written since the last one pass this fraction of its live size… */
  readonly triggerFraction?: number;
  /** …and this many bytes at least (also the trigger after a restart, when no live size was measured yet). */
  readonly minTriggerBytes?: number;
  /** Each finished cycle (the engine logs it). */
  readonly onCycle?: (figures: PruneCycleFigures) => void;
  /** A cycle that failed (the next trigger starts another). */
  readonly onError?: (err: unknown) => void;
}

export interface PrunerParts {
  readonly db: ChainDB;
  readonly store: BlockStore;
  readonly view: ChainView;
  /**
   * Runs `work` between two imports (the chain's import queue): a block's batch is written before its head move,
   * so roots read while an import is between the two would miss the block that write made before the barrier.
   */
  readonly betweenImports: <T>(work: () => Promise<T>) => Promise<T>;
}

interface Parts extends PrunerParts {
  readonly retention: StateRetention;
}

const DEFAULT_SLICE_MS = 10;
/**
 * Nodes read per LevelDB task while marking: the reads wait on the disk off the main thread, which meanwhile only
 * parses what the last batch brought (a few µs a node); big enough that the task's round trip is small beside it.
 */
const READ_BATCH = 512;
// Garbage between cycles is about what was written since the last one: a fifth of the live state keeps a full
// datadir within ~1.25 × its live state (issue 39's bound), at a mark of the live state per fifth of it rewritten.
const DEFAULT_TRIGGER_FRACTION = 0.2;
const DEFAULT_MIN_TRIGGER_BYTES = 64 * 1024 * 1024;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class StatePruner {
  private marks: StateMarks | undefined;
  private running: Promise<PruneCycleFigures | undefined> | undefined;
  private closing = false;
  private writtenBytes = 0;
  private liveBytes = 0;
  /** Side-chain blocks imported by this process (hash → header), until they fall below the window. */
  private readonly sideBlocks = new Map<string, BlockHeader>();
  lastCycle: PruneCycleFigures | undefined;

  private constructor(
    private readonly parts: Parts,
    private readonly opts: PruningOptions,
  ) {}

  /**
   * Checks and records the datadir's mode; in full mode, returns the pruner with its write barrier attached (and
   * a first cycle scheduled when the datadir was an archive with blocks). Archive: undefined.
   */
  static async open(
    chain: PrunerParts,
    open: Pick<OpenOptions, 'retention' | 'pruning' | 'fork'>,
  ): Promise<StatePruner | undefined> {
    const { store, db } = chain;
    const retention = new StateRetention(open.retention);
    const storedBytes = store.getMetaSync('gcMode');
    const stored = storedBytes === undefined ? undefined : new TextDecoder().decode(storedBytes);
    if (retention.archive && stored === 'full') throw new Error(PRUNED_DATADIR_MESSAGE);
    // Fork mode reads missing state from its upstream at any of its blocks: it keeps every state.
    if (!retention.archive && open.fork !== undefined)
      throw new Error('fork mode (--fork-url) keeps every state: run it with --gcmode archive');
    if (stored !== retention.mode)
      await db.write(new WriteBatch().put(keys.meta('gcMode'), utf8ToBytes(retention.mode)));
    if (retention.archive) return undefined;
    const pruner = new StatePruner({ ...chain, retention }, open.pruning ?? {});
    db.stateWrites = (key, value) => pruner.noteWrite(key, value);
    // A datadir that holds only its genesis has no garbage: a first cycle there (marking the genesis state before
    // an import's first block) would only delay the import.
    const fresh = stored === undefined && chain.view.getHead().header.number === 0n;
    if (stored !== 'full' && !fresh && open.pruning?.automatic !== false) pruner.schedule();
    return pruner;
  }

  /** The importer's outcome: side-chain blocks (and blocks a reorg dropped) stay live while within the window. */
  noteImported(result: ImportResult): void {
    if (result.status === 'side') this.sideBlocks.set(bytesToHex(result.block.hash()), result.block.header);
    else if (result.status === 'head')
      for (const block of result.dropped) this.sideBlocks.set(bytesToHex(block.hash()), block.header);
  }

  /** Settles when no cycle is under way (one that is ends first; nothing new is started). */
  async idle(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  /**
   * Runs one whole cycle now (or waits for the one under way); `sliced` false marks in one go with a progress
   * callback about every second (`svc-node db prune`). Undefined when it did not run to its end (closing, a snap
   * sync under way).
   */
  prune(sliced = true, onProgress?: (p: PruneProgress) => void): Promise<PruneCycleFigures | undefined> {
    this.running ??= this.cycle(sliced, onProgress).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Ends a cycle under way at its next slice (nothing of it needs finishing) and detaches the barrier. */
  async close(): Promise<void> {
    this.closing = true;
    await this.running?.catch(() => undefined);
    this.parts.db.stateWrites = undefined;
  }

  /** A state put (`key` with its tag), before it is written. */
  private noteWrite(key: Uint8Array, value: Uint8Array): void {
    this.marks?.noteWritten(key.subarray(1));
    this.writtenBytes += value.length;
    if (this.running !== undefined || this.closing || this.opts.automatic === false) return;
    const threshold = Math.max(
      this.opts.minTriggerBytes ?? DEFAULT_MIN_TRIGGER_BYTES,
      this.liveBytes * (this.opts.triggerFraction ?? DEFAULT_TRIGGER_FRACTION),
    );
    if (this.writtenBytes >= threshold) this.schedule();
  }

  private schedule(): void {
    this.writtenBytes = 0;
    setImmediate(() => {
      if (this.closing || this.running !== undefined) return;
      this.prune().catch((err: unknown) => this.opts.onError?.(err));
    });
  }

  private async cycle(
    sliced: boolean,
    onProgress?: (p: PruneProgress) => void,
  ): Promise<PruneCycleFigures | undefined> {
    const { db, store } = this.parts;
    // A snap sync's pivot state is not reachable from the head until it hands over.
    if (store.getMetaSync('snapSync') !== undefined) return undefined;
    const started = performance.now();
    const diskBytesBefore = await db.stateBytesOnDisk();
    // The mark table is sized once, so no growth (a rehash of every mark, ~80 ms per 100,000) stalls a slice: from
    // the last cycle's count, else from the table's size on disk (~200 bytes a key; an overestimate costs memory only).
    const expected = this.lastCycle !== undefined ? this.lastCycle.marked * 1.25 : diskBytesBefore / 200;
    const marks = new StateMarks(expected);
    try {
      // Between imports, the barrier goes on and the roots are read: every block is in one or the other.
      const roots = await this.parts.betweenImports(() => {
        this.marks = marks;
        this.writtenBytes = 0;
        return this.roots();
      });
      for (const root of roots) marks.addRoot(root);
      let longestSliceMs = 0;
      let lastProgress = performance.now();
      const sliceMs = sliced ? (this.opts.sliceMs ?? DEFAULT_SLICE_MS) : 1000;
      for (;;) {
        if (this.closing) return undefined;
        const t = performance.now();
        const ready = marks.prepare(t + sliceMs);
        longestSliceMs = Math.max(longestSliceMs, performance.now() - t);
        if (ready) break;
        await turn();
      }
      // Two batches out at once: LevelDB reads one while this thread works on the other.
      const out: { batch: MarkBatch; values: Promise<(Uint8Array | undefined)[]> }[] = [];
      for (;;) {
        if (this.closing) return undefined;
        while (out.length < 2) {
          const batch = marks.take(READ_BATCH);
          if (batch.ids.length === 0) break;
          out.push({ batch, values: db.getMany(batch.ids.map((id) => keys.state(id))) });
        }
        const next = out.shift();
        if (next === undefined) break;
        const values = await next.values;
        for (let from = 0; from < values.length; ) {
          if (this.closing) return undefined;
          const t = performance.now();
          from = marks.absorb(next.batch, values, from, t + sliceMs);
          longestSliceMs = Math.max(longestSliceMs, performance.now() - t);
          if (from < values.length) await turn();
        }
        if (performance.now() - lastProgress >= 1000) {
          lastProgress = performance.now();
          onProgress?.({ phase: 'mark', marked: marks.result.marked, swept: 0, scanned: 0 });
        }
      }
      const markSeconds = (performance.now() - started) / 1000;
      const sweep = await sweepState(db, {
        live: (id) => marks.isMarked(id),
        stopped: () => this.closing,
        onChunk: progressEvery(1000, (f) => onProgress?.({ phase: 'sweep', marked: marks.result.marked, ...f })),
      });
      if (this.closing) return undefined;
      await db.compactState();
      const mark = marks.result;
      const figures: PruneCycleFigures = {
        roots: roots.length,
        marked: mark.marked,
        liveBytes: mark.bytes,
        written: mark.written,
        missing: mark.missing,
        scanned: sweep.scanned,
        swept: sweep.swept,
        diskBytesBefore,
        diskBytesAfter: await db.stateBytesOnDisk(),
        seconds: (performance.now() - started) / 1000,
        markSeconds,
        longestSliceMs: Math.max(longestSliceMs, sweep.longestTurnMs),
        longestMarkSliceMs: longestSliceMs,
        longestSweepTurnMs: sweep.longestTurnMs,
      };
      this.liveBytes = mark.bytes;
      this.lastCycle = figures;
      this.opts.onCycle?.(figures);
      return figures;
    } finally {
      this.marks = undefined;
    }
  }

  /** The post-state roots of every kept state: the canonical ones the policy names, and side blocks in the window. */
  private async roots(): Promise<Uint8Array[]> {
    const { view, retention } = this.parts;
    const head = view.getHead().header.number;
    const roots: Uint8Array[] = [];
    // Headers come from caches in microtasks, which never give the event loop a turn: 130 of them held it ~70 ms.
    let since = performance.now();
    for (const n of retention.keptNumbers(head)) {
      if (performance.now() - since >= (this.opts.sliceMs ?? DEFAULT_SLICE_MS)) {
        await turn();
        since = performance.now();
      }
      const hash = await view.getCanonicalHash(n);
      const header = hash === undefined ? undefined : await view.getHeader(hash);
      if (header !== undefined) roots.push(view.stateRootAfter(header));
    }
    const floor = retention.windowFloor(head);
    for (const [hash, header] of this.sideBlocks)
      if (header.number < floor) this.sideBlocks.delete(hash);
      else roots.push(view.stateRootAfter(header));
    return roots;
  }
}

function progressEvery(ms: number, report: (f: SweepFigures) => void): (f: SweepFigures) => void {
  let last = performance.now();
  return (f) => {
    if (performance.now() - last < ms) return;
    last = performance.now();
    report(f);
  };
}
