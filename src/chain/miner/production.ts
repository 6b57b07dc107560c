/**
 * What every way of making a block shares: the coinbase and extra data it pays, the lock that keeps two paths from
 * building competing blocks, assembling on a parent from the pool's candidates, sealing, importing, taking the
 * mined transactions out of the pool, and telling listeners (`sealed`, `failure`). The policies and on-demand
 * mining decide when; this decides how.
 */
import type { EventEmitter } from 'node:events';
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { AssembledBlock, ImportResult } from '../blockchain/blockchain.js';
import { sealHash } from '../pow/ethash.js';
import type { MinedSeal } from '../pow/seal.js';
import { HashMeter } from './hashrate.js';
import { searchNonce } from './nonce-search.js';
import type { MinerChain, MinerPool, MinerPow } from './ports.js';
import type { MineBlocksOptions, MinedBlock, MinerEvents, MiningConsensus } from './types.js';

export interface ProductionOptions {
  readonly chain: MinerChain;
  readonly pool: MinerPool;
  readonly pow: MinerPow | undefined;
  readonly consensus: MiningConsensus;
  readonly coinbase: Uint8Array;
  readonly extraData: Uint8Array;
  readonly chunkMs: number;
  readonly now: () => number;
  /** Where `sealed` and `failure` go: the miner itself. */
  readonly events: EventEmitter<MinerEvents>;
}

export class BlockProduction {
  readonly chain: MinerChain;
  readonly pool: MinerPool;
  readonly consensus: MiningConsensus;
  /** The CPU search's hash rate (eth_hashrate while the miner runs). */
  readonly meter: HashMeter;
  private readonly powModule: MinerPow | undefined;
  private readonly chunkMs: number;
  private readonly events: EventEmitter<MinerEvents>;
  private coinbaseAddress: Uint8Array;
  private extra: Uint8Array;
  private mined = 0;
  /** Serialises block production: assemble, seal, import and pool update of one block at a time. */
  private production: Promise<unknown> = Promise.resolve();
  /** The dev chain's clock (evm_increaseTime & co.): each block's timestamp where the caller gives none. */
  nextTimestamp: (() => bigint | undefined) | undefined;
  /** The dev chain's evm_setBlockGasLimit: blocks move their gas limit toward it as fast as the header rule allows. */
  gasLimitTarget: bigint | undefined;

  constructor(options: ProductionOptions) {
    this.chain = options.chain;
    this.pool = options.pool;
    this.consensus = options.consensus;
    this.powModule = options.pow;
    this.chunkMs = options.chunkMs;
    this.events = options.events;
    this.meter = new HashMeter(options.now);
    this.coinbaseAddress = checkedCoinbase(options.coinbase);
    this.extra = checkedExtraData(options.extraData);
  }

  get coinbase(): Uint8Array {
    return this.coinbaseAddress;
  }

  set coinbase(address: Uint8Array) {
    this.coinbaseAddress = checkedCoinbase(address);
  }

  get extraData(): Uint8Array {
    return this.extra;
  }

  set extraData(extraData: Uint8Array) {
    this.extra = checkedExtraData(extraData);
  }

  /** Blocks sealed and imported since the miner was created (all paths). */
  get blocksMined(): number {
    return this.mined;
  }

  /** The Ethash module; only the PoW paths ask, and a PoW miner cannot be built without it. */
  get pow(): MinerPow {
    return this.powModule!;
  }

  exclusive<T>(job: () => Promise<T>): Promise<T> {
    const run = this.production.then(job);
    this.production = run.catch(() => undefined);
    return run;
  }

  /**
   * Assembles on `parentHash` (default: the head), seals, imports and settles one block. Call under the lock.
   * `withTransactions` may name the block's transactions instead of the pool's candidates (anvil_reorg).
   */
  async produce(
    parentHash: Uint8Array | undefined,
    withTransactions: boolean | readonly TypedTransaction[],
    timestamp: bigint | undefined,
  ): Promise<MinedBlock> {
    // Backpressure: the reference execution of earlier blocks is at most `lag` behind (exec/seal-checker.ts).
    await this.chain.sealChecks?.room();
    const head = this.chain.getHead().hash();
    const parent = parentHash ?? head;
    const started = performance.now();
    const assembled = await this.assemble(parent, withTransactions, timestamp ?? this.nextTimestamp?.());
    const block = await this.sealNow(assembled);
    const sealMs = performance.now() - started;
    const result = await this.chain.importBlock(block);
    return this.settle(assembled, block, result, equalsBytes(parent, head), sealMs);
  }

  assemble(
    parentHash: Uint8Array,
    withTransactions: boolean | readonly TypedTransaction[] = true,
    timestamp?: bigint,
  ): Promise<AssembledBlock> {
    const gasLimit = this.gasLimitTarget === undefined ? undefined : this.gasLimitToward(parentHash);
    const transactions =
      typeof withTransactions !== 'boolean' ? withTransactions : withTransactions ? this.candidates() : [];
    return this.chain.assemble({
      parentHash,
      transactions,
      coinbase: this.coinbaseAddress,
      extraData: this.extra,
      ...(timestamp !== undefined ? { timestamp } : {}),
      ...(gasLimit !== undefined ? { gasLimit } : {}),
    });
  }

  /**
   * The gas limit of the next block built on the head: the target's step once evm_setBlockGasLimit set one, else the
   * head's. Pool admission checks against it, so a transaction is admitted exactly when assembly can fit it.
   */
  nextGasLimit(): bigint {
    const head = this.chain.getHead();
    return this.gasLimitToward(head.hash()) ?? head.header.gasLimit;
  }

  /** One header-rule step (less than 1/1024 of the parent's) from the head's gas limit toward the target. */
  private gasLimitToward(parentHash: Uint8Array): bigint | undefined {
    const head = this.chain.getHead().header;
    const target = this.gasLimitTarget;
    if (target === undefined || !equalsBytes(head.hash(), parentHash)) return undefined;
    // Instant-seal chains take any gas limit (engine-adapters.ts, freeGasLimit): the target at once, as Anvil does.
    if (this.consensus === 'instant') return target;
    const step = head.gasLimit / 1024n - 1n;
    if (target > head.gasLimit) return target - head.gasLimit <= step ? target : head.gasLimit + step;
    const lower = head.gasLimit - step;
    return target >= lower ? target : lower < 5000n ? 5000n : lower;
  }

  /** The pool's executable transactions, best first, each sender's in nonce order. */
  private *candidates(): Generator<TypedTransaction> {
    for (const pooled of this.pool.executable()) yield pooled.tx;
  }

  /** A real Ethash seal (searched to the end: at dev difficulty this is a couple of hashes), or the zero seal without PoW. */
  sealNow(assembled: AssembledBlock): Block | Promise<Block> {
    // The instant seal is the zero seal by definition: nothing for import to check again. Made at once, without a
    // promise: a bulk run seals every block here.
    if (this.consensus !== 'pow')
      return assembled.seal(new Uint8Array(8), new Uint8Array(32), this.consensus === 'instant');
    // The search computed this seal, so import need not hash it again.
    return this.searchSeal(assembled.template.header).then((found) =>
      assembled.seal(found!.nonce, found!.mixDigest, true),
    );
  }

  /** The nonce search on this header, counted in the hash rate; undefined once `cancelled` says so. */
  searchSeal(header: BlockHeader, cancelled?: () => boolean): Promise<MinedSeal | undefined> {
    return searchNonce(
      this.pow,
      { powHash: sealHash(header), difficulty: header.difficulty, blockNumber: header.number },
      {
        chunkMs: this.chunkMs,
        ...(cancelled !== undefined ? { cancelled } : {}),
        onProgress: (hashes) => this.meter.record(hashes),
      },
    );
  }

  /** After an import: count it, take its transactions out of the pool, drop candidates that cannot execute. */
  async settle(
    assembled: AssembledBlock,
    block: Block,
    result: ImportResult,
    builtOnHead: boolean,
    sealMs?: number,
  ): Promise<MinedBlock> {
    if (result.status !== 'known') this.mined++;
    if (result.status === 'head') {
      if (result.dropped.length === 0 && result.added.length === 1) await this.pool.onBlockAdded(block.transactions);
      else
        await this.pool.onReorg(
          result.dropped.flatMap((b) => b.transactions),
          result.added.flatMap((b) => b.transactions),
        );
      if (builtOnHead) this.noteLeftOut(assembled, block);
    }
    const mined: MinedBlock = {
      block,
      transactions: assembled.transactions,
      rejected: assembled.rejected,
      ...(sealMs !== undefined ? { sealMs } : {}),
    };
    this.events.emit('sealed', mined);
    return mined;
  }

  /**
   * Up to `count` empty blocks on the head in bulk; none (an empty list) when pool transactions are waiting to be
   * included, so the caller seals the next block from the pool. Call under the lock. A transaction that arrives
   * during a bulk run goes into the first block after it.
   */
  async produceEmpty(
    count: number,
    withTransactions: boolean,
    { timestamp, chunkSize }: Pick<MineBlocksOptions, 'timestamp' | 'chunkSize'>,
    out: MinedBlock[] | undefined,
  ): Promise<number> {
    if (withTransactions && this.pool.includableCount(bytesToHex(this.chain.getHead().hash())) > 0) return 0;
    // Bulk blocks keep their parent's gas limit: while one moves toward a target, blocks go one at a time.
    if (this.gasLimitTarget !== undefined && this.gasLimitTarget !== this.chain.getHead().header.gasLimit) return 0;
    timestamp ??= this.nextTimestamp;
    let made = 0;
    const listened = this.events.listenerCount('sealed') > 0;
    await this.chain.extendHead!({
      count,
      coinbase: this.coinbaseAddress,
      extraData: this.extra,
      ...(timestamp !== undefined ? { timestamp } : {}),
      ...(chunkSize !== undefined ? { chunkSize } : {}),
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

  /** A background failure: to the `failure` listeners, or a process warning when nobody listens. */
  report(err: unknown): void {
    const error = err instanceof Error ? err : new Error(String(err));
    if (this.events.listenerCount('failure') > 0) this.events.emit('failure', error);
    else process.emitWarning(`miner: ${error.message}`);
  }

  /**
   * The pool's transactions this block (built on the head) left out stay in the pool, each with the reason it waits
   * (txpool_content / txpool_inspect show it): an acknowledged transaction is never dropped unseen. The first one
   * left out per sender carries the block's reason; its later ones wait for it (their nonces cannot follow). One
   * that only did not fit the gas left, or that the next block's gas limit can hold, is not stuck: the next block
   * tries it. Anything else waits until something changes (a balance, a code, the gas limit, a replacement).
   */
  private noteLeftOut(assembled: AssembledBlock, block: Block): void {
    // Nothing left out: the template (a header built for it alone) need not be made.
    if (assembled.rejected.length === 0) return;
    const { gasLimit, gasUsed, number } = block.header;
    const head = bytesToHex(block.hash());
    const nextGasLimit = this.nextGasLimit();
    const first = new Map<string, TypedTransaction>();
    for (const { tx, reason } of assembled.rejected) {
      const sender = tx.getSenderAddress().toString();
      const blocker = first.get(sender);
      if (blocker !== undefined) {
        const why = `waits for nonce ${blocker.nonce} (${bytesToHex(blocker.hash())}), which block ${number} left out`;
        this.pool.noteWaiting(tx.hash(), why, head);
        continue;
      }
      first.set(sender, tx);
      // Did not fit what was left, but a block can hold it; or a nonce the pool had not caught up with: retried.
      const retried = (tx.gasLimit > gasLimit - gasUsed && tx.gasLimit <= nextGasLimit) || /nonce/i.test(reason);
      this.pool.noteWaiting(tx.hash(), `left out of block ${number}: ${reason}`, retried ? undefined : head);
    }
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
