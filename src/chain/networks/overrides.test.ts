import { describe, expect, it } from 'vitest';
import { dev } from './dev.js';
import { mordor } from './mordor.js';
import { ETC_FORK_NAMES, forksAhead, movedForksPassed, parseForkBlock, withForkOverrides } from './overrides.js';

describe('fork overrides', () => {
  it('moves a fork, unschedules one, and leaves the definition alone without any', () => {
    expect(withForkOverrides(dev, {})).toBe(dev);
    const moved = withForkOverrides(dev, { spiral: 20n });
    expect(moved.forks.spiral).toBe(20n);
    expect(moved.forks.mystique).toBe(0n);
    expect(withForkOverrides(mordor, { spiral: null }).forks.spiral).toBeNull();
    // Thanos is also the Etchash epoch change.
    expect(withForkOverrides(mordor, { thanos: 2_600_000n, magneto: 3_985_893n }).pow.ecip1099Block).toBe(2_600_000n);
  });

  it('refuses a fork before one it builds on, and a scheduled fork after an unscheduled one', () => {
    expect(() => withForkOverrides(dev, { mystique: 30n, spiral: 20n })).toThrow(
      /spiral at 20 \(override\) builds on mystique, which would come after it/,
    );
    expect(() => withForkOverrides(mordor, { mystique: null })).toThrow(/spiral at 9957000 builds on mystique/);
  });

  it('names the fork a typo meant', () => {
    expect(() => withForkOverrides(dev, { spiarl: 1n } as never)).toThrow(
      /unknown fork "spiarl": did you mean spiral\?/,
    );
  });

  it('parses blocks and never', () => {
    expect(parseForkBlock('spiral', '1_000')).toBe(1000n);
    expect(parseForkBlock('spiral', 20)).toBe(20n);
    expect(parseForkBlock('spiral', 'never')).toBeNull();
    expect(() => parseForkBlock('spiral', '-1')).toThrow(/block number/);
  });

  it('lists the forks ahead and the moved forks a head passed', () => {
    const moved = withForkOverrides(dev, { spiral: 20n });
    expect(forksAhead(moved, 5n, { spiral: 20n })).toEqual([{ fork: 'spiral', block: 20n, overridden: true }]);
    expect(forksAhead(moved, 20n)).toEqual([]);
    expect(movedForksPassed(dev.forks, moved.forks, 19n)).toEqual([{ fork: 'spiral', was: 0n, now: 20n }]);
    expect(movedForksPassed(moved.forks, moved.forks, 19n)).toEqual([]);
    const later = withForkOverrides(mordor, { spiral: 10_000_000n });
    expect(movedForksPassed(mordor.forks, later.forks, 9_956_999n)).toEqual([]);
    expect(movedForksPassed(mordor.forks, later.forks, 9_957_000n)).toHaveLength(1);
    expect(ETC_FORK_NAMES[0]).toBe('homestead');
  });
});
