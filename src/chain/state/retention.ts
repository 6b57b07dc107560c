/**
 * Which states a node keeps (`--gcmode`): every state (archive), or the last `keepStates` states of the canonical
 * chain plus a few sparse checkpoint states below them (full). The sparse states let a trace of a block just below
 * the window re-execute from a state that is still held (`reexec`, as geth's), without keeping every state.
 *
 * The policy is a pure function of the head's number, so the pruner (what may be removed), the readers (what may be
 * answered) and the tracer (where re-execution may start) cannot disagree.
 */
export type GcMode = 'archive' | 'full';

export const GC_MODES: readonly GcMode[] = ['full', 'archive'];

export interface StateRetentionOptions {
  readonly mode: GcMode;
  /** full: the last this many states (the head's included) are kept. */
  readonly keepStates: number;
  /** full: below the window, the states of blocks whose number is a multiple of this are kept too… */
  readonly checkpointInterval: number;
  /** …this many of them. */
  readonly checkpoints: number;
  /**
   * full: most blocks a trace re-executes to rebuild a state not kept, from the nearest kept one below it
   * (`network.rpc.debug.reexec`; default 128, 0 = never).
   */
  readonly reexec?: number;
}

const ARCHIVE_RETENTION: StateRetentionOptions = {
  mode: 'archive',
  keepStates: 128,
  checkpointInterval: 128,
  checkpoints: 2,
};

export class StateRetention {
  constructor(readonly options: StateRetentionOptions = ARCHIVE_RETENTION) {}

  get mode(): GcMode {
    return this.options.mode;
  }

  get archive(): boolean {
    return this.options.mode === 'archive';
  }

  /** The lowest block of the window of recent states (the head's state is always in it). */
  windowFloor(head: bigint): bigint {
    const floor = head - BigInt(this.options.keepStates) + 1n;
    return floor < 0n ? 0n : floor;
  }

  /** The sparse checkpoint states below the window, highest first. */
  checkpointNumbers(head: bigint): bigint[] {
    if (this.archive) return [];
    const interval = BigInt(this.options.checkpointInterval);
    const out: bigint[] = [];
    let c = ((this.windowFloor(head) - 1n) / interval) * interval;
    while (c >= 0n && out.length < this.options.checkpoints && c < this.windowFloor(head)) {
      out.push(c);
      c -= interval;
    }
    return out;
  }

  /** Whether the state after canonical block `number` is kept while `head` is the head. */
  isKept(number: bigint, head: bigint): boolean {
    if (this.archive || number > head) return true;
    if (number >= this.windowFloor(head)) return true;
    return this.checkpointNumbers(head).includes(number);
  }

  /** The oldest kept state (a sparse checkpoint when there is one). */
  oldestKept(head: bigint): bigint {
    if (this.archive) return 0n;
    const checkpoints = this.checkpointNumbers(head);
    return checkpoints.length > 0 ? checkpoints[checkpoints.length - 1]! : this.windowFloor(head);
  }

  /** The highest kept state at or below `number`, or undefined when none is. */
  nearestKeptAtOrBelow(number: bigint, head: bigint): bigint | undefined {
    if (this.isKept(number, head)) return number;
    return this.checkpointNumbers(head).find((c) => c <= number);
  }

  /**
   * Where a replay on the state after block `number` starts: `number` itself when kept, else the nearest kept state
   * at most `reexec` blocks below it; undefined when there is none within that bound.
   */
  reexecStart(number: bigint, head: bigint): bigint | undefined {
    const start = this.nearestKeptAtOrBelow(number, head);
    if (start === undefined || number - start > BigInt(this.options.reexec ?? 128)) return undefined;
    return start;
  }

  /** Every kept canonical height, for the pruner's live roots (full mode only; archive keeps all). */
  keptNumbers(head: bigint): bigint[] {
    if (this.archive) throw new Error('an archive node keeps every state');
    const out: bigint[] = [];
    for (let n = head; n >= this.windowFloor(head); n--) out.push(n);
    return out.concat(this.checkpointNumbers(head));
  }

  /** The error of a read of the state after block `number` that is not kept. */
  notKeptError(number: bigint, head: bigint): StateNotKeptError {
    return new StateNotKeptError(number, this.oldestKept(head), this.notKeptMessage(number));
  }

  /** What a read of a pruned state answers (-32000 with this message). */
  notKeptMessage(number: bigint): string {
    return (
      `state of block ${number} is not kept (this node keeps the last ${this.options.keepStates} states; ` +
      'start with --gcmode archive for older ones)'
    );
  }
}

/**
 * A state read of a block whose state the retention policy does not keep (full mode): answered -32000 with the way
 * out. Thrown by the policy, not by a missing trie node, so the answer is the same before and after the pruner runs.
 */
export class StateNotKeptError extends Error {
  constructor(
    readonly block: bigint,
    /** The oldest state kept when the read came (the sparse checkpoints included). */
    readonly oldestKept: bigint,
    message: string,
  ) {
    super(message);
    this.name = 'StateNotKeptError';
  }
}

/** Throws StateNotKeptError when the state after block `number` is not kept while `head` is the head. */
export function assertStateKept(retention: StateRetention, number: bigint, head: bigint): void {
  if (!retention.isKept(number, head)) throw retention.notKeptError(number, head);
}
