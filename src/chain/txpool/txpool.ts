/**
 * The transaction pool: validates incoming transactions against the head state, keeps each sender's transactions in
 * nonce order split into pending (executable now) and queued (behind a nonce gap), enforces size limits by evicting
 * the cheapest, and follows the chain as blocks arrive or reorganise.
 *
 * Concurrency: `add` awaits its sender's recovery (on a worker thread, see sender-recovery.ts), a head's refresh under
 * way (it runs after a send's answer: `onBlockAdded`) and one account read; all after that read is synchronous, so two
 * adds never interleave their checks. If the head moved during the read, it is repeated (never a stale nonce or
 * balance). Checks made before the awaits that depend on the pool (already known) are made again at insertion.
 */
import { EventEmitter } from 'node:events';
import type { TypedTransaction } from '@ethereumjs/tx';
import { type Address, bytesToHex } from '@ethereumjs/util';
import { AddsInFlight } from './adds-in-flight.js';
import { type Candidate, TxAdmission, alreadyKnown } from './admission.js';
import { type PoolAccount, type PoolChainView, isPending } from './chain-view.js';
import { TxRejectedError } from './errors.js';
import type { TxDropReason, TxPoolEvents } from './events.js';
import { evictedDetail, expiredDetail, staleDetail } from './drop-details.js';
import { evictionVictim } from './eviction.js';
import { ExecutableTxCursor } from './executable-cursor.js';
import { type ResolvedPoolOptions, type TxPoolOptions, resolvePoolOptions } from './options.js';
import { type PoolTxStatus, type PooledTx, hashKey, senderOf } from './pooled-tx.js';
import { type DroppedTxRecord, RecentDrops } from './recent-drops.js';
import { SenderQueue } from './sender-queue.js';
import { SenderRecovery, type SenderRecoveryCounts } from './sender-recovery.js';
import { WaitingNotes } from './waiting-notes.js';
import { afterPromiseJobs } from './after-promise-jobs.js';

export interface AddTxResult {
  readonly hash: Uint8Array;
  readonly status: PoolTxStatus;
  /** Hash of the transaction this one replaced. */
  readonly replaced?: Uint8Array;
}

export interface ReorgResult {
  /** Transactions of dropped blocks that are back in the pool. */
  readonly reinjected: PooledTx[];
  /** Transactions of dropped blocks that no longer validate (e.g. nonce too low on the new chain). */
  readonly rejected: Array<{ readonly hash: Uint8Array; readonly error: TxRejectedError }>;
}

/** Head changes seen while an add waits for its account read before it gives up re-reading. */
const MAX_ACCOUNT_REREADS = 3;
/** Expired queued transactions are swept at most this often during adds. */
const EXPIRY_SWEEP_INTERVAL_MS = 1000;

export class TxPool extends EventEmitter<TxPoolEvents> {
  private readonly options: ResolvedPoolOptions;
  private readonly byHash = new Map<string, PooledTx>();
  private readonly senders = new Map<string, SenderQueue>();
  private nextSeq = 0;
  /** Bumped on every head change; an add whose account read straddles a bump reads again. */
  private headEpoch = 0;
  private lastExpirySweep = 0;
  private readonly senderRecovery: SenderRecovery;
  private readonly admission: TxAdmission;
  private readonly adds = new AddsInFlight();
  /** Why transactions wait: left out of the last block built on the head, or unpayable at the head. */
  private readonly waiting = new WaitingNotes();
  /** The last drops other than by mining, with their reasons (svc_getDroppedTransaction). */
  private readonly recentDrops = new RecentDrops();

  constructor(
    private readonly chain: PoolChainView,
    options: TxPoolOptions = {},
  ) {
    super();
    this.options = resolvePoolOptions(options);
    this.senderRecovery = new SenderRecovery(this.options.senderRecovery);
    this.admission = new TxAdmission(chain, this.options, this.senderRecovery);
  }

  /** The dev chain's anvil_setMinGasPrice: the price floor of transactions admitted from now on. */
  setMinGasPrice(price: bigint): void {
    if (price < 0n) throw new RangeError('txpool minGasPrice must not be negative');
    this.options.minGasPrice = price;
  }

  /** The price floor of admission: a transaction priced below it is refused. */
  get minGasPrice(): bigint {
    return this.options.minGasPrice;
  }

  /** Stops the sender-recovery worker. The pool stays usable (it then recovers senders in-thread). */
  async close(): Promise<void> {
    await this.senderRecovery.close();
  }

  /** How many senders were recovered on the worker and in-thread (diagnostics, tests). */
  get senderRecoveryCounts(): Readonly<SenderRecoveryCounts> {
    return { ...this.senderRecovery.counts };
  }

  // ---- adding -------------------------------------------------------------------------------

  /**
   * Validates and pools a signed transaction (raw bytes as sent to `eth_sendRawTransaction`, or a transaction object,
   * re-encoded and checked alike). Rejects with a `TxRejectedError` naming the reason.
   */
  async add(input: Uint8Array | TypedTransaction): Promise<AddTxResult> {
    this.adds.begin();
    try {
      const raw = input instanceof Uint8Array ? input : input.serialize();
      const candidate = await this.admission.checkStatic(raw, (hashHex) => this.byHash.has(hashHex));
      for (let reads = 0; ; reads++) {
        if (this.blockAdded !== undefined) await this.blockAdded.done.catch(() => undefined);
        const epoch = this.headEpoch;
        const read = this.chain.account(candidate.sender);
        // Answered at once (the head's kept state), no turn is given up and the head cannot have moved.
        const account = isPending(read) ? await read : read;
        if (epoch !== this.headEpoch && reads < MAX_ACCOUNT_REREADS) continue;
        return this.insert(candidate, account);
      }
    } finally {
      this.adds.end();
    }
  }

  /**
   * Resolves once no add is under way (waiting for its sender recovery or account read), or after `maxWaitMs`: the
   * dev miner waits for a burst of sends to land so that they share a block.
   */
  whenAddsSettled(maxWaitMs: number): Promise<void> {
    return this.adds.settled(maxWaitMs);
  }

  /** Checks against the sender's account and the pool, then stores. Synchronous: nothing interleaves. */
  private insert(candidate: Candidate, account: PoolAccount): AddTxResult {
    const { tx, senderHex } = candidate;
    if (this.byHash.has(candidate.hashHex)) throw alreadyKnown(candidate.hashHex);
    this.admission.checkAccount(candidate, account);

    let queue = this.senders.get(senderHex);
    if (queue !== undefined && (queue.accountNonce !== account.nonce || queue.balance !== account.balance))
      this.rebaseQueue(queue, account);
    queue = this.senders.get(senderHex);

    const existing = queue?.get(tx.nonce);
    if (existing !== undefined) this.admission.checkReplacement(candidate, existing);
    else {
      if (queue !== undefined) this.admission.checkSenderLimit(candidate, queue.size);
      if (this.byHash.size >= this.options.maxSize) {
        this.makeRoomFor(candidate);
        // Expiry or eviction may have emptied (and so removed) this sender's queue.
        queue = this.senders.get(senderHex);
      }
    }

    if (queue === undefined) {
      queue = new SenderQueue(candidate.sender, senderHex, account.nonce, account.balance);
      this.senders.set(senderHex, queue);
    }
    const pooled: PooledTx = {
      tx,
      hash: candidate.hash,
      hashHex: candidate.hashHex,
      raw: candidate.raw,
      sender: candidate.sender,
      senderHex,
      nonce: tx.nonce,
      gasPrice: tx.gasPrice,
      gasLimit: tx.gasLimit,
      cost: candidate.cost,
      addedAt: this.options.now(),
      seq: this.nextSeq++,
    };
    const { replaced, promoted } = queue.put(pooled);
    this.byHash.set(pooled.hashHex, pooled);
    this.recentDrops.forget(pooled.hashHex);
    if (replaced !== undefined) {
      this.byHash.delete(replaced.hashHex);
      this.dropped(replaced, 'replaced', `replaced by ${pooled.hashHex}, which pays a higher gas price`);
    }
    const status: PoolTxStatus = queue.isPending(pooled) ? 'pending' : 'queued';
    this.emit('tx:added', replaced === undefined ? { tx: pooled, status } : { tx: pooled, status, replaced });
    for (const tx of promoted) this.emit('tx:promoted', tx);
    this.maybeSweepExpired();
    return replaced === undefined
      ? { hash: pooled.hash, status }
      : { hash: pooled.hash, status, replaced: replaced.hash };
  }

  /**
   * The pool is full: evict the cheapest sender tail (a highest-nonce transaction, so no sender is
   * left with a gap), provided the newcomer pays strictly more. Expired queued transactions go first.
   */
  private makeRoomFor(candidate: Candidate): void {
    this.pruneExpired();
    if (this.byHash.size < this.options.maxSize) return;
    const victim = evictionVictim(candidate, this.senders.values(), this.byHash.size, this.options.maxSize);
    const newcomer = { hashHex: candidate.hashHex, gasPrice: candidate.tx.gasPrice };
    this.removeTx(victim, 'evicted', evictedDetail(victim, newcomer, this.options.maxSize));
  }

  // ---- reading ------------------------------------------------------------------------------

  /** Number of pooled transactions (pending + queued). */
  get size(): number {
    return this.byHash.size;
  }

  get pendingCount(): number {
    let count = 0;
    for (const queue of this.senders.values()) count += queue.pendingCount;
    return count;
  }

  get queuedCount(): number {
    return this.byHash.size - this.pendingCount;
  }

  /** A pooled transaction by hash (bytes, or 0x hex in any case). */
  get(hash: Uint8Array | string): PooledTx | undefined {
    return this.byHash.get(hashKey(hash));
  }

  has(hash: Uint8Array | string): boolean {
    return this.byHash.has(hashKey(hash));
  }

  statusOf(hash: Uint8Array | string): PoolTxStatus | undefined {
    const tx = this.get(hash);
    return tx === undefined ? undefined : this.senders.get(tx.senderHex)!.isPending(tx) ? 'pending' : 'queued';
  }

  /** Every pooled transaction, sender by sender, each sender's in nonce order. */
  all(): PooledTx[] {
    return [...this.senders.values()].flatMap((queue) => queue.all());
  }

  /** Executable transactions, sender by sender in nonce order. */
  pending(): PooledTx[] {
    return [...this.senders.values()].flatMap((queue) => queue.pending());
  }

  /** Transactions waiting behind a nonce gap. */
  queued(): PooledTx[] {
    return [...this.senders.values()].flatMap((queue) => queue.queued());
  }

  /** Executable transactions per sender (0x lowercase address → nonce-ordered list, starting at the account nonce). */
  pendingBySender(): Map<string, PooledTx[]> {
    const out = new Map<string, PooledTx[]>();
    for (const [key, queue] of this.senders) {
      if (queue.pendingCount > 0) out.set(key, queue.pending());
    }
    return out;
  }

  /** A cursor over the executable transactions in price-then-nonce order (or arrival order), for block assembly. */
  executable(): ExecutableTxCursor {
    return new ExecutableTxCursor(this.pendingBySender().values(), this.options.order);
  }

  /**
   * The nonce a new transaction from `address` should use if the pool is counted (account nonce at the
   * head + its contiguous pending transactions); undefined if the pool holds nothing from it.
   */
  pendingNonce(address: Address | string): bigint | undefined {
    const key = typeof address === 'string' ? address.toLowerCase() : address.toString();
    return this.senders.get(key)?.pendingEnd;
  }

  // ---- why a transaction waits ----------------------------------------------------------------

  /**
   * The miner left this pending transaction out of a block it built on the head (`reason`, e.g. the execution
   * error): it stays in the pool, and txpool_content / txpool_inspect show the reason, until a block takes it or it
   * leaves the pool the ordinary ways (replaced, mined elsewhere, anvil_dropTransaction). A transaction the node
   * acknowledged is mined, waits visibly, or was refused at submission: it is never dropped unseen. `stuckAt`: the
   * new head's hash when the transaction cannot go into the next block either as things stand (so bulk empty
   * blocks need not try it); undefined when it only did not fit.
   */
  noteWaiting(hash: Uint8Array, reason: string, stuckAt?: string): void {
    const pooled = this.get(hash);
    if (pooled === undefined) return;
    this.waiting.noteLeftOut(pooled.hashHex, reason, stuckAt);
    this.emit('tx:waiting', { tx: pooled, reason, stuck: stuckAt !== undefined });
  }

  /**
   * Why a pooled transaction waits: left out of the last block built on the head, or its sender cannot pay for it
   * at the head; undefined if neither.
   */
  waitingReason(hash: Uint8Array | string): string | undefined {
    return this.waiting.reasonOf(hashKey(hash));
  }

  /** Why the pool let a transaction go, if it did so lately (the last 1,024 drops; mined ones are not kept). */
  droppedRecord(hash: Uint8Array | string): DroppedTxRecord | undefined {
    return this.recentDrops.get(hashKey(hash));
  }

  /** Pending transactions a block on `headHex` may take: all but those noted stuck after that very head. */
  includableCount(headHex: string): number {
    let stuck = 0;
    for (const hashHex of this.waiting.stuckAfter(headHex)) if (this.statusOf(hashHex) === 'pending') stuck++;
    return this.pendingCount - stuck;
  }

  // ---- removing and following the chain -------------------------------------------------------

  /** Drops a transaction (e.g. the miner could not execute it). Later ones of its sender become queued. */
  remove(hash: Uint8Array | string, reason: TxDropReason = 'removed', detail?: string): boolean {
    const tx = this.get(hash);
    if (tx === undefined) return false;
    this.removeTx(tx, reason, detail ?? `${reason}: taken out of the pool`);
    return true;
  }

  /**
   * Removes queued transactions that waited longer than `queuedLifetimeMs` (since they arrived, or since their
   * sender could no longer pay for them, whichever is later); returns how many.
   */
  pruneExpired(): number {
    const deadline = this.options.now() - this.options.queuedLifetimeMs;
    this.lastExpirySweep = this.options.now();
    let removed = 0;
    for (const queue of [...this.senders.values()]) {
      for (const tx of queue.queued()) {
        const unpayableSince = this.waiting.unpayableSince(tx.hashHex);
        if (Math.max(tx.addedAt, unpayableSince ?? 0) > deadline) continue;
        const why = this.waiting.reasonOf(tx.hashHex) ?? `waiting for nonce ${queue.pendingEnd} first`;
        this.removeTx(tx, 'expired', expiredDetail(this.options.queuedLifetimeMs, why));
        removed++;
      }
    }
    return removed;
  }

  /**
   * A block became the new canonical head (its parent was the previous head). Its transactions leave the pool as
   * `mined`; their senders are read again at the new head, which drops what took a mined nonce and promotes the rest.
   */
  onBlockAdded(minedTxs: Iterable<TypedTransaction>): Promise<void> {
    // The engine (on `newHead`) and the miner (after its import) both report a block, with the same transaction
    // list: while the first refresh is under way and the head has not moved again, the second call waits for it.
    const inFlight = this.blockAdded;
    if (inFlight !== undefined && inFlight.txs === minedTxs && inFlight.epoch === this.headEpoch) return inFlight.done;
    const done = this.refreshAfterBlock(minedTxs);
    const entry = { txs: minedTxs, epoch: this.headEpoch, done };
    this.blockAdded = entry;
    const forget = () => {
      if (this.blockAdded === entry) this.blockAdded = undefined;
    };
    done.then(forget, forget);
    return done;
  }

  /** An empty head on an empty pool: `onBlockAdded`'s whole effect (no sender to read, nothing to expire), or false. */
  noteEmptyHead(): boolean {
    if (this.byHash.size > 0) return false;
    this.headEpoch++;
    this.lastExpirySweep = this.options.now();
    return true;
  }

  private blockAdded:
    | { readonly txs: Iterable<TypedTransaction>; readonly epoch: number; readonly done: Promise<void> }
    | undefined;

  private async refreshAfterBlock(minedTxs: Iterable<TypedTransaction>): Promise<void> {
    this.headEpoch++;
    // Once the promise jobs under way have run (a send's answer: PoolSettle.onHead); `add` waits for the refresh.
    await afterPromiseJobs();
    const minedHashes = new Set<string>();
    const touched = new Set<string>();
    for (const tx of minedTxs) {
      const hashHex = bytesToHex(tx.hash());
      minedHashes.add(hashHex);
      const pooled = this.byHash.get(hashHex);
      if (pooled !== undefined) touched.add(pooled.senderHex);
      else {
        const sender = senderOf(tx);
        if (sender !== undefined && this.senders.has(sender)) touched.add(sender);
      }
    }
    // A sender short of funds may have been paid in this block (by a transfer, a contract or the block reward):
    // its waiting transactions are checked again at each head. The pool's size bounds how many reads that is.
    for (const hashHex of this.waiting.unpayable()) {
      const pooled = this.byHash.get(hashHex);
      if (pooled !== undefined) touched.add(pooled.senderHex);
    }
    // An empty block with nothing waiting on a balance (a bulk run's blocks) has no sender to read again.
    if (touched.size > 0 || minedHashes.size > 0) await this.refreshSenders(touched, minedHashes);
    this.pruneExpired();
  }

  /**
   * The canonical chain switched branches. `droppedTxs` are the transactions of the blocks that left
   * the canonical chain, `addedTxs` those of the blocks that joined it (both in block order). Added
   * ones leave the pool as mined; every sender is re-read at the new head; dropped ones that are not
   * on the new branch are validated again and re-enter the pool.
   */
  async onReorg(droppedTxs: Iterable<TypedTransaction>, addedTxs: Iterable<TypedTransaction>): Promise<ReorgResult> {
    this.headEpoch++;
    // The state changed under the head (a dev state edit) or the head moved: what was stuck is tried again.
    this.waiting.unstickAll();
    const minedHashes = new Set<string>();
    for (const tx of addedTxs) minedHashes.add(bytesToHex(tx.hash()));
    await this.refreshSenders(new Set(this.senders.keys()), minedHashes);

    const reinjected: PooledTx[] = [];
    const rejected: Array<{ hash: Uint8Array; error: TxRejectedError }> = [];
    for (const tx of droppedTxs) {
      const hash = tx.hash();
      if (minedHashes.has(bytesToHex(hash)) || this.has(hash)) continue;
      try {
        await this.add(tx);
        reinjected.push(this.get(hash)!);
      } catch (error) {
        if (!(error instanceof TxRejectedError)) throw error;
        rejected.push({ hash, error });
      }
    }
    this.pruneExpired();
    return { reinjected, rejected };
  }

  /** Empties the pool (e.g. `test_rewindToBlock`). */
  clear(): void {
    const all = this.all();
    this.byHash.clear();
    this.senders.clear();
    for (const tx of all) this.dropped(tx, 'cleared', 'cleared: the pool was emptied (the chain was reset)');
    this.waiting.clear();
  }

  // ---- internals ----------------------------------------------------------------------------

  private async refreshSenders(keys: ReadonlySet<string>, minedHashes: ReadonlySet<string>): Promise<void> {
    const queues = [...keys]
      .map((key) => this.senders.get(key))
      .filter((queue): queue is SenderQueue => queue !== undefined);
    const reads = queues.map((queue) => this.chain.account(queue.address));
    const accounts = reads.some(isPending) ? await Promise.all(reads) : (reads as PoolAccount[]);
    queues.forEach((queue, i) => {
      // A queue emptied and re-created during the reads was built from a fresh account already.
      if (this.senders.get(queue.key) === queue) this.rebaseQueue(queue, accounts[i], minedHashes);
    });
    // A mined transaction still here had a sender whose nonce did not move; it is in a block all the same.
    for (const hashHex of minedHashes) {
      const pooled = this.byHash.get(hashHex);
      if (pooled !== undefined) this.removeTx(pooled, 'mined', 'mined');
    }
  }

  private rebaseQueue(queue: SenderQueue, account: PoolAccount, minedHashes?: ReadonlySet<string>): void {
    const { stale, unpayable, promoted } = queue.rebase(account.nonce, account.balance);
    for (const tx of stale) {
      this.byHash.delete(tx.hashHex);
      if (minedHashes?.has(tx.hashHex)) this.dropped(tx, 'mined', 'mined');
      else this.dropped(tx, 'stale', staleDetail(tx, account.nonce));
    }
    this.noteUnpayable(queue, unpayable, account.balance);
    if (queue.size === 0) this.senders.delete(queue.key);
    for (const tx of promoted) this.emit('tx:promoted', tx);
  }

  /**
   * The sender cannot pay for `unpayable` at the head: they stay, queued with the ones after them, with the reason
   * (txpool_content, txpool_inspect), and go pending once the balance covers them again. Geth drops them; a
   * transaction the node acknowledged is never dropped unseen, and the queued lifetime still bounds the wait.
   */
  private noteUnpayable(queue: SenderQueue, unpayable: readonly PooledTx[], balance: bigint): void {
    const changed = this.waiting.noteBalance(queue.values(), new Set(unpayable), balance, this.options.now());
    for (const { tx, reason } of changed) this.emit('tx:waiting', { tx, reason, stuck: true });
  }

  private removeTx(tx: PooledTx, reason: TxDropReason, detail: string): void {
    const queue = this.senders.get(tx.senderHex);
    if (queue === undefined) return;
    queue.remove(tx.nonce);
    if (queue.size === 0) this.senders.delete(queue.key);
    this.byHash.delete(tx.hashHex);
    this.dropped(tx, reason, detail);
  }

  /** Tells the listeners a transaction left (already out of the pool's maps) and remembers why, unless mined. */
  private dropped(tx: PooledTx, reason: TxDropReason, detail: string): void {
    this.waiting.delete(tx.hashHex);
    if (reason !== 'mined') this.recentDrops.record(tx, reason, detail, this.options.now());
    this.emit('tx:dropped', { tx, reason, detail });
  }

  private maybeSweepExpired(): void {
    if (this.options.now() - this.lastExpirySweep >= EXPIRY_SWEEP_INTERVAL_MS) this.pruneExpired();
  }
}
