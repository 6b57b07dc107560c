/**
 * One sender's pooled transactions, keyed by nonce. Transactions whose nonces run contiguously from
 * the account's nonce at the head, each payable from the balance at the head, are *pending* (executable
 * in that order); the rest are *queued* behind a gap or an unpayable transaction. `pendingEnd` is the
 * first nonce missing or unpayable, so `nonce < pendingEnd` ⇔ pending.
 */
import type { Address } from '@ethereumjs/util';
import type { PooledTx } from './pooled-tx.js';

export interface StatusChanges {
  /** Queued → pending because a gap closed. */
  readonly promoted: PooledTx[];
  /** Pending → queued because a transaction before them left. */
  readonly demoted: PooledTx[];
}

export class SenderQueue {
  private readonly byNonce = new Map<bigint, PooledTx>();
  private accountNonceAtHead: bigint;
  private pendingEndNonce: bigint;
  /** The balance at the head (as last read): a transaction costing more waits queued until the balance returns. */
  private balanceAtHead: bigint;
  /** Highest pooled nonce, kept so eviction scans stay O(senders). */
  private tailNonce: bigint | undefined;

  constructor(
    readonly address: Address,
    readonly key: string,
    accountNonce: bigint,
    balance: bigint,
  ) {
    this.balanceAtHead = balance;
    this.accountNonceAtHead = accountNonce;
    this.pendingEndNonce = accountNonce;
  }

  get size(): number {
    return this.byNonce.size;
  }

  get accountNonce(): bigint {
    return this.accountNonceAtHead;
  }

  /** The nonce the sender's next new transaction should carry: account nonce + pending count. */
  get pendingEnd(): bigint {
    return this.pendingEndNonce;
  }

  get pendingCount(): number {
    return Number(this.pendingEndNonce - this.accountNonceAtHead);
  }

  get(nonce: bigint): PooledTx | undefined {
    return this.byNonce.get(nonce);
  }

  isPending(tx: PooledTx): boolean {
    return tx.nonce < this.pendingEndNonce;
  }

  /** Whether the transaction costs more than the sender's balance at the head (it then waits, queued). */
  isUnpayable(tx: PooledTx): boolean {
    return tx.cost > this.balanceAtHead;
  }

  /** The sender's balance at the head, as last read. */
  get balance(): bigint {
    return this.balanceAtHead;
  }

  /** The next pending transaction after `pendingEnd`, if it is there and payable. */
  private nextExecutable(): PooledTx | undefined {
    const next = this.byNonce.get(this.pendingEndNonce);
    return next === undefined || this.isUnpayable(next) ? undefined : next;
  }

  /** Adds or replaces the transaction at `tx.nonce` (the caller validated it). Returns what it replaced. */
  put(tx: PooledTx): { replaced: PooledTx | undefined; promoted: PooledTx[] } {
    const replaced = this.byNonce.get(tx.nonce);
    this.byNonce.set(tx.nonce, tx);
    if (this.tailNonce === undefined || tx.nonce > this.tailNonce) this.tailNonce = tx.nonce;
    const promoted: PooledTx[] = [];
    if (tx.nonce === this.pendingEndNonce && !this.isUnpayable(tx)) {
      this.pendingEndNonce++;
      for (let next = this.nextExecutable(); next !== undefined; next = this.nextExecutable()) {
        promoted.push(next);
        this.pendingEndNonce++;
      }
    }
    return { replaced, promoted };
  }

  /** Removes the transaction at `nonce`; later pending ones drop back to queued. */
  remove(nonce: bigint): { removed: PooledTx | undefined; demoted: PooledTx[] } {
    const removed = this.byNonce.get(nonce);
    if (removed === undefined) return { removed, demoted: [] };
    this.byNonce.delete(nonce);
    if (nonce === this.tailNonce) this.tailNonce = this.highestNonce();
    const demoted: PooledTx[] = [];
    if (nonce < this.pendingEndNonce) {
      for (let n = nonce + 1n; n < this.pendingEndNonce; n++) demoted.push(this.byNonce.get(n)!);
      this.pendingEndNonce = nonce;
    }
    return { removed, demoted };
  }

  /**
   * The head moved: take the account's new nonce and balance. Transactions below the nonce are
   * stale (mined, or another transaction with their nonce was) and leave. Transactions costing more than
   * the balance stay, queued with the ones after them, until the balance covers them again (the pool's
   * lifetime and size limits bound how long): `unpayable` lists them, so the pool can say why they wait.
   */
  rebase(accountNonce: bigint, balance: bigint): StatusChanges & { stale: PooledTx[]; unpayable: PooledTx[] } {
    const wasPending = new Set<PooledTx>(this.pending());
    const stale: PooledTx[] = [];
    const unpayable: PooledTx[] = [];
    for (const [nonce, tx] of this.byNonce) {
      if (nonce < accountNonce) stale.push(tx);
      else if (tx.cost > balance) unpayable.push(tx);
    }
    for (const tx of stale) this.byNonce.delete(tx.nonce);
    this.tailNonce = this.highestNonce();
    this.accountNonceAtHead = accountNonce;
    this.balanceAtHead = balance;
    this.pendingEndNonce = accountNonce;
    while (this.nextExecutable() !== undefined) this.pendingEndNonce++;
    const nowPending = this.pending();
    const promoted = nowPending.filter((tx) => !wasPending.has(tx));
    const pendingSet = new Set(nowPending);
    const demoted = [...wasPending].filter((tx) => this.byNonce.get(tx.nonce) === tx && !pendingSet.has(tx));
    return { stale, unpayable, promoted, demoted };
  }

  /** Executable transactions in nonce order. */
  pending(): PooledTx[] {
    const out: PooledTx[] = [];
    for (let n = this.accountNonceAtHead; n < this.pendingEndNonce; n++) out.push(this.byNonce.get(n)!);
    return out;
  }

  /** Transactions waiting behind a nonce gap, in nonce order. */
  queued(): PooledTx[] {
    const out: PooledTx[] = [];
    for (const tx of this.byNonce.values()) if (tx.nonce >= this.pendingEndNonce) out.push(tx);
    return out.sort((a, b) => (a.nonce < b.nonce ? -1 : 1));
  }

  /** Pending then queued, in nonce order. */
  all(): PooledTx[] {
    return [...this.pending(), ...this.queued()];
  }

  /** The highest-nonce transaction: the only one that can be evicted without opening a gap. */
  tail(): PooledTx | undefined {
    return this.tailNonce === undefined ? undefined : this.byNonce.get(this.tailNonce);
  }

  private highestNonce(): bigint | undefined {
    let highest: bigint | undefined;
    for (const nonce of this.byNonce.keys()) if (highest === undefined || nonce > highest) highest = nonce;
    return highest;
  }

  values(): IterableIterator<PooledTx> {
    return this.byNonce.values();
  }
}
