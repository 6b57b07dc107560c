import { describe, expect, it } from 'vitest';
import { PolledBuffer } from '../../../src/chain/filters/polled-buffer.js';
import { WatcherIndex, type CriteriaGroup } from '../../../src/chain/filters/watcher-index.js';
import { compileCriteria, matchesLog } from '../../../src/chain/logs/match.js';
import type { Log, LogCriteria, TopicCriterion } from '../../../src/chain/logs/types.js';
import { addr, topic } from '../logs/synthetic-chain.js';

interface Watcher {
  readonly name: number;
  readonly group: CriteriaGroup<Watcher>;
}

const positioned = (address: number, topics: number[], logIndex: number): Log => ({
  address: addr(address),
  topics: topics.map(topic),
  data: new Uint8Array(0),
  blockNumber: 1n,
  blockHash: new Uint8Array(32),
  blockTimestamp: 0n,
  transactionHash: new Uint8Array(32),
  transactionIndex: 0,
  logIndex,
  removed: false,
});

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % below;
  };
}

function randomCriteria(next: (below: number) => number): LogCriteria {
  const values = (make: (n: number) => Uint8Array, count: number) => Array.from({ length: count }, () => make(next(4)));
  const addresses = next(3) === 0 ? undefined : values(addr, 1 + next(2));
  const topics: TopicCriterion[] = Array.from({ length: next(4) }, () => {
    const kind = next(4);
    return kind === 0 ? null : kind === 1 ? topic(next(4)) : kind === 2 ? values(topic, 1 + next(3)) : [];
  });
  return { ...(addresses !== undefined ? { addresses } : {}), topics };
}

describe('WatcherIndex', () => {
  it('finds exactly the watchers whose criteria match each log, in log order (against testing every pair)', () => {
    const next = random(7);
    const index = new WatcherIndex<Watcher>();
    const watchers: { watcher: Watcher; criteria: LogCriteria }[] = [];
    for (let i = 0; i < 300; i++) {
      const criteria = randomCriteria(next);
      watchers.push({ criteria, watcher: index.add(criteria, (group) => ({ name: i, group })) });
    }
    // Remove a third of them, as uninstalls and expiries do.
    for (const { watcher } of watchers.splice(0, 100)) index.remove(watcher.group, watcher);
    const logs = Array.from({ length: 60 }, (_, i) =>
      positioned(
        next(5),
        Array.from({ length: next(4) }, () => next(5)),
        i,
      ),
    );

    const found = new Map<number, number[]>();
    for (const [group, matched] of index.match(logs)) {
      for (const w of group.members)
        found.set(
          w.name,
          matched.map((l) => l.logIndex),
        );
    }
    const expected = new Map<number, number[]>();
    for (const { watcher, criteria } of watchers) {
      const compiled = compileCriteria(criteria);
      const indexes = logs.filter((l) => matchesLog(compiled, l)).map((l) => l.logIndex);
      if (indexes.length > 0) expected.set(watcher.name, indexes);
    }
    expect(expected.size).toBeGreaterThan(50); // the generator produces real matches, not only misses
    expect(new Map([...found].sort(([a], [b]) => a - b))).toEqual(new Map([...expected].sort(([a], [b]) => a - b)));
  });

  it('groups watchers with the same criteria, whatever the order or repetition of OR-values', () => {
    const index = new WatcherIndex<Watcher>();
    const a = index.add({ addresses: [addr(1), addr(2)], topics: [[topic(1), topic(2)]] }, (group) => ({
      name: 1,
      group,
    }));
    const b = index.add({ addresses: [addr(2), addr(1), addr(2)], topics: [[topic(2), topic(1)]] }, (group) => ({
      name: 2,
      group,
    }));
    const longer = index.add({ addresses: [addr(1), addr(2)], topics: [[topic(1), topic(2)], null] }, (group) => ({
      name: 3,
      group,
    }));
    expect(a.group).toBe(b.group);
    expect(longer.group).not.toBe(a.group); // a trailing wildcard still demands a second topic
    expect(index.groupCount).toBe(2);
    const matched = index.match([positioned(2, [1], 0), positioned(1, [2, 9], 1)]);
    expect(matched.get(a.group)?.map((l) => l.logIndex)).toEqual([0, 1]);
    expect(matched.get(longer.group)?.map((l) => l.logIndex)).toEqual([1]);
    index.remove(a.group, a);
    expect(index.groupCount).toBe(2);
    index.remove(b.group, b);
    expect(index.groupCount).toBe(1);
    expect(index.match([positioned(2, [1], 0)]).size).toBe(0);
  });

  it('skips a block whose bloom no group can match', () => {
    const index = new WatcherIndex<Watcher>();
    const bloom = new Uint8Array(256);
    expect(index.mayMatchBloom(bloom)).toBe(false);
    const w = index.add({ addresses: [addr(1)] }, (group) => ({ name: 1, group }));
    expect(index.mayMatchBloom(bloom)).toBe(false);
    expect(index.mayMatchBloom(new Uint8Array(256).fill(0xff))).toBe(true);
    index.remove(w.group, w);
    index.add({}, (group) => ({ name: 2, group }));
    expect(index.mayMatchBloom(bloom)).toBe(true); // "any log" has no bits to check
  });
});

describe('PolledBuffer with shared chunks', () => {
  it('hands out a copy the caller owns, and counts shared chunks against its bound', () => {
    const buffer = new PolledBuffer<number>(4);
    const shared = [1, 2];
    buffer.pushShared(shared, 5n);
    buffer.push(3, 6n);
    const drained = buffer.drain();
    expect(drained).toEqual([1, 2, 3]);
    drained.push(99);
    expect(shared).toEqual([1, 2]);
    buffer.pushShared([1, 2, 3], 7n);
    buffer.pushShared([4, 5], 8n);
    expect(buffer.overflowed).toEqual({ block: 7n });
  });
});
