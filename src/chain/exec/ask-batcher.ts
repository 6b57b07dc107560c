/**
 * A worker's questions to the main thread (which alone has the database open), batched: the asks of one turn
 * travel as one message per key, and the answer settles them in the order asked. The call workers
 * (remote-reads.ts) and the seal-check worker (seal-check-worker.ts) ask different things over the same pattern.
 *
 * Imports nothing: the seal-check worker's import graph must hold no narrow execution path.
 */

interface Pending<Value> {
  readonly resolve: (value: Value) => void;
  readonly reject: (err: Error) => void;
}

export class AskBatcher<Item, Value> {
  private nextId = 1;
  private readonly waiting = new Map<number, readonly Pending<Value>[]>();
  private batch = new Map<string, { items: Item[]; pending: Pending<Value>[] }>();
  private flushScheduled = false;

  /**
   * `send` posts one batch; `schedule` decides how long a turn gathers asks (the call workers wait for the next
   * macrotask, so calls running side by side share the round trip; the seal checker's trie walk flushes per microtask).
   */
  constructor(
    private readonly send: (id: number, key: string, items: Item[]) => void,
    private readonly schedule: (flush: () => void) => void = (flush) => setImmediate(flush),
  ) {}

  ask(key: string, item: Item): Promise<Value> {
    return new Promise((resolve, reject) => {
      let group = this.batch.get(key);
      if (group === undefined) this.batch.set(key, (group = { items: [], pending: [] }));
      group.items.push(item);
      group.pending.push({ resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        this.schedule(() => this.flush());
      }
    });
  }

  /** Settles the asks of batch `id`: each with its value, or with the error `errorOf` names for it. */
  answer(id: number, values: readonly Value[], errorOf: (index: number) => string | undefined): void {
    const pending = this.waiting.get(id);
    if (pending === undefined) return;
    this.waiting.delete(id);
    for (let i = 0; i < pending.length; i++) {
      const error = errorOf(i);
      if (error !== undefined) pending[i].reject(new Error(error));
      else pending[i].resolve(values[i]);
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.batch;
    this.batch = new Map();
    for (const [key, { items, pending }] of batch) {
      const id = this.nextId++;
      this.waiting.set(id, pending);
      this.send(id, key, items);
    }
  }
}
