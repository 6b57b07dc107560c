/**
 * The per-peer serving budget: at most N snap requests of one peer are being answered at a time; the peer's
 * further requests wait their turn (they are not dropped, so an honest peer that pipelines only waits longer).
 * Snap answers walk tries and read the database, so without it one peer asking many ranges at once would take
 * the node's whole I/O while other peers' requests (and the node's own work) queue behind it.
 */

/** The default requests in flight per peer: enough to overlap a read with sending the previous answer. */
export const DEFAULT_SNAP_REQUESTS_PER_PEER = 2;

interface PeerSlots {
  active: number;
  readonly waiting: (() => void)[];
}

export class PerPeerBudget {
  /** Keyed by the peer's session object: nothing to clean up when it goes. */
  private readonly peers = new WeakMap<object, PeerSlots>();

  constructor(readonly perPeer: number = DEFAULT_SNAP_REQUESTS_PER_PEER) {
    if (!Number.isInteger(perPeer) || perPeer < 1)
      throw new RangeError(`requests per peer must be ≥ 1, got ${perPeer}`);
  }

  /** Runs `work` once fewer than `perPeer` of this peer's requests are running; in arrival order. */
  async run<T>(peer: object, work: () => Promise<T>): Promise<T> {
    let slots = this.peers.get(peer);
    if (slots === undefined) this.peers.set(peer, (slots = { active: 0, waiting: [] }));
    if (slots.active < this.perPeer) slots.active++;
    else await new Promise<void>((resolve) => slots.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so a newcomer cannot overtake the queue.
      const next = slots.waiting.shift();
      if (next !== undefined) next();
      else slots.active--;
    }
  }

  /** Requests of this peer running and waiting (for tests and metrics). */
  load(peer: object): { readonly active: number; readonly waiting: number } {
    const slots = this.peers.get(peer);
    return { active: slots?.active ?? 0, waiting: slots?.waiting.length ?? 0 };
  }
}
