/**
 * Snap sync (snap/1), geth's design in outline: pick a pivot a little below the peers' head, store the header
 * chain to it, download the pivot's accounts in parallel key-space chunks (each range proved, its storage and
 * code stored before its accounts), then heal what the ranges left out (their edges, and what changed while the
 * pivot moved) until the pivot's root is stored, and hand over: the pivot becomes the head and full sync goes on
 * from there. Progress is the record in record.ts, written with every batch, so a restart continues.
 *
 * The pivot moves when the peers' head gets 2 × distance past it (they would soon stop serving its state):
 * later ranges come from the new root. Nodes of any root are true content-addressed nodes, and only the root
 * healed last is adopted, so the state never mixes two pivots.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { bytesToBigInt, bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { ChainPort, SnapStatePort } from '../../chain-port.js';
import type { EthSession } from '../../eth/session.js';
import { AccountStateFetcher } from './account-state.js';
import { fetchAccountRange } from './fetch.js';
import { Healer } from './heal.js';
import { agreedHead, downloadHeaders, headerAt, PivotAbandoned } from './headers.js';
import { DEFAULT_MAX_RSS_MIB, MemoryGuard } from './memory.js';
import { RootGone, SnapPeers, SyncClosed } from './peers.js';
import { adoptPivot } from './handover.js';
import { pause } from './pause.js';
import { type Chunk, decodeRecord, encodeRecord, incHash, type SnapRecord, splitKeySpace } from './record.js';
import { SnapProgressView, type SnapStatus } from './status.js';

/** Key-space chunks of the account phase, each a sequence of range requests. */
export const ACCOUNT_CHUNKS = 16;
/** Blocks the pivot stays below the agreed head (geth: 64). */
export const DEFAULT_PIVOT_DISTANCE = 64;
const PEER_WAIT_MS = 500;
const MIB = 1024 * 1024;

/** The V8 heap and the buffers outside it, so a growing resident set can be told apart from a growing heap. */
function memoryFields(): Record<string, number> {
  const m = process.memoryUsage();
  return { heapMiB: Math.round(m.heapUsed / MIB), buffersMiB: Math.round(m.arrayBuffers / MIB) };
}

export interface SnapSyncOptions {
  readonly chain: ChainPort;
  readonly state: SnapStatePort;
  readonly sessions: () => readonly EthSession[];
  readonly onBadPeer: (session: EthSession, reason: string) => void;
  readonly log: {
    info(msg: string, f?: Record<string, unknown>): void;
    debug(msg: string, f?: Record<string, unknown>): void;
  };
  readonly pivotDistance?: number;
  /** A pause before each GetTrieNodes request of the healing phase (settings: sync.heal-pause). */
  readonly healPauseMs?: number;
  readonly progressIntervalMs?: number;
  /** The resident-set ceiling the sync keeps under by asking less at once (settings: sync.max-rss). */
  readonly maxRssBytes?: number;
  /** Called whenever the status changes phase or counts (for eth_syncing and the syncing subscription). */
  readonly onStatus?: (status: SnapStatus | null) => void;
}

export class SnapSync {
  readonly #opts: SnapSyncOptions;
  readonly #peers: SnapPeers;
  readonly #distance: bigint;
  #accountState!: AccountStateFetcher;
  #healer!: Healer;
  #record: SnapRecord | undefined;
  #pivotHeader: BlockHeader | undefined;
  #moving: Promise<void> | undefined;
  #closed = false;
  readonly #stop = new AbortController();
  readonly #view: SnapProgressView;
  readonly #memory: MemoryGuard;

  constructor(options: SnapSyncOptions) {
    this.#opts = options;
    this.#distance = BigInt(options.pivotDistance ?? DEFAULT_PIVOT_DISTANCE);
    this.#memory = new MemoryGuard(options.maxRssBytes ?? DEFAULT_MAX_RSS_MIB * MIB);
    this.#peers = new SnapPeers({
      memory: this.#memory,
      sessions: options.sessions,
      onBadPeer: options.onBadPeer,
      closed: () => this.#closed,
      onRetry: (reason) => options.log.debug('snap sync request failed, retrying', { reason }),
    });
    this.#view = new SnapProgressView(options.log, options.progressIntervalMs, options.onStatus);
  }

  /** The fetchers share the record's counters, so they exist once the record does. */
  private parts(record: SnapRecord): { accountState: AccountStateFetcher; healer: Healer } {
    const { state } = this.#opts;
    const peers = this.#peers;
    const counters = record.counters;
    let healer: Healer | undefined;
    const accountState = new AccountStateFetcher({ state, peers, counters, healer: () => healer! });
    healer = new Healer({
      state,
      peers,
      counters,
      fetchCodes: (root, hashes) => accountState.fetchCodes(root, hashes),
      onPending: (n) => this.#view.setPending(n),
    });
    return { accountState, healer };
  }

  status(): SnapStatus | null {
    return this.#view.status();
  }

  close(): void {
    this.#closed = true;
    this.#stop.abort();
    this.#view.stop();
  }

  /** Runs the sync to its handover; false when there was nothing to snap-sync (too short a chain) or it stopped. */
  async run(): Promise<boolean> {
    try {
      const record = (this.#record = await this.start());
      if (record === undefined) return false;
      ({ accountState: this.#accountState, healer: this.#healer } = this.parts(record));
      this.#view.start(record, () => this.lineExtras());
      const watch = setInterval(() => void this.followHead(), 2_000);
      watch.unref();
      this.#stopWatch = () => clearInterval(watch);
      if (record.phase === 'headers') {
        await this.headersToPivot();
        record.phase = 'accounts';
        this.#view.update(record);
      }
      this.#pivotHeader = await this.#opts.chain.getHeader(record.pivot.hash);
      // A resumed sync may find its pivot far behind the peers' head: moved first, not after a failed request.
      while (this.#peers.usable().length === 0 && !this.#closed) await pause(PEER_WAIT_MS, this.#stop.signal);
      await this.followHead();
      if (record.phase === 'accounts') {
        await Promise.all(record.chunks.map((chunk) => this.accountChunk(chunk)));
        record.phase = 'healing';
        await this.#opts.state.write([], [], encodeRecord(record), { durable: true });
      }
      this.#view.update(record);
      const pivot = await this.healAPivot();
      await adoptPivot(this.#opts.chain, this.#opts.state, this.#peers, pivot);
      // The adopted pivot last: the record's may have moved on meanwhile (a head watch racing the last heal).
      this.#opts.log.info('snap sync done', {
        ...this.#view.fields(),
        pivot: pivot.number.toString(),
        root: bytesToHex(pivot.stateRoot),
      });
      return true;
    } catch (err) {
      if (this.#closed) return false;
      throw err;
    } finally {
      this.#stopWatch?.();
      this.#view.stop();
    }
  }

  #stopWatch: (() => void) | undefined;

  /** What the progress line adds to the counts: how much each peer is asked at once, timeouts, memory. */
  private lineExtras(): Record<string, unknown> {
    const kind = this.#record?.phase === 'healing' ? 'trie' : 'accounts';
    const peers = this.#peers.usable().map((p) => this.#peers.rate(p).estimate(kind));
    return {
      requestKiB: peers.map((e) => Math.round(e.bytes / 1024)),
      inFlightMax: peers.map((e) => e.window),
      rttMs: peers.map((e) => e.rttMs ?? null),
      timeouts: this.#peers.timeouts,
      rssMiB: Math.round(this.#memory.rssBytes() / MIB),
      ...memoryFields(),
    };
  }

  /** Moves the pivot ahead of time when the peers' head is 2 × distance past it (their state window ends soon). */
  private async followHead(): Promise<void> {
    const record = this.#record;
    if (record === undefined || record.phase === 'headers' || this.#pivotHeader === undefined || this.#moving) return;
    const head = await agreedHead(this.#peers.usable(), (raw) => this.#opts.chain.decodeHeaderValues(raw)).catch(
      () => undefined,
    );
    if (head !== undefined && head > record.pivot.number + 2n * this.#distance)
      await this.movePivot(this.root).catch((err: unknown) =>
        this.#opts.log.debug('snap sync pivot not moved', { error: (err as Error).message }),
      );
  }

  /** The stored record, or a fresh one with a pivot from the peers; undefined when the chain is too short. */
  private async start(): Promise<SnapRecord | undefined> {
    const stored = decodeRecord(await this.#opts.state.readProgress());
    if (stored !== undefined) {
      this.#opts.log.info('snap sync resumed', { phase: stored.phase, pivot: stored.pivot.number.toString() });
      return stored;
    }
    const pivot = await this.newPivot();
    if (pivot === undefined) return undefined;
    const genesis = this.#opts.chain.getGenesis();
    const tip = { number: 0n, hash: genesis.hash(), td: this.#opts.chain.getHeadTotalDifficulty() };
    this.#opts.log.info('snap sync started', { pivot: pivot.number.toString(), peers: this.#peers.usable().length });
    return {
      phase: 'headers',
      pivot: { number: pivot.number, hash: pivot.hash(), td: 0n },
      headerTip: tip,
      chunks: splitKeySpace(ACCOUNT_CHUNKS),
      counters: { accounts: 0, slots: 0, codes: 0, healed: 0 },
    };
  }

  /** The header at the peers' agreed head − distance, once a snap peer is there; undefined if that is ≤ 0. */
  private async newPivot(): Promise<BlockHeader | undefined> {
    for (;;) {
      if (this.#closed) return undefined;
      const peers = this.#peers.usable();
      if (peers.length > 0) {
        const head = await agreedHead(peers, (raw) => this.#opts.chain.decodeHeaderValues(raw)).catch(() => undefined);
        if (head !== undefined) {
          if (head <= this.#distance) return undefined;
          return headerAt(this.#peers, this.#opts.chain, head - this.#distance);
        }
      }
      await pause(PEER_WAIT_MS, this.#stop.signal);
    }
  }

  /**
   * The header chain from the stored tip to a new pivot `target`, the record moved on with it; undefined when a
   * reorg took `target` off the peers' chain meanwhile (the caller asks for a newer pivot again).
   */
  private async headersTo(record: SnapRecord, target: { number: bigint; hash: Uint8Array }) {
    try {
      return await downloadHeaders(
        {
          chain: this.#opts.chain,
          state: this.#opts.state,
          peers: this.#peers,
          recordWith: (t) =>
            encodeRecord({ ...record, headerTip: t, pivot: equalsBytes(t.hash, target.hash) ? t : record.pivot }),
          onTip: (t) => {
            record.headerTip = t;
          },
        },
        record.headerTip,
        target,
      );
    } catch (err) {
      if (!(err instanceof PivotAbandoned)) throw err;
      this.#opts.log.debug('snap sync pivot candidate left behind by a reorg', { error: err.message });
      return undefined;
    }
  }

  private async headersToPivot(): Promise<void> {
    const record = this.#record!;
    for (;;) {
      const pivot = record.pivot;
      try {
        record.pivot = await downloadHeaders(
          {
            chain: this.#opts.chain,
            state: this.#opts.state,
            peers: this.#peers,
            recordWith: (t) =>
              encodeRecord({
                ...record,
                headerTip: t,
                pivot: equalsBytes(t.hash, pivot.hash) ? t : pivot,
                phase: equalsBytes(t.hash, pivot.hash) ? 'accounts' : record.phase,
              }),
            onTip: (t) => {
              record.headerTip = t;
              this.#view.update(record);
            },
          },
          record.headerTip,
          pivot,
        );
        return;
      } catch (err) {
        if (!(err instanceof PivotAbandoned)) throw err;
        const header = await this.pivotAbove(record.headerTip.number);
        this.#opts.log.info('snap sync pivot left behind by a reorg', {
          pivot: pivot.number.toString(),
          newPivot: header.number.toString(),
        });
        record.pivot = { number: header.number, hash: header.hash(), td: 0n };
      }
    }
  }

  /** A new pivot above `number` (the stored header tip, which the chain to it must pass), once the peers have one. */
  private async pivotAbove(number: bigint): Promise<BlockHeader> {
    for (;;) {
      const header = await this.newPivot();
      if (this.#closed) throw new SyncClosed('snap sync stopped');
      if (header !== undefined && header.number > number) return header;
      await pause(PEER_WAIT_MS, this.#stop.signal);
    }
  }

  private get root(): Uint8Array {
    return this.#pivotHeader!.stateRoot;
  }

  /** One chunk's account ranges until its end, each with its storage and codes, written with the cursor. */
  private async accountChunk(chunk: Chunk): Promise<void> {
    const record = this.#record!;
    for (;;) {
      const root = this.root;
      try {
        const started = performance.now();
        const answer = await this.#peers.run(
          root,
          (peer, t) => fetchAccountRange(peer, root, chunk.next, chunk.last, t),
          'accounts',
        );
        const checked = performance.now();
        const storage = await this.#accountState.complete(root, answer.entries);
        const last = answer.entries.at(-1)?.key;
        const next = last === undefined ? undefined : incHash(last);
        const done = !answer.more || next === undefined || bytesToBigInt(next) > bytesToBigInt(chunk.last);
        if (done) record.chunks = record.chunks.filter((c) => c !== chunk);
        else chunk.next = next;
        record.counters.accounts += answer.entries.length;
        // The small storage tries go in the same batch as their accounts: one write per range answer.
        const completed = performance.now();
        await this.#opts.state.write([...storage, ...answer.nodes], [], encodeRecord(record));
        this.#view.update(record);
        this.#opts.log.debug('snap sync account range', {
          accounts: answer.entries.length,
          fetchedMs: Math.round(checked - started),
          storageMs: Math.round(completed - checked),
          writeMs: Math.round(performance.now() - completed),
        });
        if (done) return;
      } catch (err) {
        if (!(err instanceof RootGone)) throw err;
        await this.movePivot(root);
      }
    }
  }

  /** Heals the current pivot's root until it is stored; returns the pivot healed (the one to adopt). */
  private async healAPivot(): Promise<BlockHeader> {
    for (;;) {
      const pivot = this.#pivotHeader!;
      try {
        await this.#healer.heal(pivot.stateRoot, [{ hash: pivot.stateRoot }], this.#opts.healPauseMs);
        // A reorg may have replaced the pivot with a block of the same state root (empty blocks do that):
        // the state is complete, but a head off the peers' chain could never be built on.
        if (await this.onPeersChain(pivot)) return pivot;
        this.#opts.log.info('snap sync pivot left behind by a reorg', { pivot: pivot.number.toString() });
        await this.movePivot(pivot.stateRoot);
      } catch (err) {
        if (!(err instanceof RootGone)) throw err;
        await this.movePivot(pivot.stateRoot);
      }
    }
  }

  /** Whether the peers' canonical block at the pivot's height is the pivot. */
  private async onPeersChain(pivot: BlockHeader): Promise<boolean> {
    const theirs = await headerAt(this.#peers, this.#opts.chain, pivot.number);
    return equalsBytes(theirs.hash(), pivot.hash());
  }

  /** No peer serves `staleRoot`: a newer pivot (once), its headers stored, and the record on it. */
  private movePivot(staleRoot: Uint8Array): Promise<void> {
    if (!equalsBytes(staleRoot, this.root)) return Promise.resolve();
    this.#moving ??= this.doMovePivot().finally(() => {
      this.#moving = undefined;
    });
    return this.#moving;
  }

  private async doMovePivot(): Promise<void> {
    const record = this.#record!;
    const header = await this.newPivot();
    // Above the stored header tip too, which a reorg download cut short may have taken past the pivot.
    const floor = record.headerTip.number > record.pivot.number ? record.headerTip.number : record.pivot.number;
    if (header === undefined || header.number <= floor) {
      // The peers have not moved on (or lost the state for another reason): wait and ask again.
      await pause(PEER_WAIT_MS, this.#stop.signal);
      return;
    }
    const target = { number: header.number, hash: header.hash() };
    const tip = await this.headersTo(record, target);
    if (tip === undefined) return;
    record.pivot = tip;
    this.#pivotHeader = header;
    this.#opts.log.info('snap sync pivot moved', {
      pivot: header.number.toString(),
      root: bytesToHex(header.stateRoot),
    });
    this.#view.update(record);
  }
}
