import { describe, expect, it } from 'vitest';
import { StateRetention } from './retention.js';

describe('StateRetention', () => {
  const full = new StateRetention({ mode: 'full', keepStates: 128, checkpointInterval: 128, checkpoints: 2 });

  it('keeps the window of recent states and two sparse checkpoints below it', () => {
    const head = 1000n;
    expect(full.windowFloor(head)).toBe(873n);
    expect(full.checkpointNumbers(head)).toEqual([768n, 640n]);
    expect(full.isKept(873n, head)).toBe(true);
    expect(full.isKept(872n, head)).toBe(false);
    expect(full.isKept(768n, head)).toBe(true);
    expect(full.oldestKept(head)).toBe(640n);
    // A block 200 back re-executes from a checkpoint at most one interval below its parent.
    expect(full.nearestKeptAtOrBelow(799n, head)).toBe(768n);
    expect(full.keptNumbers(head)).toHaveLength(130);
  });

  it('keeps everything near genesis and in archive mode', () => {
    expect(full.isKept(0n, 100n)).toBe(true);
    expect(full.checkpointNumbers(100n)).toEqual([]);
    expect(full.checkpointNumbers(128n)).toEqual([0n]);
    const archive = new StateRetention();
    expect(archive.isKept(0n, 10_000n)).toBe(true);
    expect(archive.oldestKept(10_000n)).toBe(0n);
  });

  it('names the way out in its error', () => {
    expect(full.notKeptMessage(5n)).toBe(
      'state of block 5 is not kept (this node keeps the last 128 states; start with --gcmode archive for older ones)',
    );
  });

  it('starts a replay on the state itself when kept, else on the nearest kept one within reexec', () => {
    const tight = new StateRetention({
      mode: 'full',
      keepStates: 16,
      checkpointInterval: 16,
      checkpoints: 2,
      reexec: 8,
    });
    // Head 60 keeps 45..60, 32 and 16.
    expect(tight.reexecStart(50n, 60n)).toBe(50n);
    expect(tight.reexecStart(40n, 60n)).toBe(32n);
    expect(tight.reexecStart(41n, 60n)).toBeUndefined();
    expect(tight.reexecStart(9n, 60n)).toBeUndefined();
    expect(full.reexecStart(799n, 1000n)).toBe(768n);
    const err = tight.notKeptError(20n, 60n);
    expect([err.block, err.oldestKept, err.message]).toEqual([20n, 16n, tight.notKeptMessage(20n)]);
  });
});
