/**
 * The node's miner. Three ways a block gets sealed, all through the same assemble → seal → import → tell the
 * pool path, one block at a time (a production lock keeps two paths from building competing blocks):
 *
 * - the internal CPU miner (`start`/`stop`). Policy `continuous` (mordor, etc): mine back to back on the head,
 *   restarting when the head moves or when transactions arrive while the template is empty. Policy `dev`:
 *   seal as soon as transactions are pending (all of them that fit, in one block) and otherwise every
 *   `blockTimeSeconds` (0 = no empty blocks);
 * - `mineBlocks(n)` on demand (qa_mineBlocks, test_mineBlocks), running or not. Empty blocks on the head (nothing
 *   pending, or `withTransactions: false`) go in bulk through `Blockchain.extendHead`: the same assembly, seal and
 *   header checks, stored a chunk of blocks per database batch;
 * - external miners: `getWork` hands out a prepared template's pow hash, `submitWork` seals and imports it.
 *
 * Every PoW seal is a real Ethash solution found or checked by the pow module. With consensus `instant` (the dev
 * chain's default, seal-mode.ts) blocks are sealed with no hashing at all, nonce and mixHash zero, on the dev policy
 * and by `mineBlocks`; only the external-miner calls (work packages, seals, hash-rate reports) throw
 * `MiningUnavailableError`. With consensus `none` (test-mode NoProof chains) blocks from `mineBlocks` carry the same
 * zero seal and every mining call throws it.
 */
import { EventEmitter } from 'node:events';
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { equalsBytes } from '@ethereumjs/util';
import type { AssembledBlock, ImportResult } from '../blockchain.js';
import { sealHash } from '../pow/ethash.js';
import { MiningUnavailableError } from './errors.js';
import { HashMeter, ReportedHashrates } from './hashrate.js';
import { searchNonce } from './nonce-search.js';
import type { MinerChain, MinerPool, MinerPow } from './ports.js';
import { WorkBook, type MiningWork } from './work-book.js';

export type MiningConsensus = 'pow' | 'instant' | 'none';
export type MiningPolicy = 'continuous' | 'dev';

export interface MinerOptions {
  readonly chain: MinerChain;
  readonly pool: MinerPool;
  /**
   * `pow`: Ethash seals. `instant`: zero seals made at once (dev policy only); no external-miner API. `none`: a chain
   * without proof of work (NoProof test mode): only `mineBlocks` works.
   */
  readonly consensus: MiningConsensus;
  /** Required when `consensus` is `pow`. */
  readonly pow?: MinerPow;
  /** Who receives block rewards (20 bytes). */
  readonly coinbase: Uint8Array;
  /** Header extra data (at most 32 bytes); default empty. */
  readonly extraData?: Uint8Array;
  /** What `start()` runs: `continuous` (default) or the dev network's `dev` policy. */
  readonly policy?: MiningPolicy;
  /** Dev policy: seconds between blocks when no transaction is pending; 0 (default) = only when there is work. */
  readonly blockTimeSeconds?: number;
  /** Prepared eth_getWork templates kept for late solutions (default 30). */
  readonly preparedWorkLimit?: number;
  /** An external miner counts as active, and its hash-rate report as current, for this long (default 30 s). */
  readonly activityTimeoutMs?: number;
  /** How long one nonce-search chunk runs before yielding to the event loop (default 10 ms). */
  readonly chunkMs?: number;
  /** Millisecond clock (default Date.now); tests inject one. */
  readonly now?: () => number;
}

/** A block this miner sealed and imported. */
export interface MinedBlock {
  readonly block: Block;
  /** The pool transactions it included, in block order. */
  readonly transactions: readonly TypedTransaction[];
  /** Candidates that did not go in, with the reason (test_mineBlocks reports these). */
  readonly rejected: readonly { readonly tx: TypedTransaction; readonly reason: string }[];
  /** Time this miner spent assembling and sealing the block (in bulk: its share of the run, storing included); undefined for work sealed by an external miner. */
  readonly sealMs?: number;
}

export interface MineBlocksOptions {
  /** Called once per block for its timestamp (test_modifyTimestamp); undefined = max(now, parent + 1). */
  readonly timestamp?: () => bigint | undefined;
  /** Include pool transactions (default true). */
  readonly withTransactions?: boolean;
  /** Parent of the first block (default: the head); each later block builds on the previous one. */
  readonly parentHash?: Uint8Array;
  /**
   * Return the mined blocks (default true). False: resolve to an empty list once all are mined, so a long run
   * (qa_mineBlocks(10000)) does not hold every block it made until it ends; `sealed` still fires per block.
   */
  readonly collect?: boolean;
}

export interface MinerEvents {
  /** A block was sealed and imported (by any of the three paths). */
  sealed: [mined: MinedBlock];
  /** A background failure (the CPU miner or dev policy keeps going); without a listener it becomes a process warning. */
  failure: [error: Error];
}

/** The CPU miner's current search: cancelled when its template goes stale. */
interface SearchState {
  readonly parentHash: Uint8Array;
  empty: boolean;
  cancelled: boolean;
}

const ERROR_BACKOFF_MS = 1000;
/** Longest the dev policy waits for adds under way before sealing what is pending. */
const DEV_GATHER_MS = 25;

export class Miner {
  private readonly chain: MinerChain;
  private readonly pool: MinerPool;
  private readonly pow: MinerPow | undefined;
  readonly consensus: MiningConsensus;
  readonly policy: MiningPolicy;
  readonly blockTimeSeconds: number;
  private readonly now: () => number;
  private readonly activityTimeoutMs: number;
  private readonly chunkMs: number;
  private readonly events = new EventEmitter<MinerEvents>();

  private coinbaseAddress: Uint8Array;
  private extra: Uint8Array;
  private running = false;
  /** Bumped by every start/stop, so a loop left over from an earlier start ends. */
  private generation = 0;
  private mined = 0;
  /** Serialises block production: assemble, seal, import and pool update of one block at a time. */
  private production: Promise<unknown> = Promise.resolve();

  // external miners
  private readonly workBook: WorkBook;
  private currentWork: { readonly parentHash: Uint8Array; readonly poolVersion: number; readonly work: MiningWork } | undefined;
  private preparing: Promise<MiningWork> | undefined;
  /** Bumped whenever the candidate transactions may have changed (pool events, head changes). */
  private poolVersion = 0;
  private lastExternalActivity = Number.NEGATIVE_INFINITY;
  private readonly meter: HashMeter;
  private readonly reported: ReportedHashrates;

  // continuous policy
  private search: SearchState | undefined;
  private loop: Promise<void> | undefined;

  // dev policy
  private blockTimer: NodeJS.Timeout | undefined;
  private devScheduled = false;
  private devForce = false;
  private devAgain = false;
  private devRun: Promise<void> | undefined;

  private readonly onNewHead = (head: Block): void => {
    this.poolVersion++;
    this.currentWork = undefined;
    if (this.search !== undefined && !equalsBytes(this.search.parentHash, head.hash())) this.search.cancelled = true;
  };
  private readonly onTxAdded = (event: { status: string }): void => {
    this.poolVersion++;
    if (event.status === 'pending') this.onExecutableTx();
  };
  private readonly onTxPromoted = (): void => {
    this.poolVersion++;
    this.onExecutableTx();
  };
  private readonly onTxDropped = (): void => {
    this.poolVersion++;
  };

  constructor(options: MinerOptions) {
    if (options.consensus === 'pow' && options.pow === undefined) throw new Error('a PoW miner needs the pow module (options.pow)');
    // Back-to-back sealing without work would build blocks as fast as the CPU allows.
    if (options.consensus === 'instant' && options.policy !== 'dev') throw new Error('instant sealing runs the dev policy only');
    this.chain = options.chain;
    this.pool = options.pool;
    this.pow = options.pow;
    this.consensus = options.consensus;
    this.policy = options.policy ?? 'continuous';
    this.blockTimeSeconds = options.blockTimeSeconds ?? 0;
    if (!(this.blockTimeSeconds >= 0)) throw new RangeError('blockTimeSeconds must be 0 or more');
    this.now = options.now ?? Date.now;
    this.activityTimeoutMs = options.activityTimeoutMs ?? 30_000;
    this.chunkMs = options.chunkMs ?? 10;
    this.coinbaseAddress = checkedCoinbase(options.coinbase);
    this.extra = checkedExtraData(options.extraData ?? new Uint8Array(0));
    this.workBook = new WorkBook(options.preparedWorkLimit ?? 30);
    this.meter = new HashMeter(this.now);
    this.reported = new ReportedHashrates(this.now, this.activityTimeoutMs);
    this.chain.on('newHead', this.onNewHead);
    this.pool.on('tx:added', this.onTxAdded);
    this.pool.on('tx:promoted', this.onTxPromoted);
    this.pool.on('tx:dropped', this.onTxDropped);
  }

  // ---------------------------------------------------------------- settings

  get coinbase(): Uint8Array {
    return this.coinbaseAddress;
  }

  /** miner_setEtherbase: later blocks (and templates) pay this address. */
  setCoinbase(address: Uint8Array): void {
    this.coinbaseAddress = checkedCoinbase(address);
    this.templatesChanged();
  }

  get extraData(): Uint8Array {
    return this.extra;
  }

  setExtraData(extraData: Uint8Array): void {
    this.extra = checkedExtraData(extraData);
    this.templatesChanged();
  }

  /** Blocks this miner sealed and imported since it was created (all paths). */
  get blocksMined(): number {
    return this.mined;
  }

  /** Whether the internal CPU miner (or the dev policy) is on. */
  get isRunning(): boolean {
    return this.running;
  }

  on<E extends keyof MinerEvents>(event: E, listener: (...args: MinerEvents[E]) => void): this {
    this.events.on(event, listener as never);
    return this;
  }

  off<E extends keyof MinerEvents>(event: E, listener: (...args: MinerEvents[E]) => void): this {
    this.events.off(event, listener as never);
    return this;
  }

  // ---------------------------------------------------------------- the CPU miner

  /** miner_start. Idempotent; true. */
  start(): boolean {
    this.requireSealing('start');
    if (this.running) return true;
    this.running = true;
    const generation = ++this.generation;
    this.meter.reset();
    if (this.policy === 'dev') {
      this.armBlockTimer();
      if (this.pool.pendingCount > 0) this.devWake();
    } else {
      this.loop = this.runContinuous(generation);
    }
    return true;
  }

  /** miner_stop: resolves once the block in progress (if any) is finished or abandoned. Idempotent; true. */
  async stop(): Promise<boolean> {
    this.requireSealing('stop');
    await this.halt();
    return true;
  }

  /** Stops mining and detaches from the chain and the pool. */
  async close(): Promise<void> {
    await this.halt();
    this.chain.off('newHead', this.onNewHead);
    this.pool.off('tx:added', this.onTxAdded);
    this.pool.off('tx:promoted', this.onTxPromoted);
    this.pool.off('tx:dropped', this.onTxDropped);
  }

  /**
   * eth_mining / miner_getStatus.isMining: the CPU miner runs, or an external miner was active recently. Instant
   * sealing: the dev policy runs (there are no external miners).
   */
  isMining(): boolean {
    this.requireSealing('isMining');
    return this.running || this.now() - this.lastExternalActivity < this.activityTimeoutMs;
  }

  /**
   * eth_hashrate: the CPU miner's measured rate plus external reports younger than the activity timeout; 0 when
   * sealing instantly (no hashing, no external miners).
   */
  hashrate(): bigint {
    this.requireSealing('hashrate');
    return (this.running ? this.meter.rate() : 0n) + this.reported.total();
  }

  // ---------------------------------------------------------------- on demand

  /** Seals `count` blocks now, one after another, from the pool's executable transactions. */
  async mineBlocks(count: number, options: MineBlocksOptions = {}): Promise<MinedBlock[]> {
    if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`the number of blocks must be a non-negative integer, got ${count}`);
    const withTransactions = options.withTransactions ?? true;
    const collect = options.collect ?? true;
    const out: MinedBlock[] = [];
    let done = 0;
    let parentHash = options.parentHash;
    while (done < count) {
      // Blocks on the head with nothing to include go in bulk (one database batch per chunk, see Blockchain.extendHead).
      if (parentHash === undefined && this.chain.extendHead !== undefined) {
        const made = await this.exclusive(() => this.produceEmpty(count - done, withTransactions, options.timestamp, collect ? out : undefined));
        done += made;
        if (made > 0) continue;
      }
      const mined = await this.exclusive(() => this.produce(parentHash, withTransactions, options.timestamp?.()));
      done++;
      if (collect) out.push(mined);
      if (parentHash !== undefined) parentHash = mined.block.hash();
    }
    return out;
  }

  /**
   * Up to `count` empty blocks on the head in bulk; none (an empty list) when pool transactions are waiting to be
   * included, so the caller seals the next block from the pool. Call under the lock. A transaction that arrives
   * during a bulk run goes into the first block after it.
   */
  private async produceEmpty(
    count: number,
    withTransactions: boolean,
    timestamp: (() => bigint | undefined) | undefined,
    out: MinedBlock[] | undefined,
  ): Promise<number> {
    if (withTransactions && this.pool.pendingCount > 0) return 0;
    let made = 0;
    const listened = this.events.listenerCount('sealed') > 0;
    await this.chain.extendHead!({
      count,
      coinbase: this.coinbaseAddress,
      extraData: this.extra,
      ...(timestamp !== undefined ? { timestamp } : {}),
      seal: (assembled) => this.sealNow(assembled),
      collect: false,
      // Per chunk, once it is stored: nothing of a chunk is held after it unless the caller collects.
      onChunk: (chunk, chunkMs) => {
        made += chunk.length;
        this.mined += chunk.length;
        if (out === undefined && !listened) return;
        const sealMs = chunkMs / Math.max(1, chunk.length);
        for (const { assembled, block } of chunk) {
          const mined: MinedBlock = { block, transactions: [], rejected: assembled.rejected, sealMs };
          if (listened) this.events.emit('sealed', mined);
          out?.push(mined);
        }
      },
    });
    return made;
  }

  // ---------------------------------------------------------------- external miners

  /** eth_getWork: the package of the prepared block on the current head (re-prepared when the head or the pool changed). */
  async getWork(): Promise<MiningWork> {
    this.requirePow('getWork');
    this.lastExternalActivity = this.now();
    const current = this.currentWork;
    if (current !== undefined && current.poolVersion === this.poolVersion && equalsBytes(current.parentHash, this.chain.getHead().hash())) {
      return current.work;
    }
    this.preparing ??= this.prepareWork().finally(() => {
      this.preparing = undefined;
    });
    return this.preparing;
  }

  /**
   * eth_submitWork: true when `powHash` names a prepared block on the current head, the nonce and mix digest
   * seal it, and it imports as the new head; false otherwise (unknown or stale work, a wrong seal).
   */
  async submitWork(nonce: Uint8Array, powHash: Uint8Array, mixDigest: Uint8Array): Promise<boolean> {
    this.requirePow('submitWork');
    this.lastExternalActivity = this.now();
    if (nonce.length !== 8 || powHash.length !== 32 || mixDigest.length !== 32) return false;
    const prepared = this.workBook.get(powHash);
    if (prepared === undefined) return false;
    return this.exclusive(async () => {
      if (!equalsBytes(this.chain.getHead().hash(), prepared.parentHash)) return false;
      const header = prepared.assembled.template.header;
      const check = await this.pow!.verifySeal({ powHash, nonce, mixDigest, difficulty: header.difficulty, blockNumber: header.number });
      if (!check.valid) return false;
      // Checked just above: import need not hash it again.
      const block = prepared.assembled.seal(nonce, mixDigest, true);
      let result: ImportResult;
      try {
        result = await this.chain.importBlock(block);
      } catch (err) {
        this.report(err);
        return false;
      }
      this.workBook.delete(powHash);
      await this.settle(prepared.assembled, block, result, true);
      return result.status === 'head';
    });
  }

  /** eth_submitHashrate: records an external miner's rate (the latest report per client id counts). */
  submitHashrate(rate: bigint, clientId: Uint8Array | string): boolean {
    this.requirePow('submitHashrate');
    this.lastExternalActivity = this.now();
    this.reported.submit(rate, clientId);
    return true;
  }

  // ---------------------------------------------------------------- block production

  private exclusive<T>(job: () => Promise<T>): Promise<T> {
    const run = this.production.then(job);
    this.production = run.catch(() => undefined);
    return run;
  }

  /** Assembles on `parentHash` (default: the head), seals, imports and settles one block. Call under the lock. */
  private async produce(parentHash: Uint8Array | undefined, withTransactions: boolean, timestamp: bigint | undefined): Promise<MinedBlock> {
    const head = this.chain.getHead().hash();
    const parent = parentHash ?? head;
    const started = performance.now();
    const assembled = await this.assemble(parent, withTransactions, timestamp);
    const block = await this.sealNow(assembled);
    const sealMs = performance.now() - started;
    const result = await this.chain.importBlock(block);
    return this.settle(assembled, block, result, equalsBytes(parent, head), sealMs);
  }

  private assemble(parentHash: Uint8Array, withTransactions = true, timestamp?: bigint): Promise<AssembledBlock> {
    return this.chain.assemble({
      parentHash,
      transactions: withTransactions ? this.candidates() : [],
      coinbase: this.coinbaseAddress,
      extraData: this.extra,
      ...(timestamp !== undefined ? { timestamp } : {}),
    });
  }

  /** The pool's executable transactions, best first, each sender's in nonce order. */
  private *candidates(): Generator<TypedTransaction> {
    for (const pooled of this.pool.executable()) yield pooled.tx;
  }

  /** A real Ethash seal (searched to the end: at dev difficulty this is a couple of hashes), or the zero seal without PoW. */
  private async sealNow(assembled: AssembledBlock): Promise<Block> {
    // The instant seal is the zero seal by definition: nothing for import to check again.
    if (this.consensus !== 'pow') return assembled.seal(new Uint8Array(8), new Uint8Array(32), this.consensus === 'instant');
    const header = assembled.template.header;
    const found = await searchNonce(
      this.pow!,
      { powHash: sealHash(header), difficulty: header.difficulty, blockNumber: header.number },
      { chunkMs: this.chunkMs, onProgress: (hashes) => this.meter.record(hashes) },
    );
    // The search computed this seal, so import need not hash it again.
    return assembled.seal(found!.nonce, found!.mixDigest, true);
  }

  /** After an import: count it, take its transactions out of the pool, drop candidates that cannot execute. */
  private async settle(assembled: AssembledBlock, block: Block, result: ImportResult, builtOnHead: boolean, sealMs?: number): Promise<MinedBlock> {
    if (result.status !== 'known') this.mined++;
    if (result.status === 'head') {
      if (result.dropped.length === 0 && result.added.length === 1) await this.pool.onBlockAdded(block.transactions);
      else await this.pool.onReorg(result.dropped.flatMap((b) => b.transactions), result.added.flatMap((b) => b.transactions));
      if (builtOnHead) this.dropUnexecutable(assembled);
    }
    const mined: MinedBlock = { block, transactions: assembled.transactions, rejected: assembled.rejected, ...(sealMs !== undefined ? { sealMs } : {}) };
    this.events.emit('sealed', mined);
    return mined;
  }

  /**
   * A pending transaction that failed in a block built on the head would fail again and keep the dev policy
   * sealing empty blocks: remove it. Only the first failure per sender counts (its later transactions failed
   * on the nonce gap and the pool re-queues them); a transaction that may simply not have fit the gas left,
   * or that failed on its nonce (the pool has not caught up with a new head yet), stays.
   */
  private dropUnexecutable(assembled: AssembledBlock): void {
    const header = assembled.template.header;
    const gasLeft = header.gasLimit - header.gasUsed;
    const seen = new Set<string>();
    for (const { tx, reason } of assembled.rejected) {
      const sender = tx.getSenderAddress().toString();
      if (seen.has(sender)) continue;
      seen.add(sender);
      if (tx.gasLimit > gasLeft || /nonce/i.test(reason)) continue;
      this.pool.remove(tx.hash(), 'removed');
    }
  }

  // ---------------------------------------------------------------- continuous policy

  private async runContinuous(generation: number): Promise<void> {
    const live = () => this.running && this.generation === generation;
    while (live()) {
      try {
        await this.mineOnHead(live);
      } catch (err) {
        this.report(err);
        await sleep(ERROR_BACKOFF_MS);
      }
    }
  }

  /** One template on the current head, searched until sealed or stale. */
  private async mineOnHead(live: () => boolean): Promise<void> {
    const state: SearchState = { parentHash: this.chain.getHead().hash(), empty: true, cancelled: false };
    this.search = state;
    try {
      const started = performance.now();
      const assembled = await this.assemble(state.parentHash);
      state.empty = assembled.transactions.length === 0;
      const header = assembled.template.header;
      const found = await searchNonce(
        this.pow!,
        { powHash: sealHash(header), difficulty: header.difficulty, blockNumber: header.number },
        { chunkMs: this.chunkMs, cancelled: () => state.cancelled || !live(), onProgress: (hashes) => this.meter.record(hashes) },
      );
      if (found === undefined) return;
      const sealMs = performance.now() - started;
      await this.exclusive(async () => {
        // Another path (a peer's block, mineBlocks, submitWork) may have moved the head while we searched.
        if (!equalsBytes(this.chain.getHead().hash(), state.parentHash)) return;
        const block = assembled.seal(found.nonce, found.mixDigest, true);
        await this.settle(assembled, block, await this.chain.importBlock(block), true, sealMs);
      });
    } finally {
      if (this.search === state) this.search = undefined;
    }
  }

  /** New executable work: the dev policy seals it; the CPU miner restarts if its template is empty. */
  private onExecutableTx(): void {
    if (!this.running) return;
    if (this.policy === 'dev') this.devWake();
    else if (this.search?.empty === true) this.search.cancelled = true;
  }

  // ---------------------------------------------------------------- dev policy

  /** Seal soon: on the next turn of the event loop, so transactions sent together share a block. */
  private devWake(force = false): void {
    if (!this.running || this.policy !== 'dev') return;
    if (force) this.devForce = true;
    if (this.devScheduled) return;
    this.devScheduled = true;
    setImmediate(() => {
      this.devScheduled = false;
      if (this.devRun !== undefined) this.devAgain = true;
      else
        this.devRun = this.devLoop(this.generation).finally(() => {
          this.devRun = undefined;
        });
    });
  }

  /** Seals blocks while there is pending work; transactions arriving meanwhile go into the next block. */
  private async devLoop(generation: number): Promise<void> {
    const live = () => this.running && this.generation === generation;
    do {
      this.devAgain = false;
      const force = this.devForce;
      this.devForce = false;
      if (!live() || (!force && this.pool.pendingCount === 0)) continue;
      try {
        // Sends still on their way into the pool (a batch, a burst) join this block rather than the next one.
        await this.pool.whenAddsSettled(DEV_GATHER_MS);
        const mined = await this.exclusive(() => this.produce(undefined, true, undefined));
        this.armBlockTimer();
        // More pending than fitted: go on. (Not after a block that took nothing: that work cannot execute now.)
        if (mined.transactions.length > 0 && this.pool.pendingCount > 0) this.devAgain = true;
      } catch (err) {
        this.report(err);
      }
    } while (this.devAgain && live());
  }

  private armBlockTimer(): void {
    clearTimeout(this.blockTimer);
    this.blockTimer = undefined;
    if (!this.running || this.policy !== 'dev' || this.blockTimeSeconds === 0) return;
    this.blockTimer = setTimeout(() => this.devWake(true), this.blockTimeSeconds * 1000);
    this.blockTimer.unref();
  }

  // ---------------------------------------------------------------- internals

  private async halt(): Promise<void> {
    this.running = false;
    this.generation++;
    clearTimeout(this.blockTimer);
    this.blockTimer = undefined;
    if (this.search !== undefined) this.search.cancelled = true;
    await Promise.allSettled([this.loop, this.devRun]);
    this.loop = undefined;
  }

  /** Coinbase or extra data changed: templates in progress pay the old values. */
  private templatesChanged(): void {
    this.currentWork = undefined;
    if (this.search !== undefined) this.search.cancelled = true;
  }

  /** The external-miner API: proof of work only. */
  private requirePow(operation: string): void {
    if (this.consensus !== 'pow') throw new MiningUnavailableError(operation, this.consensus);
  }

  /** The built-in sealer (start, stop, status): proof of work or instant sealing. */
  private requireSealing(operation: string): void {
    if (this.consensus === 'none') throw new MiningUnavailableError(operation, this.consensus);
  }

  private async prepareWork(): Promise<MiningWork> {
    const parentHash = this.chain.getHead().hash();
    const poolVersion = this.poolVersion;
    const assembled = await this.assemble(parentHash);
    const header = assembled.template.header;
    const powHash = sealHash(header);
    const { seedHash, boundary } = this.pow!.workPackage(powHash, header.difficulty, header.number);
    const work: MiningWork = { powHash, seedHash, boundary, blockNumber: header.number };
    this.workBook.add({ work, assembled, parentHash });
    this.currentWork = { parentHash, poolVersion, work };
    return work;
  }

  private report(err: unknown): void {
    const error = err instanceof Error ? err : new Error(String(err));
    if (this.events.listenerCount('failure') > 0) this.events.emit('failure', error);
    else process.emitWarning(`miner: ${error.message}`);
  }
}

function checkedCoinbase(address: Uint8Array): Uint8Array {
  if (address.length !== 20) throw new RangeError(`a coinbase is a 20-byte address, got ${address.length} bytes`);
  return Uint8Array.from(address);
}

function checkedExtraData(extraData: Uint8Array): Uint8Array {
  if (extraData.length > 32) throw new RangeError(`header extra data is at most 32 bytes, got ${extraData.length}`);
  return Uint8Array.from(extraData);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
