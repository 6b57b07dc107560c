/**
 * The bound on trace requests running at once in the process: a trace holds a VM, a replayed state and its answer
 * while it runs, so their number bounds the memory tracing takes. Beyond `maxRunning`, requests wait in a queue of at
 * most `maxQueued`, each at most `maxWaitMs`; a request that finds the queue full or waits too long is refused with
 * `TraceBusyError` (it may pass later: the handlers answer -32005 with a retry hint). Slots pass to waiters in order.
 */
export class TraceBusyError extends Error {
  constructor(
    readonly running: number,
    readonly queued: number,
    /** Why: the queue was full, or the wait too long. */
    readonly reason: 'queue full' | 'waited too long',
    message: string,
  ) {
    super(message);
    this.name = 'TraceBusyError';
  }
}

interface Waiter {
  readonly start: () => void;
  readonly timer: NodeJS.Timeout | undefined;
}

export class TraceSlots {
  private running = 0;
  private readonly queue: Waiter[] = [];

  /** `maxRunning` 0 = no bound (and no queue); `maxWaitMs` 0 = wait as long as it takes. */
  constructor(
    readonly maxRunning: number,
    readonly maxQueued: number,
    readonly maxWaitMs: number,
  ) {}

  /** Runs `work` in a slot, waiting for one if needed. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    // Awaited only when there is a wait: an await of nothing still costs a turn of the microtasks.
    const waiting = this.acquire();
    if (waiting !== undefined) await waiting;
    try {
      return await work();
    } finally {
      // Held one more turn of the event loop: the caller turns the answer into JSON and writes it in the microtasks
      // that follow, so the next trace starts once that copy of the answer is made and handed to the socket.
      setImmediate(() => this.release());
    }
  }

  get inUse(): number {
    return this.running;
  }

  get waiting(): number {
    return this.queue.length;
  }

  private acquire(): Promise<void> | undefined {
    if (this.maxRunning === 0 || this.running < this.maxRunning) {
      this.running++;
      return undefined;
    }
    if (this.queue.length >= this.maxQueued) {
      throw new TraceBusyError(
        this.running,
        this.queue.length,
        'queue full',
        `${this.running} traces are running and ${this.queue.length} waiting, the most this node allows`,
      );
    }
    return new Promise<void>((resolve, reject) => {
      const timer =
        this.maxWaitMs > 0
          ? setTimeout(() => {
              const at = this.queue.indexOf(waiter);
              if (at >= 0) this.queue.splice(at, 1);
              reject(
                new TraceBusyError(
                  this.running,
                  this.queue.length,
                  'waited too long',
                  `waited ${this.maxWaitMs} ms for one of the ${this.maxRunning} trace slots`,
                ),
              );
            }, this.maxWaitMs)
          : undefined;
      // The slot is handed over as it is: `running` stays as it was.
      const waiter: Waiter = { start: resolve, timer };
      this.queue.push(waiter);
    });
  }

  private release(): void {
    const next = this.queue.shift();
    if (next === undefined) {
      this.running--;
      return;
    }
    clearTimeout(next.timer);
    next.start();
  }
}
