/**
 * The per-peer serving budget, shared by eth/68 (eth/serve.ts) and snap/1 (snap/serve.ts): at most N requests of
 * one peer are being answered at a time; the peer's further requests wait their turn in arrival order, up to a
 * bound. A peer past that bound is asking faster than it reads and is refused (the session disconnects it), a peer
 * whose link closed has its waiting requests dropped unanswered, and no request starts while the peer's socket
 * still holds more than a bound of unsent answer bytes (it does not read them: producing more would only pile
 * answers up in our memory).
 *
 * Without it one peer pipelining a thousand header requests made the node build all thousand answers at once
 * (gigabytes) and go on building them after the peer had left (issue 37).
 */

/** The default requests in flight per peer: enough to overlap a read with sending the previous answer. */
export const DEFAULT_REQUESTS_PER_PEER = 2;
/** The default bound of a peer's waiting requests; past it the peer is refused. */
export const DEFAULT_QUEUED_PER_PEER = 64;
/** No request of a peer starts while its socket holds more unsent bytes than this (two eth answers' worth). */
export const DEFAULT_MAX_UNSENT_BYTES = 4 * 1024 * 1024;

/** The asking peer as the budget sees it: its link, whether it is gone, and its unsent bytes. */
export interface ServedPeer {
  readonly link: {
    readonly closed: boolean;
    /** Closed, or we sent DISCONNECT and wait for the socket to close: nothing more will be sent either way. */
    readonly closing?: boolean;
    /** Resolves once the link holds at most `bytes` unsent bytes, or has closed. */
    writableBelow?(bytes: number): Promise<void>;
  };
}

/** The peer has more requests waiting than its budget's bound: it is to be disconnected. */
export class ServeQueueFull extends Error {
  constructor(
    readonly waiting: number,
    readonly inFlight: number,
  ) {
    super(
      `more than ${waiting} requests waiting behind ${inFlight} being answered: the peer asks faster than it reads`,
    );
    this.name = 'ServeQueueFull';
  }
}

/** The request was dropped unanswered because its peer's link closed. */
export class ServeCancelled extends Error {
  constructor() {
    super('peer left: request dropped unanswered');
    this.name = 'ServeCancelled';
  }
}

/** Whether nothing more can be sent to the peer: its requests are not worth answering. */
export function isGone(peer: ServedPeer): boolean {
  return peer.link.closed || peer.link.closing === true;
}

export interface PerPeerBudgetOptions {
  /** Requests of one peer answered at a time (≥ 1). */
  readonly inFlight?: number;
  /** Requests of one peer that may wait; one more is refused with ServeQueueFull. */
  readonly maxQueued?: number;
  /** Unsent bytes on the peer's link above which the next request waits. */
  readonly maxUnsentBytes?: number;
}

interface Waiter {
  readonly resume: () => void;
  readonly cancel: (err: Error) => void;
}

interface PeerLane {
  active: number;
  readonly waiting: Waiter[];
}

export class PerPeerBudget {
  /** Keyed by the peer's session object: a peer that goes without `drop` leaves nothing behind. */
  private readonly peers = new WeakMap<object, PeerLane>();
  readonly perPeer: number;
  readonly maxQueued: number;
  readonly maxUnsentBytes: number;

  constructor(opts: PerPeerBudgetOptions | number = {}) {
    const o = typeof opts === 'number' ? { inFlight: opts } : opts;
    this.perPeer = o.inFlight ?? DEFAULT_REQUESTS_PER_PEER;
    this.maxQueued = o.maxQueued ?? DEFAULT_QUEUED_PER_PEER;
    this.maxUnsentBytes = o.maxUnsentBytes ?? DEFAULT_MAX_UNSENT_BYTES;
    if (!Number.isInteger(this.perPeer) || this.perPeer < 1)
      throw new RangeError(`requests per peer must be ≥ 1, got ${this.perPeer}`);
    if (!Number.isInteger(this.maxQueued) || this.maxQueued < 0)
      throw new RangeError(`queued requests per peer must be ≥ 0, got ${this.maxQueued}`);
  }

  /**
   * Runs `work` once fewer than `perPeer` of this peer's requests are running and its link has room, in arrival
   * order. Rejects with ServeQueueFull (nothing queued) when the peer already has `maxQueued` waiting, and with
   * ServeCancelled when the peer's link closed before its turn came.
   */
  async run<T>(peer: ServedPeer, work: () => Promise<T>): Promise<T> {
    let lane = this.peers.get(peer);
    if (lane === undefined) this.peers.set(peer, (lane = { active: 0, waiting: [] }));
    if (lane.active < this.perPeer) lane.active++;
    else {
      if (lane.waiting.length >= this.maxQueued) throw new ServeQueueFull(this.maxQueued, this.perPeer);
      await new Promise<void>((resume, cancel) => lane.waiting.push({ resume, cancel }));
    }
    try {
      if (isGone(peer)) throw new ServeCancelled();
      // Backpressure: a peer that does not read its answers gets no new one built meanwhile.
      await peer.link.writableBelow?.(this.maxUnsentBytes);
      if (isGone(peer)) throw new ServeCancelled();
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer cannot overtake the queue.
      const next = lane.waiting.shift();
      if (next !== undefined) next.resume();
      else lane.active--;
    }
  }

  /** The peer's link closed: its waiting requests are dropped (ServeCancelled); running ones stop on their own. */
  drop(peer: object): void {
    const lane = this.peers.get(peer);
    if (lane === undefined) return;
    this.peers.delete(peer);
    const cancelled = new ServeCancelled();
    for (const waiter of lane.waiting.splice(0)) waiter.cancel(cancelled);
  }

  /** Requests of this peer running and waiting (for tests and metrics). */
  load(peer: object): { readonly active: number; readonly waiting: number } {
    const lane = this.peers.get(peer);
    return { active: lane?.active ?? 0, waiting: lane?.waiting.length ?? 0 };
  }
}
