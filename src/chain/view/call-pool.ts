/**
 * Message calls (eth_call, eth_estimateGas, eth_createAccessList) on worker threads, so both cores execute while
 * the main thread keeps answering. Each worker runs the main thread's `CallExecutor` (exec/call-worker.ts) and reads
 * the block's state through the main thread, which answers from its own `BlockReads` of that block: the database,
 * the flat state, a dev edit's root and a fork's upstream stay where they are (exec/remote-reads.ts).
 *
 * Workers start on the first call, in the background: until one is ready, calls run on the main thread as before,
 * so a node that never serves a call never starts one and a cold start waits for none. A worker runs a few calls at
 * once (their state reads overlap); the rest wait in one queue, bounded: beyond it a call is refused
 * (`CallPoolBusyError`, -32005 with a retry hint). A queued call whose deadline passes leaves the queue with
 * `CallTimeoutError`; a running one is stopped by its worker at the deadline, and should the worker not answer
 * shortly after, the worker is ended. A worker that dies (crash, out of memory, `process.exit`) fails the calls it
 * was running with `CallWorkerDiedError` naming the cause, and another takes its place.
 */
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import type { CallMessage, CallResult } from '../exec/call.js';
import { CallTimeoutError } from '../exec/call-deadline.js';
import type { BlockReads } from '../exec/call-state.js';
import { hexKey } from '../db/hex-key.js';
import {
  type CallJob,
  type CallOutcome,
  type CallWorkerSetup,
  compact,
  type FromWorker,
  type ReadItem,
  type ReadRequest,
  type ReadValue,
  type ToWorker,
} from '../exec/call-worker-protocol.js';
import { InvalidOverrideError } from '../exec/overrides.js';
import type { NetworkDefinition } from '../networks/types.js';
import { spawnSiblingWorker } from '../workers/spawn.js';

/** A block state calls run on, as the main thread serves it to workers. */
export interface PooledState {
  /** Block hash + state root (hex). */
  readonly key: string;
  readonly header: readonly Uint8Array[];
  readonly stateRoot: Uint8Array;
  readonly reads: BlockReads;
  readonly ancestors: EVMMockBlockchainInterface;
}

export interface CallPoolOptions {
  readonly workers: number;
  /** Calls waiting for a worker, at most. */
  readonly maxQueued: number;
  readonly setup: CallWorkerSetup;
  /** Block states each worker keeps executors for (`cache.call-executors`). */
  readonly executors: number;
  /** Calls one worker runs at once (default 4: enough for one call's state reads to overlap another's execution). */
  readonly perWorker?: number;
  readonly onWarning?: (message: string) => void;
  /** A worker is ready; `workers`: how many are now. */
  readonly onReady?: (workers: number) => void;
}

/** The queue is full: the call may pass later. */
export class CallPoolBusyError extends Error {
  constructor(readonly limit: number) {
    super(`${limit} calls are already waiting for an execution worker (exec.max-queued)`);
    this.name = 'CallPoolBusyError';
  }
}

/** The worker running the call died. */
export class CallWorkerDiedError extends Error {
  constructor(readonly reason: string) {
    super(`the execution worker running this call died (${reason})`);
    this.name = 'CallWorkerDiedError';
  }
}

/** How long past a call's deadline its worker may take to stop it before the worker is ended. */
const STOP_GRACE_MS = 2000;
/** Workers that die before being ready, in a row, before calls stay on the main thread. */
const MAX_FAILED_STARTS = 3;
/** A worker's heap: calls are gas-capped, so only a runaway one reaches it (and takes down its worker, not the node). */
const WORKER_HEAP_MB = 512;

interface Job {
  readonly id: number;
  readonly state: PooledState;
  readonly msg: CallMessage;
  readonly fallback: () => Promise<CallResult>;
  readonly resolve: (result: CallResult) => void;
  readonly reject: (err: unknown) => void;
  timer?: NodeJS.Timeout;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  readonly running: Map<number, Job>;
  /** Why it is going away: the worker's error, or the pool's reason for ending it. */
  cause?: string;
}

export class CallPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  /** Block states of queued and running calls, with how many there are: what workers may ask about. */
  private readonly states = new Map<string, { state: PooledState; calls: number }>();
  private nextId = 1;
  private failedStarts = 0;
  private answered = 0;
  private closed = false;

  constructor(private readonly opts: CallPoolOptions) {}

  /** Calls running and waiting, workers ready, calls workers answered (tests read it). */
  get stats(): {
    readonly running: number;
    readonly queued: number;
    readonly workers: number;
    readonly answered: number;
  } {
    const running = this.slots.reduce((n, s) => n + s.running.size, 0);
    const workers = this.slots.filter((s) => s.ready).length;
    return { running, queued: this.queue.length, workers, answered: this.answered };
  }

  /**
   * Runs `msg` on a worker; until a worker is ready (and when workers cannot start), `fallback` runs it here.
   * Throws `CallPoolBusyError` when the queue is full.
   */
  run(state: PooledState, msg: CallMessage, fallback: () => Promise<CallResult>): Promise<CallResult> {
    if (this.closed || this.failedStarts >= MAX_FAILED_STARTS) return fallback();
    this.fill();
    if (!this.slots.some((s) => s.ready)) return fallback();
    const free = this.freeSlot();
    if (free === undefined && this.queue.length >= this.opts.maxQueued) {
      return Promise.reject(new CallPoolBusyError(this.opts.maxQueued));
    }
    return new Promise<CallResult>((resolve, reject) => {
      const job: Job = { id: this.nextId++, state, msg, fallback, resolve, reject };
      this.hold(state);
      if (free !== undefined) this.start(free, job);
      else this.enqueue(job);
    });
  }

  /** Ends the workers; calls still waiting run on the main thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, () => job.fallback());
    await Promise.all(
      this.slots.map((slot) => {
        slot.cause = 'the node is closing';
        return slot.worker.terminate();
      }),
    );
  }

  /** Crashes a worker on purpose (tests of a dead worker): the first one running a call, else the first. */
  crashWorkerForTest(code = 7): void {
    const slot = this.slots.find((s) => s.running.size > 0) ?? this.slots[0];
    slot?.worker.postMessage({ kind: 'exit', code } satisfies ToWorker);
  }

  // ---- workers ------------------------------------------------------------------------------

  /** Starts workers up to the pool's size (after a death, the replacement). */
  private fill(): void {
    while (this.slots.length < this.opts.workers && !this.closed && this.failedStarts < MAX_FAILED_STARTS) {
      let worker: Worker;
      try {
        worker = spawnSiblingWorker(import.meta.url, '../exec/call-worker', {
          workerData: {
            ...this.opts.setup,
            network: withoutAlloc(this.opts.setup.network),
            executors: this.opts.executors,
          },
          resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
        });
      } catch (err) {
        this.failedStarts = MAX_FAILED_STARTS;
        this.opts.onWarning?.(`cannot start an execution worker (${messageOf(err)}); calls run on the main thread`);
        return;
      }
      const slot: Slot = { worker, ready: false, running: new Map() };
      this.slots.push(slot);
      // Idle, a worker must not keep the process alive; it is ref'd while it runs calls.
      worker.unref();
      worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
      worker.on('error', (err) => {
        slot.cause ??= messageOf(err);
      });
      worker.on('exit', (code) => this.onExit(slot, code));
    }
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (message.kind === 'ready') {
      slot.ready = true;
      this.failedStarts = 0;
      this.opts.onReady?.(this.stats.workers);
      this.drain();
    } else if (message.kind === 'reads') void this.answerReads(slot, message);
    else this.onDone(slot, message);
  }

  private onExit(slot: Slot, code: number): void {
    this.slots.splice(this.slots.indexOf(slot), 1);
    if (this.closed) {
      for (const job of slot.running.values()) this.settle(job, () => job.fallback());
      return;
    }
    const cause = slot.cause ?? `it exited with code ${code}`;
    if (!slot.ready && ++this.failedStarts >= MAX_FAILED_STARTS) {
      this.opts.onWarning?.(`execution workers cannot start (${cause}); calls run on the main thread`);
      for (const job of this.queue.splice(0)) this.settle(job, () => job.fallback());
    } else {
      this.opts.onWarning?.(`an execution worker died (${cause}); starting another`);
    }
    for (const job of slot.running.values()) this.settle(job, () => Promise.reject(new CallWorkerDiedError(cause)));
    this.fill();
  }

  // ---- calls --------------------------------------------------------------------------------

  private freeSlot(): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of this.slots) {
      if (
        slot.ready &&
        slot.running.size < (this.opts.perWorker ?? 4) &&
        (best === undefined || slot.running.size < best.running.size)
      )
        best = slot;
    }
    return best;
  }

  private enqueue(job: Job): void {
    this.queue.push(job);
    const { deadline } = job.msg;
    if (deadline === undefined) return;
    job.timer = setTimeout(
      () => {
        const at = this.queue.indexOf(job);
        if (at < 0) return;
        this.queue.splice(at, 1);
        this.settle(job, () => Promise.reject(new CallTimeoutError(deadline.limitMs)));
      },
      Math.max(0, deadline.at - performance.now()),
    );
  }

  private start(slot: Slot, job: Job): void {
    if (job.timer !== undefined) clearTimeout(job.timer);
    if (slot.running.size === 0) slot.worker.ref();
    slot.running.set(job.id, job);
    const { msg, state } = job;
    const { deadline } = msg;
    const sent: CallMessage = compact(
      deadline === undefined ? msg : { ...msg, deadline: { ...deadline, at: deadline.at + performance.timeOrigin } },
    );
    const call: CallJob = {
      kind: 'call',
      id: job.id,
      key: state.key,
      header: state.header,
      stateRoot: state.stateRoot,
      msg: sent,
    };
    slot.worker.postMessage(call);
    if (deadline !== undefined) {
      job.timer = setTimeout(
        () => {
          if (!slot.running.has(job.id)) return;
          slot.cause = `a call ran ${STOP_GRACE_MS} ms past its time limit and was not stopped`;
          slot.running.delete(job.id);
          this.settle(job, () => Promise.reject(new CallTimeoutError(deadline.limitMs)));
          void slot.worker.terminate();
        },
        Math.max(0, deadline.at - performance.now()) + STOP_GRACE_MS,
      );
    }
  }

  private onDone(slot: Slot, outcome: CallOutcome): void {
    const job = slot.running.get(outcome.id);
    if (job === undefined) return;
    slot.running.delete(outcome.id);
    this.answered++;
    if (slot.running.size === 0) slot.worker.unref();
    const { error, result } = outcome;
    if (error === undefined) this.settle(job, () => Promise.resolve(result!));
    else if (error.name === 'timeout') this.settle(job, () => Promise.reject(new CallTimeoutError(error.limitMs!)));
    else if (error.name === 'override') this.settle(job, () => Promise.reject(new InvalidOverrideError(error.message)));
    else this.settle(job, () => Promise.reject(new Error(error.message)));
    this.drain();
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const slot = this.freeSlot();
      if (slot === undefined) return;
      this.start(slot, this.queue.shift()!);
    }
  }

  /** Ends `job` with what `outcome` gives, and lets go of its block state. */
  private settle(job: Job, outcome: () => Promise<CallResult>): void {
    if (job.timer !== undefined) clearTimeout(job.timer);
    this.release(job.state);
    outcome().then(job.resolve, job.reject);
  }

  private hold(state: PooledState): void {
    const held = this.states.get(state.key);
    if (held === undefined) this.states.set(state.key, { state, calls: 1 });
    else held.calls++;
  }

  private release(state: PooledState): void {
    const held = this.states.get(state.key);
    if (held !== undefined && --held.calls === 0) this.states.delete(state.key);
  }

  // ---- reads --------------------------------------------------------------------------------

  private async answerReads(slot: Slot, request: ReadRequest): Promise<void> {
    const state = this.states.get(request.key)?.state;
    const settled = await Promise.allSettled(
      request.items.map((item) =>
        state === undefined ? Promise.reject(new Error('no call runs on this state any more')) : readItem(state, item),
      ),
    );
    const values = settled.map((s) => (s.status === 'fulfilled' ? compact(s.value) : null));
    const errors = settled.flatMap((s, i) => (s.status === 'rejected' ? [[i, messageOf(s.reason)] as const] : []));
    slot.worker.postMessage({
      kind: 'reads',
      id: request.id,
      values,
      ...(errors.length > 0 ? { errors } : {}),
    } satisfies ToWorker);
  }
}

async function readItem({ reads, ancestors }: PooledState, item: ReadItem): Promise<ReadValue> {
  switch (item[0]) {
    case 'a': {
      const key = hexKey(item[1]);
      const account = reads.knownAccount(key) ?? (await reads.loadAccount(key, new Address(item[1])));
      return account === null ? null : [account.nonce, account.balance, account.storageRoot, account.codeHash];
    }
    case 'c': {
      const key = hexKey(item[1]);
      return reads.knownCode(key) ?? reads.loadCode(key, new Address(item[1]));
    }
    case 's': {
      const key = hexKey(item[1]) + hexKey(item[2]);
      return reads.knownSlot(key) ?? reads.loadSlot(key, new Address(item[1]), item[2]);
    }
    case 'h':
      return (await ancestors.getBlock(Number(item[1]))).hash();
  }
}

/** The definition without its allocation's loader: a function cannot cross to a worker, and calls never read it. */
function withoutAlloc(network: NetworkDefinition): Omit<NetworkDefinition, 'genesis'> & { genesis: object } {
  const { loadAlloc: _, ...genesis } = network.genesis;
  return { ...network, genesis };
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
