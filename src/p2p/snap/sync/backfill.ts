/**
 * The history backfill after a snap sync: the bodies and receipts of every block below the snap base, fetched in
 * the background from peers while full sync follows the head (full sync has priority: the backfill waits while
 * it downloads, and asks each peer one request at a time, within the session's request budget).
 *
 * Newest first: the recent past is what callers ask about most, the stored headers already link it from the base
 * down, and "held" stays one cursor (every block from it to the base is complete), so a read knows with one
 * comparison whether a block's history is here. A window of consecutive runs goes to different peers at once;
 * the runs are stored in order, each in one batch with the cursor, so SIGKILL loses at most the window in flight
 * and a restart continues from the cursor. Memory is bounded by the window.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import { type BackfilledBlock, type HistoryFrontier, ProgressLog } from '../../../chain/index.js';
import type { EthSession } from '../../eth/session.js';
import type { SyncOptions } from '../../sync.js';
import type { HistoryBackfillProgress } from '../../types.js';
import { fetchHistory } from './backfill-fetch.js';
import { BadAnswer } from './peers.js';
import { pause } from './pause.js';

/** Blocks per request (bodies and receipts of a run of blocks). */
export const HISTORY_BATCH = 64;
/** Runs fetched at once, each from its own peer. */
const WINDOW = 4;
const IDLE_WAIT_MS = 200;
/** A peer that answered a run empty is not asked again for this long (it may be a snap-synced node itself). */
const LACK_MS = 10_000;

/** The peers, chain and log of full sync (SyncOptions), and when to stand aside for it. */
export interface HistoryBackfillOptions extends Pick<SyncOptions, 'chain' | 'sessions' | 'onBadPeer' | 'log'> {
  /** Full sync is downloading: the backfill leaves the peers to it meanwhile. */
  readonly busy: () => boolean;
  readonly progressIntervalMs?: number;
}

/** Progress for eth_syncing and the MCP sync resource: blocks held below the base, out of the base's height. */
export type HistoryBackfillStatus = HistoryBackfillProgress;

export class HistoryBackfill {
  readonly #opts: HistoryBackfillOptions;
  readonly #busy = new Set<EthSession>();
  readonly #bad = new WeakSet<EthSession>();
  readonly #lacksUntil = new WeakMap<EthSession, number>();
  readonly #askedAt = new WeakMap<EthSession, number>();
  #closed = false;
  readonly #stop = new AbortController();
  #progress: ProgressLog | undefined;
  readonly #running: Promise<void>;

  /** Starts waiting for a snap base (or continues one) in the background; does nothing on a full-synced node. */
  static start(options: HistoryBackfillOptions): HistoryBackfill {
    return new HistoryBackfill(options);
  }

  private constructor(options: HistoryBackfillOptions) {
    this.#opts = options;
    this.#running = this.loop().catch((err: unknown) =>
      options.log.info('history backfill stopped', { error: (err as Error).message }),
    );
  }

  /** null on a node that never snap-synced, and once every block's history is held. */
  status(): HistoryBackfillStatus | null {
    const f = this.#opts.chain.history?.frontier();
    if (f === undefined || f.heldFrom <= 1n) return null;
    return { pivot: f.base, backfilledBlocks: f.base - f.heldFrom + 1n, backfillTarget: f.base };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stop.abort();
    this.#progress?.stop();
    await this.#running;
  }

  private async loop(): Promise<void> {
    const history = this.#opts.chain.history;
    if (history === undefined) return;
    // Started while the service is being built: its peer table exists from the next turn on.
    await pause(IDLE_WAIT_MS, this.#stop.signal);
    while (!this.#closed) {
      const f = history.frontier();
      if (f === undefined) {
        await pause(1_000, this.#stop.signal);
        continue;
      }
      if (f.heldFrom <= 1n) break;
      this.#progress ??= this.startProgress(f);
      if (this.#opts.busy() || this.usable().length === 0) {
        await pause(IDLE_WAIT_MS, this.#stop.signal);
        continue;
      }
      const runs: [bigint, bigint][] = [];
      for (let top = f.heldFrom - 1n; top >= 1n && runs.length < Math.min(WINDOW, this.usable().length); ) {
        const bottom = top - BigInt(HISTORY_BATCH) + 1n > 1n ? top - BigInt(HISTORY_BATCH) + 1n : 1n;
        runs.push([bottom, top]);
        top = bottom - 1n;
      }
      const fetched = await Promise.all(runs.map(([bottom, top]) => this.fetchRun(bottom, top)));
      for (const blocks of fetched) {
        if (blocks === undefined) return;
        await history.storeBlocks(blocks);
        const now = history.frontier()!;
        this.#progress.update(Number(now.base - now.heldFrom + 1n));
      }
    }
    if (this.#progress !== undefined) {
      this.#progress.stop();
      this.#opts.log.info('history backfill done', { pivot: history.frontier()?.base.toString() });
    }
  }

  private startProgress(f: HistoryFrontier): ProgressLog {
    this.#opts.log.info('history backfill started', { pivot: f.base.toString(), heldFrom: f.heldFrom.toString() });
    const progress = new ProgressLog({
      log: this.#opts.log,
      message: 'history backfill progress',
      total: Number(f.base),
      unit: 'blocks',
      fields: () => ({ pivot: f.base.toString(), heldFrom: this.#opts.chain.history?.frontier()?.heldFrom.toString() }),
      ...(this.#opts.progressIntervalMs !== undefined ? { intervalMs: this.#opts.progressIntervalMs } : {}),
    });
    progress.update(Number(f.base - f.heldFrom + 1n));
    return progress.start();
  }

  /** Ready peers not caught lying. */
  private usable(): EthSession[] {
    return this.#opts.sessions().filter((s) => s.ready && !s.link.closed && !this.#bad.has(s));
  }

  /** Blocks top..bottom (newest first), every one checked; undefined when the backfill stops first. */
  private async fetchRun(bottom: bigint, top: bigint): Promise<BackfilledBlock[] | undefined> {
    const headers: BlockHeader[] = [];
    for (let n = top; n >= bottom; n--) {
      const hash = await this.#opts.chain.getCanonicalHash(n);
      const header = hash === undefined ? undefined : await this.#opts.chain.getHeader(hash);
      if (header === undefined) throw new Error(`the header of block ${n} is not stored`);
      headers.push(header);
    }
    const got = new Map<string, BackfilledBlock>();
    for (;;) {
      if (this.#closed) return undefined;
      const missing = headers.filter((h) => !got.has(bytesToHex(h.hash())));
      if (missing.length === 0) return headers.map((h) => got.get(bytesToHex(h.hash()))!);
      const peer = this.freePeer();
      if (peer === undefined) {
        await pause(IDLE_WAIT_MS, this.#stop.signal);
        continue;
      }
      this.#busy.add(peer);
      try {
        const blocks = await fetchHistory(peer, this.#opts.chain, missing);
        if (blocks.length === 0) this.#lacksUntil.set(peer, Date.now() + LACK_MS);
        for (const b of blocks) got.set(bytesToHex(b.block.hash()), b);
      } catch (err) {
        if (err instanceof BadAnswer) {
          this.#bad.add(peer);
          this.#opts.onBadPeer(peer, `history backfill: ${err.message}`);
        }
        // Anything else (a timeout, a disconnect): another peer takes the run.
      } finally {
        this.#busy.delete(peer);
      }
    }
  }

  /** The free peer asked longest ago (so the runs spread over every peer), unless full sync needs them. */
  private freePeer(): EthSession | undefined {
    if (this.#opts.busy()) return undefined;
    const now = Date.now();
    let best: EthSession | undefined;
    for (const s of this.usable()) {
      if (this.#busy.has(s) || (this.#lacksUntil.get(s) ?? 0) > now) continue;
      if (best === undefined || (this.#askedAt.get(s) ?? 0) < (this.#askedAt.get(best) ?? 0)) best = s;
    }
    if (best !== undefined) this.#askedAt.set(best, now);
    return best;
  }
}
