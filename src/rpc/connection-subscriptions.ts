/**
 * One WebSocket connection's subscriptions, owned by the connection (`ClientConnection.subscriptions`): the ids it
 * may cancel (an id from another connection is unknown to it), and their cancellation when it closes. A
 * subscription lives exactly as long as its socket: no idle expiry, nothing left behind.
 */

/** A subscription as its connection holds it: the id the client was given, and how to cancel it. */
export interface OwnedSubscription {
  readonly id: string;
  unsubscribe(): boolean;
}

export class ConnectionSubscriptions {
  readonly #entries = new Map<string, OwnedSubscription>();
  #closed = false;

  /** True once the connection has gone: nothing may be added then. */
  get closed(): boolean {
    return this.#closed;
  }

  add(entry: OwnedSubscription): void {
    this.#entries.set(entry.id, entry);
  }

  /** Removes and returns the subscription with `id`; undefined when the connection owns none. */
  take(id: string): OwnedSubscription | undefined {
    const entry = this.#entries.get(id);
    if (entry !== undefined) this.#entries.delete(id);
    return entry;
  }

  /** The connection closed: every subscription is cancelled. */
  close(): void {
    this.#closed = true;
    for (const entry of this.#entries.values()) entry.unsubscribe();
    this.#entries.clear();
  }
}
