/**
 * The snap peers a sync asks, and the rules for what an answer means:
 * - a request that times out or a peer that leaves: the work is retried, on another peer first;
 * - an empty answer (snap.md's "I do not have that state"): the peer is not asked about that root again for a
 *   while (a peer behind us may get the headers or state later; a root it dropped it never gets back);
 * - a bad answer (a proof that does not verify, a node whose hash is not the one asked for, more bytes than
 *   asked, garbage): the peer is dropped and blocked with the reason, and the work goes to another peer.
 * How much each request asks for, its timeout and how many a peer gets at once follow what the peer delivers
 * (rates.ts), so the work spreads over every peer that has the state in proportion to its speed. Near the
 * memory ceiling (memory.ts) fewer requests go out at once.
 */
import { bytesToHex } from '@ethereumjs/util';
import { DisconnectReason } from '../../rlpx/transport.js';
import { type EthSession, SessionError } from '../../eth/session.js';
import type { MemoryGuard } from './memory.js';
import { PeerRate, type RequestKind, type Ticket } from './rates.js';

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

const IDLE_WAIT_MS = 50;
/** How long an empty answer keeps a peer from being asked about that root (or those headers) again. */
const LACK_FORGET_MS = 30_000;

export interface SnapPeersOptions {
  readonly sessions: () => readonly EthSession[];
  readonly onBadPeer: (session: EthSession, reason: string) => void;
  readonly closed: () => boolean;
  /** A request failed for another reason than the answer (a timeout, a disconnect) and goes to another try. */
  readonly onRetry?: (reason: string) => void;
  /** Near the RSS ceiling fewer requests go out at once. */
  readonly memory?: MemoryGuard;
}

export class SnapPeers {
  readonly #opts: SnapPeersOptions;
  readonly #rates = new WeakMap<EthSession, PeerRate>();
  /** Per peer, the roots it answered empty for, with when. */
  readonly #lacks = new WeakMap<EthSession, Map<string, number>>();
  readonly #bad = new WeakSet<EthSession>();
  #inFlight = 0;
  /** Storage, code and trie-node requests waiting for a peer: new account ranges wait behind them. */
  #urgentWaiting = 0;
  /** Requests that timed out (for the progress line). */
  timeouts = 0;

  constructor(options: SnapPeersOptions) {
    this.#opts = options;
  }

  /** Snap-capable peers that passed the eth handshake and were not found lying. */
  usable(): EthSession[] {
    return this.#opts.sessions().filter((s) => s.ready && s.speaksSnap && !this.#bad.has(s) && !s.link.closed);
  }

  rate(peer: EthSession): PeerRate {
    let rate = this.#rates.get(peer);
    if (rate === undefined) this.#rates.set(peer, (rate = new PeerRate()));
    return rate;
  }

  /**
   * Runs `work` on a peer that may hold `root`, until one answers usefully; the ticket says how much to ask for
   * and how long to wait, and the work records the answer in it. Throws RootGone when every peer said it does
   * not hold the root, SyncClosed when the sync stops.
   */
  async run<T>(
    root: Uint8Array,
    work: (peer: EthSession, ticket: Ticket) => Promise<T>,
    kind: RequestKind = 'other',
  ): Promise<T> {
    const rootHex = bytesToHex(root);
    // Peers this work failed at: the next try goes to another peer while there is one.
    const tried = new Set<EthSession>();
    // An account range's chunk waits for its storage and codes before its next range, so those go first: a new
    // range waits while they wait (else they queue behind ranges at every peer and the chunks stall on them).
    const urgent = kind !== 'accounts';
    let waiting = false;
    const wait = (on: boolean) => {
      if (urgent && on !== waiting) this.#urgentWaiting += on ? 1 : -1;
      waiting = on;
    };
    try {
      return await this.runOn(rootHex, work, kind, tried, wait);
    } finally {
      wait(false);
    }
  }

  private async runOn<T>(
    rootHex: string,
    work: (peer: EthSession, ticket: Ticket) => Promise<T>,
    kind: RequestKind,
    tried: Set<EthSession>,
    wait: (on: boolean) => void,
  ): Promise<T> {
    for (;;) {
      if (this.#opts.closed()) throw new SyncClosed('snap sync stopped');
      const peers = this.usable();
      const holding = peers.filter((p) => !this.lacks(p, rootHex));
      if (peers.length > 0 && holding.length === 0) throw new RootGone(rootHex);
      const untried = holding.filter((p) => !tried.has(p));
      const yieldToUrgent = kind === 'accounts' && this.#urgentWaiting > 0;
      const peer = yieldToUrgent ? undefined : this.pick(untried.length > 0 ? untried : holding);
      if (peer === undefined) {
        wait(true);
        await new Promise((r) => setTimeout(r, IDLE_WAIT_MS));
        continue;
      }
      wait(false);
      const rate = this.rate(peer);
      const ticket = rate.ticket(kind);
      rate.inFlight++;
      this.#inFlight++;
      const sentAt = performance.now();
      try {
        const result = await work(peer, ticket);
        if (ticket.answered !== undefined)
          rate.answered(kind, ticket.bytes, ticket.answered.bytes, ticket.answered.at - sentAt);
        return result;
      } catch (err) {
        tried.add(peer);
        if (err instanceof BadAnswer) {
          this.#bad.add(peer);
          this.#opts.onBadPeer(peer, err.message);
        } else if (err instanceof NotHeld) {
          let lacks = this.#lacks.get(peer);
          if (lacks === undefined) this.#lacks.set(peer, (lacks = new Map()));
          lacks.set(rootHex, performance.now());
        } else if (err instanceof SyncClosed || err instanceof RootGone) throw err;
        // Anything else (a timeout, a disconnect): try again, on another peer if one is free.
        else {
          if (isTimeout(err)) {
            rate.timedOut(kind);
            this.timeouts++;
          }
          this.#opts.onRetry?.((err as Error).message);
        }
      } finally {
        rate.inFlight--;
        this.#inFlight--;
      }
    }
  }

  private lacks(peer: EthSession, rootHex: string): boolean {
    const since = this.#lacks.get(peer)?.get(rootHex);
    return since !== undefined && performance.now() - since < LACK_FORGET_MS;
  }

  /**
   * The peer with the most room under its window (resting peers only when no other has room), or undefined when
   * none has room or the memory guard holds new requests back.
   */
  private pick(peers: readonly EthSession[]): EthSession | undefined {
    const cap = this.#opts.memory?.requestCap(peers.length);
    if (cap !== undefined && this.#inFlight >= cap) return undefined;
    const now = performance.now();
    let best: EthSession | undefined;
    let bestRoom = 0;
    let bestResting = true;
    for (const p of peers) {
      const rate = this.rate(p);
      const room = rate.window - rate.inFlight;
      if (room <= 0) continue;
      const resting = rate.resting(now);
      if (best === undefined || (bestResting && !resting) || (resting === bestResting && room > bestRoom)) {
        best = p;
        bestRoom = room;
        bestResting = resting;
      }
    }
    // A resting peer gets work only when no peer is busy elsewhere (else the others take it when free).
    if (best !== undefined && bestResting && peers.some((p) => !this.rate(p).resting(now))) return undefined;
    return best;
  }
}

function isTimeout(err: unknown): boolean {
  return err instanceof SessionError && err.reason === DisconnectReason.TIMEOUT;
}
