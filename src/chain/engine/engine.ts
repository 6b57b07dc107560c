/**
 * The chain engine as one unit: the block store and executor (`Blockchain`), proof of work (`Ethash`), the
 * transaction pool and the miner, wired to each other for one network and one data directory.
 * Knows nothing of JSON-RPC; the node attaches it and handlers read from it.
 */
import { join } from 'node:path';
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { type Address, bytesToHex } from '@ethereumjs/util';
import type { ConsoleListener } from '../assembly/assembler.js';
import { Blockchain } from '../blockchain/blockchain.js';
import { cacheLimitsOf, type CacheLimits } from '../base/cache-limits.js';
import { CallPool } from '../view/call-pool.js';
import type { SealCheckFailedEvent } from '../view/chain-events.js';
import { attachLogServices, type EngineLogs, type LogServiceOptions } from './engine-logs.js';
import { engineNetworkOf, etcEngineRules } from './engine-adapters.js';
import { EngineMemo } from './engine-memo.js';
import type { ChainRules, EngineNetwork } from '../rules/engine-types.js';
import type { ForkUpstream } from '../fork/upstream.js';
import { genesisBlock, GenesisMismatchError } from '../genesis/header.js';
import { getNetwork } from '../networks/index.js';
import type { NetworkDefinition, NetworkName } from '../networks/types.js';
import { Miner } from '../miner/index.js';
import { Ethash } from '../pow/ethash.js';
import type { ProgressLogger } from '../base/progress-log.js';
import type { PruningOptions } from '../blockchain/pruner.js';
import { instantSealNetwork, sealVerifierFor, type SealMode } from './seal-mode.js';
import { TxPool } from '../txpool/txpool.js';
import type { StateRetentionOptions } from '../state/retention.js';
import type { PoolAccount, PoolChainView } from '../txpool/chain-view.js';
import type { TxPoolOptions } from '../txpool/options.js';
import { PoolSettle, type SubmitResult } from '../txpool/settle.js';
import { installFastRlpEncode } from '../codec/fast-rlp.js';

export interface EngineOptions {
  readonly dataDir: string;
  readonly network: NetworkName | NetworkDefinition;
  readonly pool?: TxPoolOptions;
  /** Defaults to the network's ETC rules; test mode passes Ethereum rules and its own network. */
  readonly rules?: ChainRules;
  /** Skip seal checks (retesteth's NoProof chains). */
  readonly noProof?: boolean;
  /**
   * How blocks are sealed (seal-mode.ts). Default `ethash`; the node's configuration picks `instant` on dev. `instant`
   * turns a dev network definition into its instant-seal variant (another genesis) and is refused on other networks.
   */
  readonly seal?: SealMode;
  /** Where Ethash caches live (default `<dataDir>/ethash`); test mode shares one across its short-lived chains. */
  readonly powCacheDir?: string;
  /** Worker threads for batch seal checks (default one per core; 0 checks every seal on the importing thread). */
  readonly sealWorkers?: number;
  /**
   * Worker threads for eth_call, eth_estimateGas and eth_createAccessList (view/call-pool.ts), and how many calls
   * may wait for one. Default 0: calls run on the main thread. Not with `rules` (test mode's chains).
   */
  readonly callWorkers?: { readonly workers: number; readonly maxQueued: number };
  readonly onWarning?: (message: string) => void;
  /** Errors the operator must act on (a block sealed here that @ethereumjs/vm computes otherwise); default: a warning. */
  readonly onError?: (message: string, fields: Record<string, unknown>) => void;
  /**
   * Blocks this node seals: `lean` false assembles them with the library's own paths (no plain-transfer shortcut,
   * lean call frames or flat state); `sealCheckLag` bounds the blocks imported on their assembly's word that wait
   * for @ethereumjs/vm's re-execution (exec/seal-checker.ts; default 4). Not with `rules` (test mode's chains).
   */
  readonly execution?: { readonly lean?: boolean; readonly sealCheckLag?: number };
  /** Dev only (ignored elsewhere): hears the console.log lines of each transaction the miner includes. */
  readonly console?: ConsoleListener;
  /** Where long engine work (an Ethash cache build) logs its start, progress lines and end; default: silent. */
  readonly log?: ProgressLogger;
  readonly mining?: MiningOptions;
  /** Log query limits, filter timeout and account-history limit. */
  readonly logs?: LogServiceOptions;
  /** Bounds of the engine's caches and of LevelDB's (see cache-limits.ts); unset ones take the defaults. */
  readonly caches?: Partial<CacheLimits>;
  /**
   * Fork mode: a dev chain (instant seal, automine) on top of this upstream's state at a pinned block; `network` is
   * the upstream's network, whose chain id and rules the fork keeps.
   */
  readonly fork?: ForkUpstream;
  /** Answer once a block is the in-memory head, its write queued in order (Blockchain's `writeBehind`). */
  readonly writeBehind?: boolean;
  /**
   * Blocks are about to be imported (`svc-node import`): the seal workers start while the chain opens and the next
   * block's Ethash cache loads once it has, instead of both waiting for the first batch of seals.
   */
  readonly warmSeals?: boolean;
  /** Which states are kept (`--gcmode` and its window, state/retention.ts); default archive. */
  readonly retention?: StateRetentionOptions;
  /** Full mode's cycles (blockchain/pruner.ts); the engine logs each one and warns of failures unless told otherwise. */
  readonly pruning?: PruningOptions;
}

export interface MiningOptions {
  /** Receives block rewards; the zero address when none is configured. */
  readonly coinbase?: Uint8Array;
  readonly extraData?: Uint8Array;
  /** On dev: also seal an empty block after this many seconds without one (0 = only when transactions are pending). */
  readonly blockTimeSeconds?: number;
}

export class ChainEngine {
  private constructor(
    readonly sealMode: SealMode,
    readonly definition: NetworkDefinition,
    readonly network: EngineNetwork,
    readonly chain: Blockchain,
    readonly pow: Ethash,
    readonly pool: TxPool,
    readonly miner: Miner,
    /** Log queries, filters and subscriptions, account history. */
    readonly logs: EngineLogs,
  ) {
    this.settle = new PoolSettle(pool);
  }

  private readonly settle: PoolSettle;
  /** Worker threads for calls, if any (tests reach it to crash a worker). */
  callPool: CallPool | undefined;

  /** What this engine's readers keep between calls (caches, the debug dumps' address book): engine-memo.ts. */
  readonly memo = new EngineMemo();

  static async open(opts: EngineOptions): Promise<ChainEngine> {
    const sealMode = opts.seal ?? 'ethash';
    const named = typeof opts.network === 'string' ? getNetwork(opts.network) : opts.network;
    // A fork starts on the upstream's block, not on a genesis of its own, and seals its own blocks instantly.
    const forked = opts.fork !== undefined;
    const definition = sealMode === 'instant' && !forked ? instantSealNetwork(named) : named;
    const devChain = definition.name === 'dev' || forked;
    const lean = opts.execution?.lean !== false;
    // The library's shared RLP encoder swapped for one that writes each encoding once (codec/fast-rlp.ts); with
    // --no-exec.lean everything stays the library's own.
    if (lean) installFastRlpEncode();
    const network = engineNetworkOf(definition);
    const pow = await Ethash.create({
      params: definition.pow.ecip1099Block == null ? {} : { ecip1099Block: definition.pow.ecip1099Block },
      cacheDir: opts.powCacheDir ?? join(opts.dataDir, 'ethash'),
      ...(opts.sealWorkers !== undefined ? { sealWorkers: opts.sealWorkers } : {}),
      ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
      ...(opts.log ? { log: opts.log } : {}),
    });
    if (opts.warmSeals === true) pow.warm();
    const callPool =
      opts.callWorkers === undefined || opts.callWorkers.workers === 0 || opts.rules !== undefined
        ? undefined
        : new CallPool({
            ...opts.callWorkers,
            setup: { network: definition, checkpointing: definition.checkpointing !== undefined },
            executors: cacheLimitsOf(opts.caches).callExecutors,
            ...(opts.onWarning ? { onWarning: opts.onWarning } : {}),
            onReady: (workers) => opts.log?.info('execution worker ready', { workers }),
          });
    const chain = await Blockchain.open({
      dataDir: opts.dataDir,
      ...(callPool !== undefined ? { callPool } : {}),
      network,
      // Dev automine seals bursts faster than one block per second (timestamps run ahead of the clock),
      // so the "not from the future" check applies to public networks only.
      rules:
        opts.rules ??
        etcEngineRules(
          definition,
          devChain ? undefined : () => BigInt(Math.floor(Date.now() / 1000)),
          sealMode === 'instant',
        ),
      seal: sealVerifierFor(sealMode, pow),
      ...(opts.noProof ? { noProof: true } : {}),
      ...(opts.caches ? { caches: opts.caches } : {}),
      ...(opts.fork ? { fork: opts.fork } : {}),
      ...(opts.writeBehind ? { writeBehind: true } : {}),
      ...(opts.log ? { log: opts.log } : {}),
      ...(devChain && opts.console !== undefined ? { console: opts.console } : {}),
      ...(opts.retention ? { retention: opts.retention } : {}),
      pruning: {
        onCycle: (f) =>
          opts.log?.info('state pruned', {
            marked: f.marked,
            swept: f.swept,
            liveMiB: Math.round(f.liveBytes / 2 ** 20),
            diskMiB: `${Math.round(f.diskBytesBefore / 2 ** 20)} -> ${Math.round(f.diskBytesAfter / 2 ** 20)}`,
            seconds: Math.round(f.seconds * 100) / 100,
            markSeconds: Math.round(f.markSeconds * 100) / 100,
            longestSliceMs: Math.round(f.longestSliceMs),
            longestMarkSliceMs: Math.round(f.longestMarkSliceMs),
            longestSweepTurnMs: Math.round(f.longestSweepTurnMs),
          }),
        onError: (err) => opts.onWarning?.(`state pruning cycle failed: ${(err as Error)?.message ?? err}`),
        ...opts.pruning,
      },
      ...(devChain && lean ? { flatState: true } : { evmOnly: !lean }),
      ...(opts.rules === undefined
        ? {
            sealChecks: {
              lag: opts.execution?.sealCheckLag ?? 16,
              network: definition,
              ...(opts.onWarning ? { onError: opts.onWarning } : {}),
            },
          }
        : {}),
    }).catch((err: unknown) => {
      throw otherSealModeChain(err, named, sealMode) ?? err;
    });
    if (opts.warmSeals === true) pow.warm(chain.getHead().header.number + 1n);
    // The dev chain names what its state holds in anvil_dumpState (state/written-keys.ts).
    if (sealMode === 'instant') await chain.recordWrittenKeys();
    // Admission checks a transaction's gas against the next block's limit, which the miner sets (evm_setBlockGasLimit).
    let nextGasLimit = (): bigint => chain.getHead().header.gasLimit;
    const pool = new TxPool(
      poolViewOf(chain, () => nextGasLimit()),
      {
        ...opts.pool,
        senderRecovery: { ...(opts.onWarning ? { onWarning: opts.onWarning } : {}), ...opts.pool?.senderRecovery },
      },
    );
    const miner = new Miner({
      chain,
      pool,
      pow,
      consensus: opts.noProof ? 'none' : sealMode === 'instant' ? 'instant' : 'pow',
      coinbase: opts.mining?.coinbase ?? new Uint8Array(20),
      ...(opts.mining?.extraData ? { extraData: opts.mining.extraData } : {}),
      policy: devChain ? 'dev' : 'continuous',
      blockTimeSeconds: opts.mining?.blockTimeSeconds ?? 0,
    });
    nextGasLimit = () => miner.nextBlockGasLimit();
    const logs = attachLogServices(chain, pool, {
      onError: (e) => opts.onWarning?.(`log filters: ${(e as Error)?.message ?? e}`),
      ...opts.logs,
    });
    const engine = new ChainEngine(sealMode, definition, network, chain, pow, pool, miner, logs);
    engine.callPool = callPool;
    engine.keepPoolInStep();
    chain.on('sealCheckFailed', (e) => engine.stopOnMismatch(e, opts));
    return engine;
  }

  /** Every new head (mined here, imported from a peer or a test) takes its transactions out of the pool. */
  private keepPoolInStep(): void {
    this.chain.on('reorg', (e: { dropped: readonly Block[]; added: readonly Block[] }) => {
      this.trackPoolSync(
        this.pool.onReorg(
          e.dropped.flatMap((b) => b.transactions),
          e.added.flatMap((b) => b.transactions),
        ),
      );
    });
    this.chain.on('newHead', (block: Block) => {
      // An empty block on an empty pool (each block of a bulk run) leaves nothing to refresh or to wait for.
      if (block.transactions.length === 0 && this.pool.noteEmptyHead()) return;
      // Sends waiting for this block answer first; the pool's refresh runs once the answers are written.
      this.settle.onHead(block.transactions);
      this.trackPoolSync(this.pool.onBlockAdded(block.transactions));
    });
  }

  /** A block sealed here that the reference computes otherwise: production stops, the operator hears what differed. */
  private stopOnMismatch(e: SealCheckFailedEvent, opts: EngineOptions): void {
    const first = e.differences[0];
    const message =
      `block ${e.block.header.number} sealed by this node differs from @ethereumjs/vm's execution of it: ` +
      `${first?.tx !== undefined ? `transaction ${first.tx}, ` : ''}${first?.field}: sealed ${first?.sealed}, reference ${first?.reference}. ` +
      `The head is back at block ${e.rewoundTo?.header.number ?? 'unchanged'}, its transactions are back in the pool, and block ` +
      "production is stopped. This is a bug in svc-node's faster execution paths: please report it; to go on, " +
      "restart the node with --no-exec.lean (blocks sealed with the library's own execution paths).";
    const fields = {
      block: Number(e.block.header.number),
      hash: bytesToHex(e.block.hash()),
      differences: e.differences.slice(0, 16),
      ...(e.rewoundTo !== undefined ? { head: Number(e.rewoundTo.header.number) } : {}),
    };
    if (opts.onError !== undefined) opts.onError(message, fields);
    else opts.onWarning?.(message);
    if (this.miner.consensus !== 'none' && this.miner.isRunning) void this.miner.stop();
  }

  /**
   * Pools a signed transaction (raw bytes or a transaction object); rejects with the pool's `TxRejectedError`. On
   * dev with the miner running (automine) a pending transaction comes back with `settled`: the send's answer waits
   * for it, so the answer comes once the transaction's block is the head (see txpool/settle.ts).
   */
  submit(tx: Uint8Array | TypedTransaction): Promise<SubmitResult> {
    return this.settle.submit(tx, this.miner.isRunning && this.miner.policy === 'dev');
  }

  private poolSync: Promise<unknown> = Promise.resolve();

  private trackPoolSync(work: Promise<unknown>): void {
    // Settled to undefined: Promise.all's result array would hold the previous one, a list growing by one per head.
    this.poolSync = Promise.all([this.poolSync, work]).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Resolves once the pool has caught up with every head change so far (test_rewindToBlock empties it after). */
  async poolInStep(): Promise<void> {
    await this.poolSync;
  }

  async close(): Promise<void> {
    await this.miner.close();
    await this.pool.close();
    // Before the chain: running calls read the state through it.
    await this.callPool?.close();
    this.logs.detach();
    await this.chain.close();
    await this.pow.close();
  }
}

/**
 * A dev data directory holding the dev chain of the other seal mode: an error that says so and what to do, instead
 * of a bare genesis mismatch. Undefined for any other failure.
 */
function otherSealModeChain(err: unknown, named: NetworkDefinition, sealMode: SealMode): Error | undefined {
  const stored = err instanceof GenesisMismatchError ? err.stored : undefined;
  if (stored === undefined || named.name !== 'dev') return undefined;
  const other: SealMode = sealMode === 'instant' ? 'ethash' : 'instant';
  const otherDefinition = other === 'instant' ? instantSealNetwork(named) : named;
  // Both variants have the same allocation, so the same state root: only the genesis header differs.
  const otherGenesis = genesisBlock(
    engineNetworkOf(otherDefinition).genesisHeader,
    stored.expected.common,
    stored.expected.header.stateRoot,
  );
  if (bytesToHex(otherGenesis.hash()) !== bytesToHex(stored.storedGenesis)) return undefined;
  const describe = (mode: SealMode) =>
    mode === 'instant' ? 'an instant-seal dev chain' : 'a dev chain sealed with Ethash';
  return new Error(
    `the datadir ${stored.dataDir} holds ${describe(other)} (genesis ${bytesToHex(stored.storedGenesis)}), and this node runs ` +
      `${describe(sealMode)}: start it with --seal ${other} to use that chain, or give it another --datadir`,
  );
}

function poolViewOf(chain: Blockchain, nextGasLimit: () => bigint): PoolChainView {
  return {
    chainId: chain.network.chainId,
    blockGasLimit: nextGasLimit,
    account(address) {
      // The senders of a block assembled here are in the state it was assembled on: no read view, no promise.
      const known = chain.headAccountNow(address);
      if (known === null) return { nonce: 0n, balance: 0n };
      if (known !== undefined) return { nonce: known.nonce, balance: known.balance };
      return readAccount(chain, address);
    },
    // The chain's own rules (ETC by default, Ethereum's for test chains) decide how the next block's transactions decode.
    commonForNextBlock: () => chain.txCommonAt(chain.getHead().header.number + 1n),
  };
}

async function readAccount(chain: Blockchain, address: Address): Promise<PoolAccount> {
  const state = await chain.stateAt('latest');
  if (state === undefined) return { nonce: 0n, balance: 0n };
  const [nonce, balance] = await Promise.all([state.getNonce(address.bytes), state.getBalance(address.bytes)]);
  return { nonce, balance };
}
