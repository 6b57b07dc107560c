/**
 * How the seal checker (src/chain/exec/seal-checker.ts) groups the blocks it is given into the runs it posts to its
 * worker: held while they keep coming (none for 20 ms ends a run), at most 100 ms from a run's first block, at most
 * half the lag bound, and no longer than the worker's run under way. The worker is not started: the runs are
 * recorded where they would be posted.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBlock } from '@ethereumjs/block';
import { Common, Mainnet } from '@ethereumjs/common';
import type { FromSealWorker } from '../../../src/chain/exec/seal-check-protocol.js';
import { SealChecker, type SealCheckSubject } from '../../../src/chain/exec/seal-checker.js';
import { dev } from '../../../src/chain/networks/index.js';
import type { TrieNodeStore } from '../../../src/chain/state/trie-db.js';

const common = new Common({ chain: Mainnet });

function recordingChecker(lag = 16): { checker: SealChecker; runs: number[][] } {
  const checker = new SealChecker({
    setup: { network: dev, checkpointing: false, nodeCache: 16 },
    nodes: {} as TrieNodeStore,
    lag,
    onMismatch: () => {},
    onError: () => {},
  });
  const runs: number[][] = [];
  (checker as unknown as { send: (jobs: readonly { id: number }[]) => void }).send = (jobs) => {
    runs.push(jobs.map((j) => j.id));
  };
  return { checker, runs };
}

function subject(number: bigint): SealCheckSubject {
  return {
    block: createBlock({ header: { number } }, { common }),
    parentRoot: new Uint8Array(32),
    ancestors: {
      getBlock: async () => undefined as never,
      putBlock: async () => {},
      shallowCopy: () => undefined as never,
    },
    rewards: [],
    receipts: [],
  };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the seal checker holds blocks while they keep coming', () => {
  it('posts blocks sealed 15 ms apart as one run once none has come for 20 ms', async () => {
    const { checker, runs } = recordingChecker();
    for (let n = 1n; n <= 5n; n++) {
      checker.submit(subject(n));
      await vi.advanceTimersByTimeAsync(15);
    }
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(5);
    expect(runs).toEqual([[1, 2, 3, 4, 5]]);
  });

  it('posts the blocks held while the worker checked a run as soon as its verdicts are back', async () => {
    const { checker, runs } = recordingChecker();
    const verdicts = (ids: number[]) =>
      (checker as unknown as { onMessage: (m: FromSealWorker) => void }).onMessage({
        kind: 'verdicts',
        verdicts: ids.map((id) => ({ id, differences: [] })),
      });
    checker.submit(subject(1n));
    await vi.advanceTimersByTimeAsync(20);
    expect(runs).toEqual([[1]]);
    checker.submit(subject(2n));
    checker.submit(subject(3n));
    verdicts([1]);
    expect(runs).toEqual([[1], [2, 3]]);
    verdicts([2, 3]);
    expect(checker.stats).toMatchObject({ checked: 3, pending: 0 });
  });

  it("makes a block's job (the bytes its worker gets) when its run is posted, not on the import's way to the answer", async () => {
    const { checker, runs } = recordingChecker();
    const receipts: SealCheckSubject['receipts'] = [];
    const made = vi.spyOn(receipts, 'map');
    checker.submit({ ...subject(1n), receipts });
    expect(checker.stats.pending).toBe(1);
    expect(made).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(20);
    expect(runs).toEqual([[1]]);
    expect(made).toHaveBeenCalledTimes(1);
  });

  it('posts a run 100 ms after its first block at the latest, and at half the lag bound at the most', async () => {
    const { checker, runs } = recordingChecker();
    for (let n = 1n; n <= 8n; n++) {
      checker.submit(subject(n));
      await vi.advanceTimersByTimeAsync(19);
    }
    // Blocks 1-6 came within 95 ms; block 7, at 114 ms, went with them.
    expect(runs).toEqual([[1, 2, 3, 4, 5, 6, 7]]);
    await vi.advanceTimersByTimeAsync(20);
    expect(runs).toEqual([[1, 2, 3, 4, 5, 6, 7], [8]]);
    const small = recordingChecker(6);
    for (let n = 1n; n <= 3n; n++) small.checker.submit(subject(n));
    await vi.advanceTimersByTimeAsync(0);
    expect(small.runs).toEqual([[1, 2, 3]]);
  });
});
