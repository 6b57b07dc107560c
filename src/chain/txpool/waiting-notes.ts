/**
 * Why pooled transactions wait, by hash (txpool_content's `waiting`, txpool_inspect's `; waiting: …`): pending ones
 * the last block built on the head left out, and queued ones their sender cannot pay for at the head. The pool owns
 * one and deletes a note when its transaction leaves, so it is bounded by the pool's size.
 */
import type { PooledTx } from './pooled-tx.js';
import { etcText } from './wei-text.js';

interface WaitingNote {
  readonly reason: string;
  /** The head hash after which the transaction cannot go in as things stand (bulk empty blocks need not wait). */
  readonly stuckAt?: string;
  /** When its sender became unable to pay for it: its queued lifetime runs from then. */
  readonly unpayableSince?: number;
}

export class WaitingNotes {
  readonly #notes = new Map<string, WaitingNote>();

  reasonOf(hashHex: string): string | undefined {
    return this.#notes.get(hashHex)?.reason;
  }

  /** When the sender became unable to pay for it; undefined when it can. */
  unpayableSince(hashHex: string): number | undefined {
    return this.#notes.get(hashHex)?.unpayableSince;
  }

  /** A block built on the head left it out; `stuckAt` when it cannot go into the next one either. */
  noteLeftOut(hashHex: string, reason: string, stuckAt: string | undefined): void {
    this.#notes.set(hashHex, stuckAt === undefined ? { reason } : { reason, stuckAt });
  }

  /** The state changed under the head or the head moved: what was stuck is tried again. */
  unstickAll(): void {
    for (const [hashHex, note] of this.#notes)
      if (note.stuckAt !== undefined) this.#notes.set(hashHex, { reason: note.reason });
  }

  /** Hashes noted stuck after the head `headHex`. */
  *stuckAfter(headHex: string): IterableIterator<string> {
    for (const [hashHex, note] of this.#notes) if (note.stuckAt === headHex) yield hashHex;
  }

  /** Hashes their sender cannot pay for as last read. */
  *unpayable(): IterableIterator<string> {
    for (const [hashHex, note] of this.#notes) if (note.unpayableSince !== undefined) yield hashHex;
  }

  /**
   * One sender's transactions (`all`) after a balance read: those in `unpayable` get (or keep) the reason naming
   * the balance and the cost, the others lose an unpayable note they had. Returns the notes that are new or changed.
   */
  noteBalance(
    all: Iterable<PooledTx>,
    unpayable: ReadonlySet<PooledTx>,
    balance: bigint,
    now: number,
  ): Array<{ tx: PooledTx; reason: string }> {
    const changed: Array<{ tx: PooledTx; reason: string }> = [];
    for (const tx of all) {
      const note = this.#notes.get(tx.hashHex);
      if (!unpayable.has(tx)) {
        if (note?.unpayableSince !== undefined) this.#notes.delete(tx.hashHex);
        continue;
      }
      const reason = `sender balance ${etcText(balance)} is below the cost ${etcText(tx.cost)}`;
      if (note?.reason === reason) continue;
      this.#notes.set(tx.hashHex, { reason, unpayableSince: note?.unpayableSince ?? now });
      changed.push({ tx, reason });
    }
    return changed;
  }

  delete(hashHex: string): void {
    this.#notes.delete(hashHex);
  }

  clear(): void {
    this.#notes.clear();
  }
}
