/**
 * The dev chain's block clock for Anvil's time methods: the wall clock plus an offset (evm_increaseTime), an exact
 * timestamp for the next block (evm_setNextBlockTimestamp), a fixed step from the last block instead of the clock
 * (anvil_setBlockTimestampInterval), and never a timestamp at or below one already given or the head's, so
 * timestamps strictly increase whatever the caller asks.
 */
/** The largest timestamp a header holds (a uint64, as every client reads it). */
const MAX_TIMESTAMP = 2n ** 64n - 1n;

export interface DevClockState {
  readonly offset: bigint;
  readonly next: bigint | undefined;
  readonly lastIssued: bigint;
}

export class DevClock {
  private offset = 0n;
  private next: bigint | undefined;
  /** The last timestamp handed out: a bulk run asks for several before the head moves. */
  private lastIssued = 0n;
  /** anvil_setBlockTimestampInterval's step in seconds; not part of a snapshot, as in Anvil. */
  private interval: bigint | undefined;

  constructor(
    private readonly headTimestamp: () => bigint,
    private readonly now: () => bigint = () => BigInt(Math.floor(Date.now() / 1000)),
  ) {}

  /** The timestamp of the next block, taken (the one after gets its own). */
  take(): bigint {
    let ts: bigint;
    if (this.next !== undefined) {
      ts = this.next;
      this.next = undefined;
      // The clock goes on from there, as Anvil's does.
      this.offset = ts - this.now();
    } else if (this.interval !== undefined) {
      const head = this.headTimestamp();
      ts = (this.lastIssued > head ? this.lastIssued : head) + this.interval;
    } else ts = this.now() + this.offset;
    return this.issue(ts);
  }

  /** anvil_setBlockTimestampInterval: each block `seconds` (at least 1) after the one before. */
  setInterval(seconds: bigint): void {
    if (seconds < 1n) throw new RangeError(`interval ${seconds} is below 1 second: timestamps strictly increase`);
    this.interval = seconds;
  }

  /** anvil_removeBlockTimestampInterval: back to the clock; whether an interval was set. */
  removeInterval(): boolean {
    const had = this.interval !== undefined;
    this.interval = undefined;
    return had;
  }

  /**
   * Hands out `ts`, or the earliest timestamp still free when `ts` is not later than every one before. A timestamp
   * past 2^64 - 1 (a huge interval, offset or next timestamp) is refused (RangeError: the caller's -32602), since no
   * header can hold it.
   */
  issue(ts: bigint): bigint {
    const head = this.headTimestamp();
    const floor = (this.lastIssued > head ? this.lastIssued : head) + 1n;
    const issued = ts < floor ? floor : ts;
    if (issued > MAX_TIMESTAMP)
      throw new RangeError(`the next block's timestamp ${issued} is past the largest a header holds (2^64 - 1)`);
    this.lastIssued = issued;
    return issued;
  }

  /**
   * evm_increaseTime: the whole offset afterwards, in seconds. Counted from the chain's time where blocks sealed in
   * quick succession (a second apart each) have run ahead of the wall clock, so the next block is `seconds` later.
   */
  increase(seconds: bigint): bigint {
    const ahead = this.headTimestamp() - this.now();
    if (this.offset < ahead) this.offset = ahead;
    this.offset += seconds;
    return this.offset;
  }

  /** evm_setNextBlockTimestamp; a time not later than the head's is refused (RangeError). */
  setNext(timestamp: bigint): void {
    const head = this.headTimestamp();
    if (timestamp <= head)
      throw new RangeError(`timestamp ${timestamp} is not later than the head's ${head}: timestamps strictly increase`);
    this.next = timestamp;
  }

  /**
   * The clock reads `timestamp` now and runs on from there (evm_setTime; a reorg's common ancestor): the offset is
   * set, an exact next timestamp forgotten. Blocks still never go at or below the head's time. Returns the seconds
   * from the clock's time before to `timestamp`, 0 when it went back, as Anvil answers evm_setTime.
   */
  resetTo(timestamp: bigint): bigint {
    const before = this.now() + this.offset;
    this.offset = timestamp - this.now();
    this.next = undefined;
    this.lastIssued = 0n;
    return timestamp > before ? timestamp - before : 0n;
  }

  save(): DevClockState {
    return { offset: this.offset, next: this.next, lastIssued: this.lastIssued };
  }

  restore(state: DevClockState): void {
    this.offset = state.offset;
    this.next = state.next;
    this.lastIssued = state.lastIssued;
  }
}
