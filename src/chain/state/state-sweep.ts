/**
 * The sweep phase of state pruning: every trie node (`'S'` + 32-byte hash) and contract code (`'S' 'c'` + code
 * hash) of the state table that the marks do not hold is deleted. Other keys are never touched, whatever their
 * tag. Keys come in chunks from LevelDB's iterator (off the main thread); each chunk's check and delete batch is
 * one short turn, and `deleteStale` re-checks the marks in the turn the deletes are queued, so a node a block
 * writes again meanwhile survives.
 */
import type { ChainDB } from '../db/chain-db.js';
import { Tag } from '../db/keys.js';

const CHUNK = 256;
const CODE_PREFIX = 0x63;

/** A key the sweep may delete: a node or a code, nothing else of the state table. */
export function isSweepable(key: Uint8Array): boolean {
  if (key[0] !== Tag.state) return false;
  return key.length === 33 || (key.length === 34 && key[1] === CODE_PREFIX);
}

export interface SweepFigures {
  /** State-table keys looked at. */
  readonly scanned: number;
  readonly swept: number;
  /** The longest turn spent on one chunk, in milliseconds. */
  readonly longestTurnMs: number;
}

export interface SweepOptions {
  /** Whether a state-table id (the key without its tag) is live; asked again in the turn of the delete. */
  readonly live: (id: Uint8Array) => boolean;
  /** Asked between chunks: true ends the sweep early (what was deleted stays deleted, all of it garbage). */
  readonly stopped?: () => boolean;
  /** After each chunk, with the figures so far (a progress line). */
  readonly onChunk?: (figures: SweepFigures) => void;
}

export async function sweepState(db: ChainDB, opts: SweepOptions): Promise<SweepFigures> {
  const keys = db.keys({ gte: Uint8Array.of(Tag.state), lt: Uint8Array.of(Tag.state + 1) });
  const stale = (key: Uint8Array) => !opts.live(key.subarray(1));
  let scanned = 0;
  let swept = 0;
  let longestTurnMs = 0;
  try {
    for (;;) {
      if (opts.stopped?.() === true) break;
      const chunk = await keys.nextv(CHUNK);
      if (chunk.length === 0) break;
      const started = performance.now();
      scanned += chunk.length;
      const candidates = chunk.filter((key) => isSweepable(key) && stale(key));
      const deleting = db.deleteStale(candidates, stale);
      longestTurnMs = Math.max(longestTurnMs, performance.now() - started);
      swept += await deleting;
      opts.onChunk?.({ scanned, swept, longestTurnMs });
    }
  } finally {
    await keys.close();
  }
  return { scanned, swept, longestTurnMs };
}
