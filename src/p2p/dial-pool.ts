/**
 * Dial candidates found by discovery and DNS: unlike static peers they are not kept connected, only tried while
 * there is room for outbound links. The pool is bounded (the oldest candidate goes first), and a candidate that
 * failed waits longer before the next try.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { Enode } from './enode.js';
import type { PeerSource } from './types.js';

export interface DialTarget {
  readonly enode: Enode;
  readonly idHex: string;
  readonly foundBy: PeerSource;
  /** true for pool candidates (tried while there is room), false for static peers (kept connected). */
  readonly pooled: boolean;
  nextDialAt: number;
  failures: number;
  /** When an unreachable configured peer was last reported at info (rate limit of that line). */
  loggedAt?: number;
}

const MAX_CANDIDATES = 1_000;
/** A candidate that failed this often is forgotten (it comes back if discovery finds it again). */
const MAX_FAILURES = 5;

export class DialPool {
  readonly #candidates = new Map<string, DialTarget>();

  constructor(private readonly baseDelayMs: number) {}

  get size(): number {
    return this.#candidates.size;
  }

  add(enode: Enode, foundBy: PeerSource): void {
    const idHex = bytesToHex(enode.id).slice(2);
    const known = this.#candidates.get(idHex);
    if (known !== undefined) {
      // Re-found: the address may have moved; keep the back-off of earlier failures.
      this.#candidates.set(idHex, { ...known, enode });
      return;
    }
    if (this.#candidates.size >= MAX_CANDIDATES) this.#candidates.delete(this.#candidates.keys().next().value!);
    this.#candidates.set(idHex, { enode, idHex, foundBy, pooled: true, nextDialAt: 0, failures: 0 });
  }

  get(idHex: string): DialTarget | undefined {
    return this.#candidates.get(idHex);
  }

  remove(idHex: string): void {
    this.#candidates.delete(idHex);
  }

  /** Candidates whose time has come, in the order found, skipping those `skip` rules out. */
  *due(now: number, skip: (t: DialTarget) => boolean): Generator<DialTarget> {
    for (const t of this.#candidates.values()) if (t.nextDialAt <= now && !skip(t)) yield t;
  }

  /** After an attempt: success resets, failure backs off (or forgets the candidate after too many). */
  settle(t: DialTarget, ok: boolean): void {
    if (ok) {
      t.failures = 0;
      return;
    }
    t.failures++;
    if (t.failures >= MAX_FAILURES) this.#candidates.delete(t.idHex);
    else t.nextDialAt = Date.now() + this.baseDelayMs * 2 ** t.failures * (1 + Math.random());
  }
}
