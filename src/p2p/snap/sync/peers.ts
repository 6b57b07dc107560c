/**
 * The snap peers a sync asks, and the rules for what an answer means:
 * - a request that times out or a peer that leaves: the work is simply retried on another peer;
 * - an empty answer (snap.md's "I do not have that state"): the peer is not asked about that root again;
 * - a bad answer (a proof that does not verify, a node whose hash is not the one asked for, more bytes than
 *   asked, garbage): the peer is dropped and blocked with the reason, and the work goes to another peer.
 * Each peer gets a few requests at a time, so the work spreads over every peer that has the state.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { EthSession } from '../../eth/session.js';

/** The peer's answer is wrong: it is dropped and blocked. */
export class BadAnswer extends Error {
  override name = 'BadAnswer';
}

/** The peer answered empty: it does not hold the state under this root (any more). */
export class NotHeld extends Error {
  override name = 'NotHeld';
}

/** No peer holds the root any more: the caller moves on to a newer pivot. */
export class RootGone extends Error {
  override name = 'RootGone';
  constructor(readonly root: string) {
    super(`no peer serves state root ${root}`);
  }
}

export class SyncClosed extends Error {
  override name = 'SyncClosed';
}

/** Requests in flight per peer from the sync. */
const PER_PEER = 3;
const IDLE_WAIT_MS = 100;

export interface SnapPeersOptions {
  readonly sessions: () => readonly EthSession[];
  readonly onBadPeer: (session: EthSession, reason: string) => void;
  readonly closed: () => boolean;
  /** A request failed for another reason than the answer (a timeout, a disconnect) and goes to another try. */
  readonly onRetry?: (reason: string) => void;
}

export class SnapPeers {
  readonly #opts: SnapPeersOptions;
  readonly #busy = new Map<EthSession, number>();
  /** Per peer, the roots it answered empty for. */
  readonly #lacks = new WeakMap<EthSession, Set<string>>();
  readonly #bad = new WeakSet<EthSession>();

  constructor(options: SnapPeersOptions) {
    this.#opts = options;
  }

  /** Snap-capable peers that passed the eth handshake and were not found lying. */
  usable(): EthSession[] {
    return this.#opts.sessions().filter((s) => s.ready && s.speaksSnap && !this.#bad.has(s) && !s.link.closed);
  }

  /**
   * Runs `work` on a peer that may hold `root`, until one answers usefully. Throws RootGone when every peer said
   * it does not hold the root, SyncClosed when the sync stops.
   */
  async run<T>(root: Uint8Array, work: (peer: EthSession) => Promise<T>): Promise<T> {
    const rootHex = bytesToHex(root);
    for (;;) {
      if (this.#opts.closed()) throw new SyncClosed('snap sync stopped');
      const peers = this.usable();
      const holding = peers.filter((p) => !this.#lacks.get(p)?.has(rootHex));
      if (peers.length > 0 && holding.length === 0) throw new RootGone(rootHex);
      const peer = this.leastBusy(holding);
      if (peer === undefined) {
        await new Promise((r) => setTimeout(r, IDLE_WAIT_MS));
        continue;
      }
      this.#busy.set(peer, (this.#busy.get(peer) ?? 0) + 1);
      try {
        return await work(peer);
      } catch (err) {
        if (err instanceof BadAnswer) {
          this.#bad.add(peer);
          this.#opts.onBadPeer(peer, err.message);
        } else if (err instanceof NotHeld) {
          let lacks = this.#lacks.get(peer);
          if (lacks === undefined) this.#lacks.set(peer, (lacks = new Set()));
          lacks.add(rootHex);
        } else if (err instanceof SyncClosed || err instanceof RootGone) throw err;
        // Anything else (a timeout, a disconnect): try again, on whichever peer is free.
        else this.#opts.onRetry?.((err as Error).message);
      } finally {
        const n = (this.#busy.get(peer) ?? 1) - 1;
        if (n <= 0) this.#busy.delete(peer);
        else this.#busy.set(peer, n);
      }
    }
  }

  private leastBusy(peers: readonly EthSession[]): EthSession | undefined {
    let best: EthSession | undefined;
    let bestLoad = PER_PEER;
    for (const p of peers) {
      const load = this.#busy.get(p) ?? 0;
      if (load < bestLoad) {
        best = p;
        bestLoad = load;
      }
    }
    return best;
  }
}
