import type { Common } from '@ethereumjs/common';
import { describe, expect, it } from 'vitest';
import type { OpenedState } from '../state/state-view.js';
import { KeptState } from './kept-state.js';

const common = {} as Common;
const otherCommon = {} as Common;
const hash = (n: number) => Uint8Array.of(n);
const root = Uint8Array.of(0xaa);
function state(): OpenedState {
  return {
    stateManager: { trieRoot: () => root },
    buffer: { pending: new Map([['node', Uint8Array.of(1)]]) },
  } as unknown as OpenedState;
}

describe('kept state', () => {
  it("is lent to the head's child only, under the same Common, once, with its buffer emptied", () => {
    const kept = new KeptState();
    const s = state();
    kept.keep(hash(1), s, common, 0n);
    // Not the parent, or the parent no longer the head, or other rules: a fresh state (and the kept one is gone).
    expect(kept.take(hash(2), root, hash(2), common)).toBeUndefined();
    kept.keep(hash(1), s, common, 0n);
    expect(kept.take(hash(1), root, hash(9), common)).toBeUndefined();
    kept.keep(hash(1), s, common, 0n);
    expect(kept.take(hash(1), root, hash(1), otherCommon)).toBeUndefined();
    // The head's post-state edited in place (dev state edits): another root under the same hash.
    kept.keep(hash(1), s, common, 0n);
    expect(kept.take(hash(1), Uint8Array.of(0xbb), hash(1), common)).toBeUndefined();
    kept.keep(hash(1), s, common, 0n);
    expect(kept.take(hash(1), root, hash(1), common)).toBe(s);
    expect(s.buffer.pending.size).toBe(0);
    expect(kept.take(hash(1), root, hash(1), common)).toBeUndefined();
  });

  it('is given up for a fresh one after a bounded run of blocks or of gas', () => {
    const kept = new KeptState();
    const s = state();
    let blocks = 0;
    kept.keep(hash(0), s, common, 0n);
    for (let n = 0; kept.take(hash(n), root, hash(n), common) === s; n++) {
      blocks++;
      kept.keep(hash(n + 1), s, common, 0n);
    }
    expect(blocks).toBeGreaterThan(100);
    expect(blocks).toBeLessThan(10_000);
    kept.keep(hash(1), s, common, 0n);
    expect(kept.take(hash(1), root, hash(1), common)).toBe(s);
    kept.keep(hash(2), s, common, 40_000_000n);
    expect(kept.take(hash(2), root, hash(2), common)).toBeUndefined();
  });
});
