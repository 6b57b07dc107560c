/**
 * The seal checker: every block whose import reused this node's own assembly (sealed-blocks.ts) is executed again by
 * @ethereumjs/vm's generic code on a worker thread (seal-check-worker.ts) and compared with what it claims, off the
 * answer path. At most `lag` blocks may wait for their verdict: the miner asks for `room()` before building the
 * next block, and waits while the checker is that far behind (one bounded queue, never an unbounded one). A block
 * the reference computes otherwise is reported through `onMismatch` (the chain rewinds to the block before it, the
 * engine stops block production); after that `room()` refuses, with the reason.
 *
 * The worker reads the parent's state by trie node hash through this thread (it alone has LevelDB open); the
 * ancestors' hashes (BLOCKHASH) come from the block's own ancestry as the importer saw it.
 */
import type { Block } from '@ethereumjs/block';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import type { Worker } from 'node:worker_threads';
import type { TxReceipt } from '../codec/receipts.js';
import { txBytes } from '../codec/tx-bytes.js';
import { headerBytesOf } from '../codec/header-bytes.js';
import type { RewardCredit } from '../rules/engine-types.js';
import type { TrieNodeStore } from '../state/trie-db.js';
import { spawnSiblingWorker } from '../workers/spawn.js';
import { compact } from './call-worker-protocol.js';
import type {
  FromSealWorker,
  NodeAsk,
  SealCheckJob,
  SealCheckSetup,
  SealDifference,
  SealedReceipt,
  SealVerdict,
  ToSealWorker,
} from './seal-check-protocol.js';
import { impersonatedSenderOf } from './sender-address.js';

export type { SealCheckSetup, SealDifference };

/** A block imported on its assembly's word, with what its re-execution needs. */
export interface SealCheckSubject {
  readonly block: Block;
  /** The state its assembly started from (the parent's post-state, a dev edit's root included). */
  readonly parentRoot: Uint8Array;
  readonly ancestors: EVMMockBlockchainInterface;
  readonly rewards: readonly RewardCredit[];
  readonly receipts: readonly TxReceipt[];
}

export interface SealMismatch {
  readonly block: Block;
  readonly differences: readonly SealDifference[];
}

export interface SealCheckerOptions {
  readonly setup: SealCheckSetup;
  readonly nodes: TrieNodeStore;
  /** Blocks that may wait for their verdict, at least 1 (`exec.seal-check-lag`). */
  readonly lag: number;
  readonly onMismatch: (mismatch: SealMismatch) => void;
  /** A check that could not run (no verdict): the block stays, the message says why. */
  readonly onError: (block: Block, message: string) => void;
}

/** Block production stopped: a block sealed here differed from the reference execution. */
export class SealCheckFailedError extends Error {
  constructor(readonly mismatch: SealMismatch) {
    super(
      `block production is stopped: block ${mismatch.block.header.number} sealed by this node differed from ` +
        `@ethereumjs/vm's execution (${describeDifferences(mismatch.differences)})`,
    );
    this.name = 'SealCheckFailedError';
  }
}

/** The first differences, as "tx 0 gasUsed: sealed 21001, reference 21000; stateRoot: …". */
export function describeDifferences(differences: readonly SealDifference[], max = 4): string {
  const shown = differences
    .slice(0, max)
    .map((d) => `${d.tx !== undefined ? `tx ${d.tx} ` : ''}${d.field}: sealed ${d.sealed}, reference ${d.reference}`);
  const more = differences.length > max ? `; ${differences.length - max} more` : '';
  return shown.join('; ') + more;
}

interface Pending {
  readonly id: number;
  readonly subject: SealCheckSubject;
  /** Built when the block is posted (`jobOf`), after the answer the import was for: the parts are immutable. */
  job: SealCheckJob | undefined;
}

/** A worker that dies this many times in a row leaves checks failing with an error (never a silent pass). */
const MAX_RESTARTS = 3;
const WORKER_HEAP_MB = 512;
/** How long closing waits for the verdicts under way before ending the worker anyway. */
const CLOSE_WAIT_MS = 10_000;
/**
 * Blocks are held while they keep coming and posted as one run: once none has come for HOLD_IDLE_MS, the first has
 * been held HOLD_MAX_MS, or MAX_HELD are held (never more than half the lag bound); blocks held while the worker
 * checks a run go as soon as its verdicts are back. A client sending and polling one transfer after another seals a
 * block every few ms: they go in runs of several. A run's checks cost the worker less CPU each the longer it is (one
 * woken per run starts on caches the other threads cooled): replayed one-transfer checks took ~2.4 ms each posted
 * one by one, ~2.1 ms in pairs, ~1.9 ms in eights (a 20 ms hold from the first block made runs of ~2 in
 * bench/seal-check-cpu.ts).
 */
const HOLD_IDLE_MS = 20;
const HOLD_MAX_MS = 100;
const MAX_HELD = 8;

export class SealChecker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  /** Held blocks, oldest first. */
  private readonly outbox: Pending[] = [];
  private holdTimer: NodeJS.Timeout | undefined;
  /** When the oldest held block was submitted (performance.now()). */
  private heldSince = 0;
  /** When the latest block was submitted (performance.now()): the idle wait's start. */
  private lastSubmitted = 0;
  private flushSoon: NodeJS.Immediate | undefined;
  private nextId = 1;
  private restarts = 0;
  private failure: SealCheckFailedError | undefined;
  private readonly roomWaiters: (() => void)[] = [];
  private drainWaiters: (() => void)[] = [];
  private counts = { checked: 0, failed: 0, errors: 0, reads: 0 };
  /** The miner's waits in `room()`: how often and how long block production stood still for the checker. */
  private waits = { count: 0, ms: 0 };
  private closed = false;

  constructor(private readonly opts: SealCheckerOptions) {}

  /**
   * Blocks checked (a verdict either way), found different, left without a verdict, and waiting now; `reads`: trie
   * nodes, code and ancestor hashes the worker asked this thread for (none while it carries its state on).
   */
  get stats(): {
    readonly checked: number;
    readonly failed: number;
    readonly errors: number;
    readonly reads: number;
    readonly pending: number;
    readonly waits: number;
    readonly waitedMs: number;
  } {
    return { ...this.counts, pending: this.pending.size, waits: this.waits.count, waitedMs: this.waits.ms };
  }

  /** The mismatch that stopped production, if one did. */
  get failed(): SealCheckFailedError | undefined {
    return this.failure;
  }

  /** Queues `subject`'s block for its check; never waits (`room` is where the miner waits). */
  submit(subject: SealCheckSubject): void {
    if (this.closed) return;
    // The job's bytes are made when it is posted (a timer or an immediate, or `room`), not here on the import's way
    // to the send's answer: ~50 µs a block on the main thread's critical path (results/transfer-server-time.md).
    const entry: Pending = { id: this.nextId++, subject, job: undefined };
    this.pending.set(entry.id, entry);
    // Held while blocks keep coming (a client sending transaction after transaction), then posted as one run: a
    // worker woken per block competes with the answer path for a core and pays a message and a state reset each time.
    this.outbox.push(entry);
    const now = performance.now();
    if (this.outbox.length === 1) this.heldSince = now;
    // Another block came: the idle wait starts again. The timer is not re-armed here (timer.refresh() cost ~7 µs of
    // the import's turn per block, profiled): when it fires early it waits out the rest (`holdExpired`).
    this.lastSubmitted = now;
    if (this.outbox.length >= this.heldAtMost || now - this.heldSince >= HOLD_MAX_MS) {
      // Once this turn's work (the import's answer) is done.
      this.flushSoon ??= setImmediate(() => this.flush());
    } else if (this.holdTimer === undefined) this.holdFor(HOLD_IDLE_MS);
  }

  private holdFor(ms: number): void {
    this.holdTimer = setTimeout(() => this.holdExpired(), ms);
    this.holdTimer.unref();
  }

  /** The hold's timer fired: the held blocks go once none came for HOLD_IDLE_MS. */
  private holdExpired(): void {
    const idle = performance.now() - this.lastSubmitted;
    if (idle < HOLD_IDLE_MS) this.holdFor(HOLD_IDLE_MS - idle);
    else this.flush();
  }

  /** Blocks held before they are posted: half the lag bound, so the miner never waits on blocks not yet sent. */
  private get heldAtMost(): number {
    return Math.max(1, Math.min(MAX_HELD, Math.floor(this.opts.lag / 2)));
  }

  private flush(): void {
    clearTimeout(this.holdTimer);
    if (this.flushSoon !== undefined) clearImmediate(this.flushSoon);
    this.holdTimer = this.flushSoon = undefined;
    if (this.closed) return;
    const held = this.outbox.splice(0).filter((entry) => this.pending.has(entry.id));
    if (held.length > 0) this.send(held.map(jobOf));
  }

  /** Resolves once fewer than `lag` blocks wait for a verdict; rejects once a block failed its check. */
  async room(): Promise<void> {
    if (this.failure === undefined && this.pending.size >= this.opts.lag) {
      const started = performance.now();
      while (this.failure === undefined && this.pending.size >= this.opts.lag) {
        this.flush(); // held blocks are part of the lag: they must be on their way before anyone waits for them
        await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
      }
      this.waits.count++;
      this.waits.ms += performance.now() - started;
    }
    if (this.failure !== undefined) throw this.failure;
  }

  /** Resolves once every block submitted so far has its verdict. */
  async drain(): Promise<void> {
    this.flush();
    while (this.pending.size > 0 && !this.closed) await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  /** Waits for the checks under way (at most `lag` blocks, a few seconds at most), then ends the worker. */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_WAIT_MS);
    });
    await Promise.race([this.drain(), bound]);
    clearTimeout(timer);
    this.closed = true;
    this.wake();
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
  }

  private send(jobs: readonly SealCheckJob[]): void {
    try {
      const worker = this.worker ?? this.start();
      worker.ref();
      worker.postMessage({ kind: 'run', jobs } satisfies ToSealWorker);
    } catch (err) {
      for (const job of jobs) {
        const entry = this.pending.get(job.id);
        this.pending.delete(job.id);
        this.counts.errors++;
        if (entry !== undefined) this.opts.onError(entry.subject.block, `the seal-check worker: ${String(err)}`);
      }
      this.wake();
    }
  }

  private start(): Worker {
    const { network } = this.opts.setup;
    const { loadAlloc: _, ...genesis } = network.genesis;
    const worker = spawnSiblingWorker(import.meta.url, 'seal-check-worker', {
      // A function cannot cross (the allocation's loader); the reference reads the state from the trie anyway.
      workerData: { ...this.opts.setup, network: { ...network, genesis } },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    this.worker = worker;
    worker.on('message', (message: FromSealWorker) => this.onMessage(message));
    worker.on('error', (err) => this.onDeath(worker, err.message));
    worker.on('exit', (code) => this.onDeath(worker, `exited with code ${code}`));
    return worker;
  }

  private onMessage(message: FromSealWorker): void {
    if (message.kind === 'ready') return;
    if (message.kind === 'reads') {
      this.answerReads(message);
      return;
    }
    for (const verdict of message.verdicts) this.take(verdict);
    // The worker has finished a run: blocks held meanwhile go now, so a worker that is behind never waits idle for
    // the hold to end (it held the miner back for longer when it did: the lag bound counts the held blocks too).
    if (this.outbox.length > 0) this.flush();
    if (this.pending.size === 0) this.worker?.unref();
    this.wake();
  }

  private take(verdict: SealVerdict): void {
    const entry = this.pending.get(verdict.id);
    if (entry === undefined) return;
    this.pending.delete(verdict.id);
    this.restarts = 0;
    if (verdict.error !== undefined) {
      this.counts.errors++;
      this.opts.onError(entry.subject.block, verdict.error);
      return;
    }
    this.counts.checked++;
    if (verdict.differences.length === 0) return;
    this.counts.failed++;
    const mismatch = { block: entry.subject.block, differences: verdict.differences };
    // The first failure stops production; later blocks built on it go with it (the rewind drops them).
    if (this.failure === undefined) {
      this.failure = new SealCheckFailedError(mismatch);
      this.opts.onMismatch(mismatch);
    }
  }

  private answerReads(message: NodeAsk): void {
    const { nodes } = this.opts;
    this.counts.reads += message.items.length;
    const values: (Uint8Array | null)[] = [];
    const ancestry: Promise<void>[] = [];
    for (const item of message.items) {
      if (item[0] === 'n') {
        values.push(nodes.readNow(item[1], false) ?? null);
        continue;
      }
      const at = values.length;
      values.push(null);
      const subject = this.pending.get(item[1])?.subject;
      if (subject !== undefined)
        ancestry.push(
          subject.ancestors.getBlock(Number(item[2])).then((b) => {
            values[at] = (b as Block).hash();
          }),
        );
    }
    const reply = (error?: string) =>
      this.worker?.postMessage({
        kind: 'reads',
        id: message.id,
        values: compact(values),
        ...(error !== undefined ? { error } : {}),
      } satisfies ToSealWorker);
    if (ancestry.length === 0) reply();
    else
      Promise.all(ancestry).then(
        () => reply(),
        (err: unknown) => reply(String(err)),
      );
  }

  private onDeath(worker: Worker, cause: string): void {
    if (this.worker !== worker || this.closed) return;
    this.worker = undefined;
    if (this.pending.size === 0) return;
    if (++this.restarts <= MAX_RESTARTS) {
      this.outbox.length = 0;
      this.send([...this.pending.values()].map(jobOf));
      return;
    }
    for (const { subject } of this.pending.values()) {
      this.counts.errors++;
      this.opts.onError(subject.block, `the seal-check worker died (${cause})`);
    }
    this.pending.clear();
    this.wake();
  }

  private wake(): void {
    for (const resolve of this.roomWaiters.splice(0)) resolve();
    if (this.pending.size === 0 || this.closed) for (const resolve of this.drainWaiters.splice(0)) resolve();
  }
}

/** What the worker gets for `entry`'s block, made once (a restarted worker is sent it again). */
function jobOf(entry: Pending): SealCheckJob {
  if (entry.job !== undefined) return entry.job;
  const { block } = entry.subject;
  const impersonated: [number, Uint8Array][] = [];
  block.transactions.forEach((tx, i) => {
    const sender = impersonatedSenderOf(tx);
    if (sender !== undefined) impersonated.push([i, sender.bytes]);
  });
  entry.job = compact({
    id: entry.id,
    header: headerBytesOf(block.header),
    // The bytes the pool kept (tx-bytes.ts): `serialize()` would encode each transaction once more.
    txs: block.transactions.map(txBytes),
    impersonated,
    parentRoot: entry.subject.parentRoot,
    rewards: entry.subject.rewards,
    receipts: entry.subject.receipts.map(sealedReceipt),
  });
  return entry.job;
}

function sealedReceipt(r: TxReceipt): SealedReceipt {
  return {
    ...('status' in r && r.status !== undefined ? { status: r.status } : {}),
    ...('stateRoot' in r && r.stateRoot !== undefined ? { stateRoot: r.stateRoot } : {}),
    cumulativeGasUsed: r.cumulativeGasUsed,
    gasUsed: r.gasUsed,
    logs: r.logs,
    logsBloom: r.logsBloom,
    ...(r.contractAddress !== undefined ? { contractAddress: r.contractAddress } : {}),
  };
}
