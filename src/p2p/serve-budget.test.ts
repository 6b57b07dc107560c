import { describe, expect, it } from 'vitest';
import { PerPeerBudget, ServeCancelled, ServeQueueFull } from './serve-budget.js';

/** A unit of work the test finishes by hand, recording when it started. */
function gate(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => (started.push(name), done.then(() => name)), finish };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A peer whose link is open and always has room. */
const open = () => ({ link: { closed: false } });

describe('PerPeerBudget', () => {
  it('runs at most N requests of one peer at a time; the rest wait in order and all are answered', async () => {
    const budget = new PerPeerBudget(2);
    const peer = open();
    const started: string[] = [];
    const gates = ['a', 'b', 'c', 'd'].map((name) => gate(started, name));
    const answers = gates.map((g) => budget.run(peer, g.work));
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect(budget.load(peer)).toEqual({ active: 2, waiting: 2 });
    gates[1]!.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    gates[0]!.finish();
    gates[2]!.finish();
    gates[3]!.finish();
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c', 'd']);
    expect(budget.load(peer)).toEqual({ active: 0, waiting: 0 });
  });

  it('keeps peers apart: one peer at its limit does not hold up another', async () => {
    const budget = new PerPeerBudget(1);
    const busy = open();
    const other = open();
    const started: string[] = [];
    const first = gate(started, 'busy-1');
    const queued = gate(started, 'busy-2');
    const answers = [budget.run(busy, first.work), budget.run(busy, queued.work)];
    const elsewhere = budget.run(other, async () => 'other');
    expect(await elsewhere).toBe('other');
    expect(started).toEqual(['busy-1']);
    first.finish();
    queued.finish();
    expect(await Promise.all(answers)).toEqual(['busy-1', 'busy-2']);
  });

  it('frees the slot when a request fails', async () => {
    const budget = new PerPeerBudget(1);
    const peer = open();
    await expect(budget.run(peer, () => Promise.reject(new Error('bad request')))).rejects.toThrow('bad request');
    expect(await budget.run(peer, async () => 'next')).toBe('next');
  });

  it('refuses a budget below one request', () => {
    expect(() => new PerPeerBudget(0)).toThrow(RangeError);
  });

  it('refuses a request past the waiting bound, without queuing it', async () => {
    const budget = new PerPeerBudget({ inFlight: 1, maxQueued: 2 });
    const peer = open();
    const started: string[] = [];
    const gates = ['a', 'b', 'c'].map((name) => gate(started, name));
    const answers = gates.map((g) => budget.run(peer, g.work));
    await expect(budget.run(peer, async () => 'd')).rejects.toBeInstanceOf(ServeQueueFull);
    expect(budget.load(peer)).toEqual({ active: 1, waiting: 2 });
    for (const g of gates) g.finish();
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c']);
  });

  it('drops the waiting requests of a peer that left; none of them runs', async () => {
    const budget = new PerPeerBudget(1);
    const link = { closed: false };
    const peer = { link };
    const started: string[] = [];
    const first = gate(started, 'first');
    const running = budget.run(peer, first.work);
    const waiting = [budget.run(peer, async () => 'w1'), budget.run(peer, async () => 'w2')];
    await settle();
    expect(started).toEqual(['first']);
    link.closed = true;
    budget.drop(peer);
    for (const w of waiting) await expect(w).rejects.toBeInstanceOf(ServeCancelled);
    first.finish();
    expect(await running).toBe('first');
    expect(started).toEqual(['first']);
  });

  it('starts no request while the link holds more unsent bytes than the bound', async () => {
    const budget = new PerPeerBudget({ inFlight: 1, maxUnsentBytes: 100 });
    let unsent = 500;
    let drained!: () => void;
    const peer = {
      link: {
        closed: false,
        writableBelow: (bytes: number) =>
          unsent <= bytes ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve)),
      },
    };
    const started: string[] = [];
    const answer = budget.run(peer, gate(started, 'x').work);
    await settle();
    expect(started).toEqual([]);
    unsent = 0;
    drained();
    await settle();
    expect(started).toEqual(['x']);
    void answer;
  });
});
