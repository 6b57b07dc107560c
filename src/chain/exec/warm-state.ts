/**
 * The state (and VM) the latest assembled block that became the head finished on, keyed by that block's hash: the
 * next assembly on it continues there instead of opening the trie and building a VM. A block's state never
 * changes, so the hash is the whole key. Assembly takes it (or drops it) either way, a chunk of empty blocks on it
 * carries it along (`carry`), it is lent once per execution, and any head change to another block drops it
 * (`follow`, called by the chain view on every head move).
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { equalsBytes } from '@ethereumjs/util';
import type { RewardCredit } from '../rules/engine-types.js';
import type { RunnerResult } from '../exec/block-runner.js';
import { creditRewards } from '../exec/credit-rewards.js';
import { flatStateIfAny, forgetFlatState } from '../exec/flat-state.js';
import { cachedAccount, type KnownAccounts, type OpenedState } from '../state/state-view.js';

interface Warm {
  /** The block whose post-state this is. */
  readonly hash: Uint8Array;
  readonly state: OpenedState;
  readonly common: Common;
}

/**
 * Gas a warm state may have run before its caches are emptied: they keep every account, slot and code touched, each
 * first touch costs hundreds of gas or more, so this bounds them to about what one full block's execution may hold
 * on the cold path. (A dev block of one token transfer is ~50k gas.)
 */
const WARM_STATE_GAS = 30_000_000n;

export class WarmState {
  /** See `WARM_STATE_GAS`; tests lower it to cross the bound often. */
  gasBound = WARM_STATE_GAS;
  private warm: Warm | undefined;
  private readonly lentResults = new WeakSet<RunnerResult>();
  /** Gas run on each warm state since it was opened (see `WARM_STATE_GAS`). */
  private readonly warmGas = new WeakMap<OpenedState, bigint>();

  /** The block whose post-state is kept; undefined when none is. */
  get hash(): Uint8Array | undefined {
    return this.warm?.hash;
  }

  drop(): void {
    this.warm = undefined;
  }

  /** A head move: the state stays only if it is the new head's. */
  follow(head: Block): void {
    if (this.warm !== undefined && !equalsBytes(this.warm.hash, head.hash())) this.warm = undefined;
  }

  /** The state for a child of `parent` under `childCommon`, if it is `parent`'s and still small enough; emptied either way. */
  take(parent: BlockHeader, childCommon: Common): OpenedState | undefined {
    const warm = this.warm;
    this.warm = undefined;
    if (warm === undefined || !equalsBytes(warm.hash, parent.hash()) || warm.common !== childCommon) return undefined;
    if ((this.warmGas.get(warm.state) ?? 0n) > this.gasBound && !this.emptied(warm.state)) return undefined;
    // The previous block's nodes are written (and remembered by the node store): this block's batch gets its own.
    warm.state.buffer.pending.clear();
    return warm.state;
  }

  /**
   * The bound reached: the caches are emptied in place rather than a new state and VM opened. A new VM brings new
   * closures, and a new flat state new maps and a new journal array: the first block on them deoptimised ~20 hot
   * functions at once and cost ~0.55 s of recompiles (bench/results/transfer-server-time.md, rounds 15-16). False
   * (the caller starts cold) where the state is not between blocks.
   */
  private emptied(state: OpenedState): boolean {
    const flat = flatStateIfAny(state.stateManager);
    if (flat !== undefined && !flat.emptyCaches()) return false;
    if (!state.stateManager.emptyCaches()) return false;
    this.warmGas.set(state, 0n);
    return true;
  }

  /**
   * Account reads for the read view of block `hash`, answered from the kept state's cache for as long as it is still
   * that block's: the new head's view needs no trie of its own for the accounts its block touched. The check is
   * made on every read, synchronously, so a read never sees the next block's execution (`take` empties the record
   * before the state moves on).
   */
  knownAccounts(hash: Uint8Array): KnownAccounts {
    return (address) => {
      const warm = this.warm;
      if (warm === undefined || !equalsBytes(warm.hash, hash)) return undefined;
      return cachedAccount(warm.state, address);
    };
  }

  /** Takes the whole record if it is `head`'s (a chunk of empty blocks carries it on); emptied either way. */
  takeAt(head: BlockHeader): Warm | undefined {
    const warm = this.warm !== undefined && equalsBytes(this.warm.hash, head.hash()) ? this.warm : undefined;
    this.warm = undefined;
    return warm;
  }

  /** An assembled block became the head: the state its execution finished on is kept (once per execution). */
  keep(block: Block, result: RunnerResult, common: Common): void {
    if (result.state === undefined || this.lentResults.has(result)) return;
    this.lentResults.add(result);
    this.warmGas.set(result.state, (this.warmGas.get(result.state) ?? 0n) + block.header.gasUsed);
    this.warm = { hash: block.hash(), state: result.state, common };
  }

  /**
   * After a chunk of empty blocks on `warm`'s block: the same rewards credited to that state bring it to the new
   * head's, so the next mined block continues on it instead of opening the trie and building a VM again. Kept only
   * when its root is the head's state root (else the next block starts cold, as after any other head change).
   */
  async carry(warm: Warm, rewards: readonly RewardCredit[], head: Block, common: Common): Promise<void> {
    if (warm.common !== common) return;
    const backing = warm.state.stateManager;
    // Through the flat state the miner executes on, when there is one: its caches stay those of the state, and the
    // next block runs on it and on the VM made for it (block-runner.ts keeps one per state manager) instead of a
    // new flat state and a new VM (~1-2 ms, once per transfer after each bulk call, profiled).
    const sm = flatStateIfAny(backing) ?? backing;
    await sm.checkpoint();
    await creditRewards(sm, rewards);
    await sm.commit();
    const root = await sm.getStateRoot();
    if (!equalsBytes(root, head.header.stateRoot)) {
      forgetFlatState(backing);
      return;
    }
    // The chunk's batch stored these nodes already.
    warm.state.buffer.pending.clear();
    this.warm = { hash: head.hash(), state: warm.state, common };
  }
}
