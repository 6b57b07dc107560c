/**
 * The node's miner. Three ways a block gets sealed, all through the same production core (production.ts: assemble →
 * seal → import → tell the pool, one block at a time under one lock):
 *
 * - the internal CPU miner (`start`/`stop`), running one policy: `continuous` (policies/continuous.ts) or `dev`
 *   (policies/dev.ts);
 * - `mineBlocks(n)` on demand (on-demand.ts), running or not;
 * - external miners: `getWork` / `submitWork` (policies/external-work.ts).
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
import { MiningUnavailableError } from './errors.js';
import { mineBlocks } from './on-demand.js';
import { ContinuousPolicy } from './policies/continuous.js';
import { DevPolicy } from './policies/dev.js';
import { ExternalWork } from './policies/external-work.js';
import type { SealingPolicy } from './policies/sealing-policy.js';
import type { MinerChain, MinerPool } from './ports.js';
import { BlockProduction } from './production.js';
import type {
  MineBlocksOptions,
  MinedBlock,
  MinerEvents,
  MinerOptions,
  MiningConsensus,
  MiningPolicy,
} from './types.js';
import type { MiningWork } from './work-book.js';

export class Miner extends EventEmitter<MinerEvents> {
  readonly consensus: MiningConsensus;
  readonly policy: MiningPolicy;
  readonly blockTimeSeconds: number;
  private readonly chain: MinerChain;
  private readonly pool: MinerPool;
  private readonly core: BlockProduction;
  /** What `start()` runs. */
  private readonly sealing: SealingPolicy;
  private readonly external: ExternalWork;
  private running = false;

  private readonly onNewHead = (head: Block): void => {
    this.external.onNewHead();
    this.sealing.onNewHead(head);
  };
  private readonly onTxAdded = (event: { status: string }): void => {
    this.external.onPoolChanged();
    if (event.status === 'pending') this.onExecutableTx();
  };
  private readonly onTxPromoted = (): void => {
    this.external.onPoolChanged();
    this.onExecutableTx();
  };
  private readonly onTxDropped = (): void => {
    this.external.onPoolChanged();
  };

  constructor(options: MinerOptions) {
    if (options.consensus === 'pow' && options.pow === undefined)
      throw new Error('a PoW miner needs the pow module (options.pow)');
    // Back-to-back sealing without work would build blocks as fast as the CPU allows.
    if (options.consensus === 'instant' && options.policy !== 'dev')
      throw new Error('instant sealing runs the dev policy only');
    super();
    this.chain = options.chain;
    this.pool = options.pool;
    this.consensus = options.consensus;
    this.policy = options.policy ?? 'continuous';
    this.blockTimeSeconds = options.blockTimeSeconds ?? 0;
    if (!(this.blockTimeSeconds >= 0)) throw new RangeError('blockTimeSeconds must be 0 or more');
    const now = options.now ?? Date.now;
    this.core = new BlockProduction({
      chain: options.chain,
      pool: options.pool,
      pow: options.pow,
      consensus: options.consensus,
      coinbase: options.coinbase,
      extraData: options.extraData ?? new Uint8Array(0),
      chunkMs: options.chunkMs ?? 10,
      now,
      events: this,
    });
    this.external = new ExternalWork(this.core, {
      preparedWorkLimit: options.preparedWorkLimit ?? 30,
      activityTimeoutMs: options.activityTimeoutMs ?? 30_000,
      now,
    });
    this.sealing =
      this.policy === 'dev' ? new DevPolicy(this.core, this.blockTimeSeconds) : new ContinuousPolicy(this.core);
    this.chain.on('newHead', this.onNewHead);
    this.pool.on('tx:added', this.onTxAdded);
    this.pool.on('tx:promoted', this.onTxPromoted);
    this.pool.on('tx:dropped', this.onTxDropped);
  }

  // ---------------------------------------------------------------- settings

  get coinbase(): Uint8Array {
    return this.core.coinbase;
  }

  /** miner_setEtherbase: later blocks (and templates) pay this address. */
  setCoinbase(address: Uint8Array): void {
    this.core.coinbase = address;
    this.templatesChanged();
  }

  get extraData(): Uint8Array {
    return this.core.extraData;
  }

  setExtraData(extraData: Uint8Array): void {
    this.core.extraData = extraData;
    this.templatesChanged();
  }

  /** Blocks this miner sealed and imported since it was created (all paths). */
  get blocksMined(): number {
    return this.core.blocksMined;
  }

  /** Whether the internal CPU miner (or the dev policy) is on. */
  get isRunning(): boolean {
    return this.running;
  }

  // ---------------------------------------------------------------- the CPU miner

  /** miner_start. Idempotent; true. */
  start(): boolean {
    this.requireSealing('start');
    if (this.running) return true;
    this.running = true;
    this.core.meter.reset();
    this.sealing.start();
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
    return this.running || this.external.active;
  }

  /**
   * eth_hashrate: the CPU miner's measured rate plus external reports younger than the activity timeout; 0 when
   * sealing instantly (no hashing, no external miners).
   */
  hashrate(): bigint {
    this.requireSealing('hashrate');
    return (this.running ? this.core.meter.rate() : 0n) + this.external.reportedRate();
  }

  // ---------------------------------------------------------------- on demand

  /** Seals `count` blocks now, one after another, from the pool's executable transactions. */
  mineBlocks(count: number, options: MineBlocksOptions = {}): Promise<MinedBlock[]> {
    return mineBlocks(this.core, count, options);
  }

  // ---------------------------------------------------------------- the dev chain's test methods (anvil_*)

  /**
   * One block on the head holding `transactions` in order and nothing of the pool (one that cannot execute is left
   * out, as assembly leaves any out): anvil_reorg's new branch. Only inside `betweenBlocks`, whose lock it needs.
   */
  sealWith(transactions: readonly TypedTransaction[], timestamp: bigint | undefined): Promise<MinedBlock> {
    return this.core.produce(undefined, transactions, timestamp);
  }

  /** Where blocks take their timestamp when no caller gives one (evm_increaseTime & co.); undefined = the wall clock. */
  setBlockClock(clock: (() => bigint | undefined) | undefined): void {
    this.core.nextTimestamp = clock;
  }

  /** The gas limit blocks move toward (evm_setBlockGasLimit); undefined = each keeps its parent's. */
  setGasLimitTarget(target: bigint | undefined): void {
    this.core.gasLimitTarget = target;
  }

  /** The gas limit the next block on the head gets: the head's, or a step toward the evm_setBlockGasLimit target. */
  nextBlockGasLimit(): bigint {
    return this.core.nextGasLimit();
  }

  /** Runs `job` while no block is in production (a dev state edit must not slip under a block being assembled). */
  betweenBlocks<T>(job: () => Promise<T>): Promise<T> {
    return this.core.exclusive(job);
  }

  // ---------------------------------------------------------------- external miners

  /** eth_getWork: the package of the prepared block on the current head (re-prepared when the head or the pool changed). */
  async getWork(): Promise<MiningWork> {
    this.requirePow('getWork');
    return this.external.getWork();
  }

  /**
   * eth_submitWork: true when `powHash` names a prepared block on the current head, the nonce and mix digest
   * seal it, and it imports as the new head; false otherwise (unknown or stale work, a wrong seal).
   */
  async submitWork(nonce: Uint8Array, powHash: Uint8Array, mixDigest: Uint8Array): Promise<boolean> {
    this.requirePow('submitWork');
    return this.external.submitWork(nonce, powHash, mixDigest);
  }

  /** eth_submitHashrate: records an external miner's rate (the latest report per client id counts). */
  submitHashrate(rate: bigint, clientId: Uint8Array | string): boolean {
    this.requirePow('submitHashrate');
    return this.external.submitHashrate(rate, clientId);
  }

  // ---------------------------------------------------------------- internals

  /** New executable work: the running policy decides what it means. */
  private onExecutableTx(): void {
    if (this.running) this.sealing.onExecutableTx();
  }

  private async halt(): Promise<void> {
    this.running = false;
    await this.sealing.stop();
  }

  /** Coinbase or extra data changed: templates in progress pay the old values. */
  private templatesChanged(): void {
    this.external.templatesChanged();
    this.sealing.templatesChanged();
  }

  /** The external-miner API: proof of work only. */
  private requirePow(operation: string): void {
    if (this.consensus !== 'pow') throw new MiningUnavailableError(operation, this.consensus);
  }

  /** The built-in sealer (start, stop, status): proof of work or instant sealing. */
  private requireSealing(operation: string): void {
    if (this.consensus === 'none') throw new MiningUnavailableError(operation, this.consensus);
  }
}
