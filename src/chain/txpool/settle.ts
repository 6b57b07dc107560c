/**
 * The dev chain's answer to a send: with the miner automining, a send answers once its block is the head (or it left
 * the pool otherwise: replaced, dropped, left out as stuck), as Hardhat and Anvil do. A client that polls for the
 * receipt right after the send, or waits for the next block number, must not race the sealing (ethers' `tx.wait()`
 * would otherwise wait forever for a block that automine never seals). The engine owns one `PoolSettle` and decides
 * when it applies, and tells it of each head (`onHead`): the answer is written before the pool's refresh for that
 * block, which runs right after it, before any request read later (TxPool.onBlockAdded; in process, callers that
 * read the pool after `settled` await `ChainEngine.poolInStep()` first).
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import type { TxDroppedEvent, TxWaitingEvent } from './events.js';
import type { AddTxResult, TxPool } from './txpool.js';

/** The longest a send waits for its dev block before answering anyway. */
export const SETTLE_WAIT_MS = 10_000;

export interface SubmitResult extends AddTxResult {
  /**
   * Only when the send waits for its block (automine, the transaction pending): resolves once it left the pool,
   * or after `SETTLE_WAIT_MS`. Never rejects.
   */
  readonly settled?: Promise<void>;
}

export class PoolSettle {
  #watch: PoolExitWatch | undefined;

  constructor(
    private readonly pool: Pick<TxPool, 'add' | 'on'>,
    private readonly waitMs = SETTLE_WAIT_MS,
  ) {}

  /**
   * Adds to the pool; with `automine`, a pending transaction comes back with `settled`. The watch starts before
   * the add, since the dev miner may seal in the same turn of the event loop as the add. Rejections are the pool's.
   */
  async submit(tx: Uint8Array | TypedTransaction, automine: boolean): Promise<SubmitResult> {
    const watcher = automine ? this.watch().register(this.waitMs) : undefined;
    let added: AddTxResult;
    try {
      added = await this.pool.add(tx);
    } catch (error) {
      watcher?.cancel();
      throw error;
    }
    if (watcher === undefined) return added;
    if (added.status !== 'pending') {
      watcher.cancel();
      return added;
    }
    return { ...added, settled: watcher.wait(bytesToHex(added.hash)).finally(() => watcher.cancel()) };
  }

  /**
   * A block holding `transactions` became the head: their sends answer now, before the pool's refresh (which runs
   * once the promise jobs under way, the answers among them, have run: TxPool.onBlockAdded).
   */
  onHead(transactions: readonly TypedTransaction[]): void {
    if (this.#watch?.idle === false) for (const tx of transactions) this.#watch.left(bytesToHex(tx.hash()));
  }

  /** Made on the first automined send: a node that never automines adds no pool listener. */
  private watch(): PoolExitWatch {
    this.#watch ??= new PoolExitWatch(this.pool);
    return this.#watch;
  }
}

/**
 * Hashes leaving the pool, watched with ONE pool listener however many sends wait (a burst of concurrent sends
 * must not add a listener each). Drops seen between a send's register and its wait are remembered. A transaction
 * the block left out as stuck (`tx:waiting`, stuck) ends the wait too: it stays in the pool with its reason, and no
 * block is coming for it.
 */
class PoolExitWatch {
  /** Sends waiting for a hash to leave the pool. */
  readonly #watched = new Map<string, Set<Watcher>>();
  /** Sends between register and wait: their hash is not known yet, so they record every drop. */
  readonly #pending = new Set<Watcher>();

  constructor(pool: Pick<TxPool, 'on'>) {
    pool.on('tx:dropped', (event: TxDroppedEvent) => this.left(event.tx.hashHex));
    pool.on('tx:waiting', (event: TxWaitingEvent) => {
      if (event.stuck) this.left(event.tx.hashHex);
    });
  }

  /** No send waits. */
  get idle(): boolean {
    return this.#watched.size === 0 && this.#pending.size === 0;
  }

  /** The transaction of `hashHex` is in the head's block, or left the pool: its sends answer. */
  left(hashHex: string): void {
    for (const watcher of this.#pending) watcher.saw(hashHex);
    const watchers = this.#watched.get(hashHex);
    if (watchers !== undefined) for (const watcher of watchers) watcher.done();
  }

  register(waitMs: number): Watcher {
    const watcher = new Watcher(this, waitMs);
    this.#pending.add(watcher);
    return watcher;
  }

  follow(watcher: Watcher, hashHex: string): void {
    this.#pending.delete(watcher);
    let set = this.#watched.get(hashHex);
    if (set === undefined) this.#watched.set(hashHex, (set = new Set()));
    set.add(watcher);
  }

  forget(watcher: Watcher, hashHex: string | undefined): void {
    this.#pending.delete(watcher);
    if (hashHex === undefined) return;
    const set = this.#watched.get(hashHex);
    set?.delete(watcher);
    if (set?.size === 0) this.#watched.delete(hashHex);
  }
}

class Watcher {
  readonly #seen = new Set<string>();
  #hash: string | undefined;
  #resolve: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly watch: PoolExitWatch,
    private readonly waitMs: number,
  ) {}

  saw(hashHex: string): void {
    this.#seen.add(hashHex);
  }

  done(): void {
    this.#resolve?.();
  }

  wait(hashHex: string): Promise<void> {
    this.#hash = hashHex;
    if (this.#seen.has(hashHex)) return Promise.resolve();
    this.watch.follow(this, hashHex);
    return new Promise<void>((resolve) => {
      this.#resolve = resolve;
      this.#timer = setTimeout(resolve, this.waitMs);
    });
  }

  cancel(): void {
    clearTimeout(this.#timer);
    this.watch.forget(this, this.#hash);
  }
}
