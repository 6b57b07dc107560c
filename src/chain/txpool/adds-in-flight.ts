/**
 * Adds under way, and who waits for them to finish: the dev miner waits for a burst of sends to land so that
 * they share a block (TxPool.whenAddsSettled).
 */
export class AddsInFlight {
  private adding = 0;
  private waiting: (() => void)[] = [];

  begin(): void {
    this.adding++;
  }

  end(): void {
    if (--this.adding === 0) this.settle();
  }

  /** Resolves once no add is under way, or after `maxWaitMs`. */
  settled(maxWaitMs: number): Promise<void> {
    if (this.adding === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, maxWaitMs);
      this.waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** On a later turn of the event loop: the caller that finished one add may start the next in its continuation. */
  private settle(): void {
    if (this.waiting.length === 0) return;
    setImmediate(() => {
      if (this.adding > 0) return;
      const waiting = this.waiting;
      this.waiting = [];
      for (const resolve of waiting) resolve();
    });
  }
}
