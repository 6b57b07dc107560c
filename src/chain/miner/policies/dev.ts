/**
 * The dev network's policy: seal as soon as transactions are pending (all of them that fit, in one block) and
 * otherwise every `blockTimeSeconds` (0 = no empty blocks).
 */
import { bytesToHex } from '@ethereumjs/util';
import type { BlockProduction } from '../production.js';
import type { MinedBlock } from '../types.js';
import type { SealingPolicy } from './sealing-policy.js';

/** Longest the dev policy waits for adds under way before sealing what is pending. */
const DEV_GATHER_MS = 25;

export class DevPolicy implements SealingPolicy {
  private running = false;
  /** Bumped by every start/stop, so a loop left over from an earlier start ends. */
  private generation = 0;
  private blockTimer: NodeJS.Timeout | undefined;
  private scheduled = false;
  /** The block timer fired: seal even with nothing pending. */
  private force = false;
  private again = false;
  private run: Promise<void> | undefined;

  constructor(
    private readonly core: BlockProduction,
    private readonly blockTimeSeconds: number,
  ) {}

  start(): void {
    this.running = true;
    this.generation++;
    this.armBlockTimer();
    if (this.includable() > 0) this.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.generation++;
    clearTimeout(this.blockTimer);
    this.blockTimer = undefined;
    await Promise.allSettled([this.run]);
  }

  onNewHead(): void {}

  onExecutableTx(): void {
    this.wake();
  }

  /** Every block is assembled when it is sealed, so it pays the current values already. */
  templatesChanged(): void {}

  /** Seal soon: on the next turn of the event loop, so transactions sent together share a block. */
  private wake(force = false): void {
    if (!this.running) return;
    if (force) this.force = true;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.run !== undefined) this.again = true;
      else
        this.run = this.loop(this.generation).finally(() => {
          this.run = undefined;
        });
    });
  }

  /** Seals blocks while there is pending work; transactions arriving meanwhile go into the next block. */
  private async loop(generation: number): Promise<void> {
    const { core } = this;
    const live = () => this.running && this.generation === generation;
    do {
      this.again = false;
      const force = this.force;
      this.force = false;
      // Pending transactions left out of the head's block as stuck wait for a change, not for another empty block.
      if (!live() || (!force && this.includable() === 0)) continue;
      try {
        // Sends still on their way into the pool (a batch, a burst) join this block rather than the next one.
        await core.pool.whenAddsSettled(DEV_GATHER_MS);
        const mined = await core.exclusive(() => core.produce(undefined, true, undefined));
        this.armBlockTimer();
        // More pending than fitted: go on. (Not after a block that took nothing: that work cannot execute now. Nor
        // for a transaction above the next block's gas limit, which waits for the limit to rise: sealing for it
        // would only add an empty block after every send, where Anvil seals one.)
        if (mined.transactions.length > 0 && leftOutForGas(mined, core.nextGasLimit())) this.again = true;
      } catch (err) {
        core.report(err);
      }
    } while (this.again && live());
  }

  private includable(): number {
    return this.core.pool.includableCount(bytesToHex(this.core.chain.getHead().hash()));
  }

  private armBlockTimer(): void {
    clearTimeout(this.blockTimer);
    this.blockTimer = undefined;
    if (!this.running || this.blockTimeSeconds === 0) return;
    this.blockTimer = setTimeout(() => this.wake(true), this.blockTimeSeconds * 1000);
    this.blockTimer.unref();
  }
}

/** Did the block leave out, for want of the gas it had left, a transaction the next block can hold? */
function leftOutForGas(mined: MinedBlock, nextGasLimit: bigint): boolean {
  const gasLeft = mined.block.header.gasLimit - mined.block.header.gasUsed;
  return mined.rejected.some(({ tx }) => tx.gasLimit > gasLeft && tx.gasLimit <= nextGasLimit);
}
