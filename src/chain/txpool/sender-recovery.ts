/**
 * Transaction sender recovery off the main thread.
 *
 * Recovering a public key (native secp256k1) is the single largest cost of admitting a transaction, and
 * the node's second core is mostly idle while the main thread produces blocks. So the pool hands the
 * signatures to one long-lived worker thread: requests made in the same event-loop turn travel as one
 * message of fixed-size records (sender-recovery-protocol.ts), and the answers are cached on the frozen
 * transactions exactly where `getSenderPublicKey` / `getSenderAddress` look, so nothing recovers again later.
 *
 * Results equal the in-thread path (`recoverSender` in decode.ts) by construction: the worker runs the same
 * `ecrecover`, and every case this file does not encode (odd v, oversized r/s, ...) goes to `recoverSender`
 * itself. The pool never stalls on the worker: until it reports ready, and after it fails to start, dies
 * or is closed, recovery happens in-thread, and requests it held at that moment are recovered in-thread too.
 */
import type { Worker } from 'node:worker_threads';
import { Capability } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { spawnSiblingWorker } from '../workers/spawn.js';
import { seedImpersonatedSender } from '../exec/sender-address.js';
import { type PoolTransaction, assertLowS, recoverSender, unrecoverableSignature } from './decode.js';
import {
  RECOVERED,
  REQUEST_RECORD_BYTES,
  REQUEST_RECOVERY_ID_OFFSET,
  REQUEST_SIGNATURE_OFFSET,
  RESPONSE_ADDRESS_OFFSET,
  RESPONSE_PUBLIC_KEY_OFFSET,
  RESPONSE_RECORD_BYTES,
  type RecoveryRequestMessage,
  type RecoveryResponseMessage,
  type RecoveryWorkerMessage,
} from './sender-recovery-protocol.js';

export interface SenderRecoveryOptions {
  /** Recover on a worker thread (default true); false recovers on the calling thread, with the same results. */
  readonly useWorker?: boolean;
  /**
   * Senders recovered in-thread before the worker is started (default 16). Starting a worker costs
   * ~50 ms of CPU from compiled JS and ~450 ms under tsx (measured); a pool that only ever admits a
   * handful of transactions (most tests, a quiet node) never needs one.
   */
  readonly startWorkerAfter?: number;
  /**
   * Requests gathered in one turn of the event loop go to the worker only when there are at least this many
   * (default 4); fewer are recovered in-thread. One native recovery (~70 µs) costs less than a message round
   * trip to the worker and back, so a lone send (a client sending one transaction at a time) is answered sooner.
   * Above 1, the first request of a turn is recovered in-thread at once and only the rest are gathered.
   */
  readonly minWorkerBatch?: number;
  /** Told once, if the worker cannot start or stops unexpectedly; recovery then carries on in-thread. */
  readonly onWarning?: (message: string) => void;
}

/** How many signatures each path handled (cached senders and failed low-s checks are not counted). */
export interface SenderRecoveryCounts {
  worker: number;
  inThread: number;
  /** Messages sent to the worker (each a batch of up to 128 signatures). */
  messages: number;
}

interface PendingRecovery {
  readonly tx: PoolTransaction;
  readonly resolve: (sender: Address) => void;
  readonly reject: (error: unknown) => void;
}

type WorkerState = 'not-started' | 'starting' | 'ready' | 'unavailable' | 'closed';

/**
 * Records per message: big enough that message overhead is noise next to ~100 µs of recovery per record,
 * small enough that the pool starts admitting the first answers while the worker computes the next ones.
 */
const MAX_RECORDS_PER_MESSAGE = 128;
const DEFAULT_START_WORKER_AFTER = 16;
const DEFAULT_MIN_WORKER_BATCH = 4;
const WORKER_ENTRY = 'sender-recovery-worker';

export class SenderRecovery {
  readonly counts: SenderRecoveryCounts = { worker: 0, inThread: 0, messages: 0 };
  private state: WorkerState;
  private worker: Worker | undefined;
  private readyWaiters: Array<(ready: boolean) => void> = [];
  private queued: PendingRecovery[] = [];
  private flushScheduled = false;
  private readonly inFlight = new Map<number, PendingRecovery[]>();
  private nextMessageId = 0;
  private lastWorkerError: string | undefined;
  private recoveriesBeforeStart = 0;

  constructor(private readonly options: SenderRecoveryOptions = {}) {
    this.state = options.useWorker === false ? 'unavailable' : 'not-started';
  }

  /**
   * The sender of a signed transaction, cached on it (with its public key) when it is frozen. Rejects
   * with the same `TxRejectedError('invalid-signature', …)` as `recoverSender`.
   */
  recover(tx: PoolTransaction): Promise<Address> {
    try {
      assertLowS(tx);
    } catch (error) {
      return Promise.reject(error);
    }
    const cached = (tx.cache as SenderCache).senderAddress;
    if (cached !== undefined) return Promise.resolve(cached);
    if (seedImpersonatedSender(tx)) return Promise.resolve((tx.cache as SenderCache).senderAddress!);
    if (
      this.state === 'not-started' &&
      ++this.recoveriesBeforeStart > (this.options.startWorkerAfter ?? DEFAULT_START_WORKER_AFTER)
    ) {
      this.startWorker();
    }
    if (this.state !== 'ready' && this.state !== 'starting') {
      return new Promise((resolve, reject) => this.recoverInThread({ tx, resolve, reject }));
    }
    return new Promise((resolve, reject) => {
      const request = { tx, resolve, reject };
      const first = !this.flushScheduled;
      if (first) {
        this.flushScheduled = true;
        // setImmediate, not a microtask: it runs after every I/O callback of this loop turn, so all
        // transactions that arrived together share one message, and a starting worker's "ready" message
        // (delivered in the poll phase) is seen before the flush decides where the batch goes.
        setImmediate(() => this.flush());
      }
      // The first request of a turn is recovered at once when a lone one would not go to the worker anyway:
      // waiting for the flush let the I/O and timer callbacks queued before it run first (~0.3 ms per
      // sent-and-mined transfer on the dev chain, measured). Later requests of the same turn still batch.
      if (first && (this.options.minWorkerBatch ?? DEFAULT_MIN_WORKER_BATCH) > 1) this.recoverInThread(request);
      else this.queued.push(request);
    });
  }

  /** Starts the worker if needed; resolves true once it answers requests, false if recovery stays in-thread. */
  whenReady(): Promise<boolean> {
    if (this.state === 'not-started') this.startWorker();
    if (this.state === 'ready') return Promise.resolve(true);
    if (this.state !== 'starting') return Promise.resolve(false);
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Stops the worker. Requests it still held are recovered in-thread; later ones are too. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.setState('closed');
    const worker = this.worker;
    if (worker !== undefined) await worker.terminate();
    // 'exit' normally settles the held requests already; this covers an exit event that never came.
    this.settleStrandedInThread();
  }

  // ---- worker lifecycle ---------------------------------------------------------------------

  private startWorker(): void {
    let worker: Worker;
    try {
      worker = spawnSiblingWorker(import.meta.url, WORKER_ENTRY);
    } catch (error) {
      this.setState('unavailable');
      this.warn(`cannot start the sender-recovery worker (${messageOf(error)}); recovering senders on the main thread`);
      return;
    }
    this.worker = worker;
    this.setState('starting');
    // Idle, the worker must not keep the process alive; it is ref'd only while it holds requests.
    worker.unref();
    worker.on('message', (message: RecoveryWorkerMessage) => this.onMessage(message));
    worker.on('error', (error) => {
      this.lastWorkerError = messageOf(error);
    });
    worker.on('exit', (code) => this.onExit(worker, code));
  }

  private onMessage(message: RecoveryWorkerMessage): void {
    if ('ready' in message) {
      if (this.state === 'starting') this.setState('ready');
      return;
    }
    this.onAnswer(message);
  }

  private onExit(worker: Worker, code: number): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (this.state !== 'closed') {
      const what = this.state === 'starting' ? 'could not start' : 'stopped';
      this.setState('unavailable');
      const why = this.lastWorkerError ?? `exit code ${code}`;
      this.warn(`the sender-recovery worker ${what} (${why}); recovering senders on the main thread`);
    }
    this.settleStrandedInThread();
  }

  private setState(state: WorkerState): void {
    this.state = state;
    if (state === 'starting') return;
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const resolve of waiters) resolve(state === 'ready');
  }

  private warn(message: string): void {
    this.options.onWarning?.(message);
  }

  // ---- requests -----------------------------------------------------------------------------

  private flush(): void {
    this.flushScheduled = false;
    const requests = this.queued;
    this.queued = [];
    const worker =
      this.state === 'ready' && requests.length >= (this.options.minWorkerBatch ?? DEFAULT_MIN_WORKER_BATCH)
        ? this.worker
        : undefined;
    if (worker === undefined) {
      // Still starting (recovering here beats waiting for it), gone, or too few to be worth a message.
      for (const request of requests) this.recoverInThread(request);
      return;
    }
    for (let start = 0; start < requests.length; start += MAX_RECORDS_PER_MESSAGE) {
      this.send(worker, requests.slice(start, start + MAX_RECORDS_PER_MESSAGE));
    }
  }

  private send(worker: Worker, requests: readonly PendingRecovery[]): void {
    const records = new Uint8Array(requests.length * REQUEST_RECORD_BYTES);
    const sent: PendingRecovery[] = [];
    for (const request of requests) {
      if (writeRequestRecord(request.tx, records, sent.length * REQUEST_RECORD_BYTES)) sent.push(request);
      else this.recoverInThread(request);
    }
    if (sent.length === 0) return;
    const id = this.nextMessageId++;
    this.counts.messages++;
    if (this.inFlight.size === 0) worker.ref();
    this.inFlight.set(id, sent);
    const message: RecoveryRequestMessage = { id, count: sent.length, records: records.buffer };
    worker.postMessage(message, [records.buffer]);
  }

  private onAnswer({ id, records }: RecoveryResponseMessage): void {
    const requests = this.inFlight.get(id);
    if (requests === undefined) return;
    this.inFlight.delete(id);
    if (this.inFlight.size === 0) this.worker?.unref();
    const answers = new Uint8Array(records);
    requests.forEach((request, i) => {
      const at = i * RESPONSE_RECORD_BYTES;
      this.counts.worker++;
      if (answers[at] !== RECOVERED) {
        request.reject(unrecoverableSignature());
        return;
      }
      const publicKey = answers.subarray(at + RESPONSE_PUBLIC_KEY_OFFSET, at + RESPONSE_PUBLIC_KEY_OFFSET + 64);
      const sender = new Address(answers.subarray(at + RESPONSE_ADDRESS_OFFSET, at + RESPONSE_ADDRESS_OFFSET + 20));
      rememberSender(request.tx, publicKey, sender);
      request.resolve(sender);
    });
  }

  private settleStrandedInThread(): void {
    const stranded = [...this.inFlight.values()].flat();
    this.inFlight.clear();
    for (const request of stranded) this.recoverInThread(request);
  }

  private recoverInThread({ tx, resolve, reject }: PendingRecovery): void {
    this.counts.inThread++;
    let sender: Address;
    try {
      sender = recoverSender(tx);
    } catch (error) {
      reject(error);
      return;
    }
    resolve(sender);
  }
}

type SenderCache = { senderAddress?: Address; senderPubKey?: Uint8Array };

/** Where @ethereumjs (public key) and exec/sender-address.ts (address) look first; only frozen txs cache, as there. */
function rememberSender(tx: PoolTransaction, publicKey: Uint8Array, sender: Address): void {
  if (!Object.isFrozen(tx)) return;
  const cache = tx.cache as SenderCache;
  cache.senderPubKey ??= publicKey;
  cache.senderAddress ??= sender;
}

const UINT256_LIMIT = 1n << 256n;
const UINT64_MASK = (1n << 64n) - 1n;

/**
 * Encodes what the worker needs; false for anything unusual (the caller then recovers in-thread, which
 * produces the exact error the in-thread path would).
 */
function writeRequestRecord(tx: PoolTransaction, out: Uint8Array, at: number): boolean {
  const { v, r, s } = tx;
  if (v === undefined || r === undefined || s === undefined || r >= UINT256_LIMIT || s >= UINT256_LIMIT) return false;
  const recoveryId = recoveryIdOf(tx, v);
  if (recoveryId === undefined) return false;
  let msgHash: Uint8Array;
  try {
    msgHash = tx.getMessageToVerifySignature();
  } catch {
    return false;
  }
  out.set(msgHash, at);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  writeUint256(view, at + REQUEST_SIGNATURE_OFFSET, r);
  writeUint256(view, at + REQUEST_SIGNATURE_OFFSET + 32, s);
  out[at + REQUEST_RECOVERY_ID_OFFSET] = recoveryId;
  return true;
}

/**
 * The recovery id @ethereumjs + crypto.ts `ecrecover` derive from v: the library passes the chain id only
 * to EIP-155-protected legacy transactions; then 0/1 (typed) as is, 27/28 minus 27, EIP-155 minus chainId*2+35.
 */
export function recoveryIdOf(tx: PoolTransaction, v: bigint): 0 | 1 | undefined {
  const chainId = tx.supports(Capability.EIP155ReplayProtection) ? tx.common.chainId() : undefined;
  let id: bigint;
  if (v === 0n || v === 1n) id = v;
  else if (chainId === undefined) id = v - 27n;
  else id = v - (chainId * 2n + 35n);
  if (id === 0n) return 0;
  if (id === 1n) return 1;
  return undefined;
}

const LIMB_SHIFTS = [192n, 128n, 64n, 0n] as const;

/** Big-endian, as secp256k1 reads r and s. */
function writeUint256(view: DataView, at: number, value: bigint): void {
  LIMB_SHIFTS.forEach((shift, limb) => {
    view.setBigUint64(at + limb * 8, (value >> shift) & UINT64_MASK);
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
