/**
 * The dev chain's test controls behind Anvil's and Hardhat's methods (handlers/anvil): the block clock, snapshots
 * and their reverts, mining on demand and by interval, automine, direct state edits, impersonation, reset. One per
 * engine, made on first use: until then the engine runs without any of it.
 */
import { randomBytes } from 'node:crypto';
import type { Block } from '@ethereumjs/block';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { ChainEngine } from '../engine/engine.js';
import type { EditedRootsRecord } from '../state/edited-roots.js';
import { DevClock, type DevClockState } from './dev-clock.js';
import { Impersonation } from './impersonation.js';
import { ancestorOf, type ReplacementTx, replaceTop } from './reorg.js';
import { applyStateEdits, type StateEdit } from './state-edits.js';

interface Snapshot {
  readonly head: Block;
  /** The state edits in place then (chain/state/edited-roots.ts). */
  readonly edited: EditedRootsRecord;
  /** The pool's transactions, each sender's in nonce order. */
  readonly pool: readonly Uint8Array[];
  readonly clock: DevClockState;
}

export class DevControls {
  readonly clock: DevClock;
  readonly impersonation = new Impersonation();
  private readonly snapshots = new Map<bigint, Snapshot>();
  private nextSnapshotId = 0n;
  private intervalTimer: NodeJS.Timeout | undefined;
  /** The period of `intervalTimer` in seconds (anvil_getIntervalMining reads it). */
  private intervalSeconds: number | undefined;
  /** anvil_metadata's instanceId: new on every start and reset. */
  instanceId: Uint8Array = randomBytes(32);

  constructor(readonly engine: ChainEngine) {
    this.clock = new DevClock(() => engine.chain.getHead().header.timestamp);
    engine.miner.setBlockClock(() => this.clock.take());
  }

  // ---------------------------------------------------------------- snapshots

  snapshot(): bigint {
    const id = this.nextSnapshotId++;
    this.snapshots.set(id, {
      head: this.engine.chain.getHead(),
      edited: this.engine.chain.editedState,
      pool: this.engine.pool.all().map((p) => p.raw),
      clock: this.clock.save(),
    });
    return id;
  }

  /** Open snapshots, oldest first: id → the head they hold. */
  openSnapshots(): ReadonlyMap<bigint, Block> {
    return new Map([...this.snapshots].map(([id, s]) => [id, s.head]));
  }

  /**
   * Back to snapshot `id`: its head, pool and clock. It and every later snapshot are consumed. False for an
   * unknown id, or one whose head is no longer canonical.
   */
  async revert(id: bigint): Promise<boolean> {
    const snap = this.snapshots.get(id);
    if (snap === undefined) return false;
    for (const later of [...this.snapshots.keys()]) if (later >= id) this.snapshots.delete(later);
    const { chain } = this.engine;
    let reverted = false;
    // Automine would seal the restored transactions while they are put back, one by one.
    await this.withMinerPaused(async () => {
      // Above the head is no longer canonical, whatever an index entry left above it says.
      if (snap.head.header.number > chain.getHead().header.number) return;
      const canonical = await chain.getCanonicalHash(snap.head.header.number);
      if (canonical === undefined || !equalsBytes(canonical, snap.head.hash())) return;
      reverted = true;
      await this.restore(snap);
    });
    return reverted;
  }

  private async restore(snap: Snapshot): Promise<void> {
    const { chain, pool } = this.engine;
    await chain.rewindTo(snap.head.header.number);
    await chain.restoreEditedState(snap.edited);
    await this.engine.poolInStep();
    pool.clear();
    for (const raw of snap.pool) await pool.add(raw).catch(() => undefined);
    this.clock.restore(snap.clock);
  }

  // ---------------------------------------------------------------- reorgs

  /** anvil_rollback: the top `depth` blocks leave the chain (chain/dev/reorg.ts); RangeError past the genesis. */
  async rollback(depth: bigint): Promise<void> {
    await this.withMinerPaused(async () => {
      await replaceTop(this.engine, this.clock, ancestorOf(this.engine, depth, 'Rollback'), []);
    });
  }

  /**
   * anvil_reorg: `depth` new blocks replace the top `depth`, block i holding `blocks[i]` (missing entries: empty
   * blocks). `blocks` may be built by `build`, which runs once the depth is checked and before anything changes.
   */
  async reorg(
    depth: bigint,
    build: (ancestor: bigint) => Promise<readonly (readonly ReplacementTx[])[]>,
  ): Promise<Block[]> {
    let sealed: Block[] = [];
    await this.withMinerPaused(async () => {
      const ancestor = ancestorOf(this.engine, depth, 'Reorg');
      const given = await build(ancestor);
      const blocks = Array.from({ length: Number(depth) }, (_, i) => given[i] ?? []);
      sealed = await replaceTop(this.engine, this.clock, ancestor, blocks);
    });
    return sealed;
  }

  // ---------------------------------------------------------------- mining

  get automine(): boolean {
    return this.engine.miner.isRunning;
  }

  async setAutomine(on: boolean): Promise<void> {
    if (on) this.engine.miner.start();
    else await this.engine.miner.stop();
  }

  /** The interval-mining period in seconds; undefined when no block is sealed on a timer. */
  get intervalMining(): number | undefined {
    return this.intervalSeconds;
  }

  /** Seconds > 0: automine off, a block every that many seconds. 0: no interval mining. */
  async setIntervalMining(seconds: number): Promise<void> {
    clearInterval(this.intervalTimer);
    this.intervalTimer = undefined;
    this.intervalSeconds = undefined;
    if (seconds <= 0) return;
    this.intervalSeconds = seconds;
    await this.setAutomine(false);
    this.intervalTimer = setInterval(() => {
      // A closed engine refuses: the timer then has nothing left to do.
      this.engine.miner.mineBlocks(1, { collect: false }).catch(() => this.setIntervalMining(0));
    }, seconds * 1000);
    this.intervalTimer.unref();
  }

  /**
   * `count` blocks now from the pool. `firstTimestamp` (checked by the clock) is the first block's; `interval`
   * seconds (> 0) then separate them, else each takes the clock's next second. With `collect`, the mined blocks
   * are returned (evm_mine_detailed); otherwise none is held, so a bulk mine stays light.
   */
  async mine(
    count: number,
    firstTimestamp?: bigint,
    interval?: bigint,
    collect = false,
    cancelled?: () => boolean,
  ): Promise<Block[]> {
    if (firstTimestamp !== undefined) this.clock.setNext(firstTimestamp);
    let previous: bigint | undefined;
    const timestamp = () => {
      const spaced = previous !== undefined && interval !== undefined && interval > 0n;
      previous = spaced ? this.clock.issue(previous! + interval!) : this.clock.take();
      return previous;
    };
    const mined = await this.engine.miner.mineBlocks(count, {
      collect,
      timestamp,
      ...(cancelled !== undefined ? { cancelled } : {}),
    });
    return mined.map((m) => m.block);
  }

  // ---------------------------------------------------------------- state

  /** Addresses and storage slots the edits named: anvil_dumpState can name them though no transaction did. */
  readonly edited = new Map<string, Set<bigint>>();

  /**
   * The edits change the head's state in place, as Anvil's do: no block is mined, reads at the head see them at
   * once, and the next block starts from them, so its state root carries them (chain/state/edited-roots.ts).
   */
  async edit(edits: readonly StateEdit[]): Promise<void> {
    for (const e of edits) {
      const key = bytesToHex(e.address);
      const slots = this.edited.get(key) ?? new Set<bigint>();
      if (e.kind === 'storage') slots.add(e.slot);
      this.edited.set(key, slots);
    }
    const { chain, miner, pool } = this.engine;
    await miner.betweenBlocks(() => chain.editHeadState((state) => applyStateEdits(state, edits)));
    // Pooled transactions of an edited sender are checked again against its new nonce and balance.
    await pool.onReorg([], []);
  }

  /** Genesis again: the chain rewound to block 0, the pool emptied, snapshots, impersonation and clock forgotten. */
  async reset(): Promise<void> {
    await this.withMinerPaused(async () => {
      await this.engine.chain.rewindTo(0n);
      await this.engine.chain.restoreEditedState(new Map());
      await this.engine.poolInStep();
      this.engine.pool.clear();
    });
    this.snapshots.clear();
    this.nextSnapshotId = 0n;
    this.impersonation.clear();
    this.clock.restore({ offset: 0n, next: undefined, lastIssued: 0n });
    this.engine.miner.setGasLimitTarget(undefined);
    this.instanceId = randomBytes(32);
  }

  /**
   * `work` with automine off and under the production lock: no block (a long anvil_mine's next chunk) and no other
   * revert or reset moves the head while it checks and rewinds.
   */
  private async withMinerPaused(work: () => Promise<void>): Promise<void> {
    const { miner } = this.engine;
    const running = miner.isRunning;
    if (running) await miner.stop();
    try {
      await miner.betweenBlocks(work);
    } finally {
      if (running) miner.start();
    }
  }
}

const controls = new WeakMap<ChainEngine, DevControls>();

/** The engine's dev controls, made on first use. */
export function devControlsOf(engine: ChainEngine): DevControls {
  let found = controls.get(engine);
  if (found === undefined) {
    found = new DevControls(engine);
    controls.set(engine, found);
  }
  return found;
}
