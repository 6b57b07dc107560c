import { describe, expect, it } from 'vitest';
import { TraceBusyError, TraceSlots } from './slots.js';

/** A piece of work that finishes when told to. */
function gate(): { readonly work: () => Promise<string>; open(value: string): void } {
  let open!: (value: string) => void;
  const done = new Promise<string>((resolve) => {
    open = resolve;
  });
  return { work: () => done, open };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('TraceSlots', () => {
  it('runs up to maxRunning at once, queues the next in order and refuses past the queue', async () => {
    const slots = new TraceSlots(1, 2, 0);
    const [a, b, c] = [gate(), gate(), gate()];
    const started: string[] = [];
    const run = (name: string, g: ReturnType<typeof gate>) =>
      slots.run(() => {
        started.push(name);
        return g.work();
      });
    const ra = run('a', a);
    const rb = run('b', b);
    const rc = run('c', c);
    await expect(slots.run(async () => 'd')).rejects.toBeInstanceOf(TraceBusyError);
    expect(started).toEqual(['a']);
    expect([slots.inUse, slots.waiting]).toEqual([1, 2]);
    a.open('A');
    expect(await ra).toBe('A');
    await turn();
    await turn();
    expect(started).toEqual(['a', 'b']);
    b.open('B');
    c.open('C');
    expect(await Promise.all([rb, rc])).toEqual(['B', 'C']);
    await turn();
    await turn();
    expect([slots.inUse, slots.waiting]).toEqual([0, 0]);
  });

  it('refuses a request that waited longer than maxWaitMs, and frees its place', async () => {
    const slots = new TraceSlots(1, 1, 20);
    const a = gate();
    const ra = slots.run(a.work);
    const waited = await slots.run(async () => 'never').catch((e: unknown) => e);
    expect(waited).toBeInstanceOf(TraceBusyError);
    expect((waited as TraceBusyError).reason).toBe('waited too long');
    expect(slots.waiting).toBe(0);
    a.open('A');
    await ra;
  });

  it('bounds nothing with maxRunning 0', async () => {
    const slots = new TraceSlots(0, 0, 0);
    const gates = [gate(), gate(), gate()];
    const runs = gates.map((g) => slots.run(g.work));
    expect(slots.inUse).toBe(3);
    for (const [i, g] of gates.entries()) g.open(String(i));
    expect(await Promise.all(runs)).toEqual(['0', '1', '2']);
  });
});
