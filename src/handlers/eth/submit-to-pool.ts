/** Hands a signed transaction to the pool; the pool's rejection reasons become JSON-RPC errors. */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { ChainEngine } from '../../chain/engine.js';
import { isTxRejectedError, type TxDroppedEvent } from '../../chain/txpool/index.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes } from '../hex.js';

/** The longest a send waits for its dev block before answering anyway. */
const AUTOMINE_WAIT_MS = 10_000;

/**
 * Returns the transaction hash. Bytes that are no transaction: -32602; every other refusal: -32003 with the
 * pool's reason. On dev with the miner running (automine), answers once the transaction has left the pool
 * (normally: its block is the head), as Hardhat and Anvil do: a client that polls for the receipt right
 * after the send, or waits for the next block number, must not race the sealing (ethers' `tx.wait()` would
 * otherwise wait forever for a block that automine never seals).
 */
export async function submitToPool(
  engine: ChainEngine,
  tx: Uint8Array | TypedTransaction,
  afterBatch?: HandlerContext['afterBatch'],
): Promise<`0x${string}`> {
  const settled = automines(engine) ? leavesPool(engine) : undefined;
  let added: { hash: Uint8Array; status: string };
  try {
    added = await engine.pool.add(tx);
  } catch (error) {
    settled?.cancel();
    if (isTxRejectedError(error)) {
      throw new RpcError(error.reason === 'undecodable' ? ErrorCode.InvalidParams : ErrorCode.TransactionRejected, error.message);
    }
    throw error;
  }
  const hashHex = hexFromBytes(added.hash);
  if (settled === undefined) return hashHex;
  if (added.status !== 'pending') {
    settled.cancel();
    return hashHex;
  }
  // In a batch the wait moves to the end of the batch (see HandlerContext.afterBatch).
  const waited = settled.wait(hashHex).finally(() => settled.cancel());
  if (afterBatch !== undefined) afterBatch(waited);
  else await waited;
  return hashHex;
}

const automines = (engine: ChainEngine): boolean => engine.miner.isRunning && engine.miner.policy === 'dev';

/**
 * Hashes leaving the pool, watched with ONE pool listener per engine however many sends wait (a burst of
 * concurrent sends must not add a listener each). A send registers before its add, since the dev miner
 * may seal in the same turn of the event loop as the add; drops seen before `wait` are remembered.
 */
class PoolExitWatch {
  /** Sends waiting for a hash to leave the pool. */
  readonly #watched = new Map<string, Set<Watcher>>();
  /** Sends between register and wait: their hash is not known yet, so they record every drop. */
  readonly #pending = new Set<Watcher>();

  constructor(engine: ChainEngine) {
    engine.pool.on('tx:dropped', (event: TxDroppedEvent) => {
      for (const watcher of this.#pending) watcher.saw(event.tx.hashHex);
      const watchers = this.#watched.get(event.tx.hashHex);
      if (watchers !== undefined) for (const watcher of watchers) watcher.done();
    });
  }
  register(): Watcher {
    const watcher = new Watcher(this);
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
  constructor(private readonly watch: PoolExitWatch) {}

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
      this.#timer = setTimeout(resolve, AUTOMINE_WAIT_MS);
    });
  }

  cancel(): void {
    clearTimeout(this.#timer);
    this.watch.forget(this, this.#hash);
  }
}

const watches = new WeakMap<ChainEngine, PoolExitWatch>();

function leavesPool(engine: ChainEngine): Watcher {
  let watch = watches.get(engine);
  if (watch === undefined) watches.set(engine, (watch = new PoolExitWatch(engine)));
  return watch.register();
}
