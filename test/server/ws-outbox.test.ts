import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { framedNotifications, type NotificationRun } from '../../src/server/ws-frames.js';
import { byteLengthOf, FlushScheduler, WebSocketOutbox, type OutgoingMessage } from '../../src/server/ws-outbox.js';

/** Subscription `id`'s run of notifications with the given JSON results. */
function run(id: string, results: readonly Uint8Array[]): NotificationRun {
  return { frames: framedNotifications(results, id.length), id: Buffer.from(id, 'latin1') };
}
const notification = (id: string, result: string) =>
  `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":${result}}}`;

let server: WebSocketServer | undefined;
afterEach(async () => {
  for (const client of server?.clients ?? []) client.terminate();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Queues `messages` on the server side of a fresh connection in one tick; resolves with what a `ws` client received. */
async function roundTrip(
  messages: readonly OutgoingMessage[],
  expected: number,
  perMessageDeflate = false,
): Promise<string[]> {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate });
  await new Promise((resolve) => server!.once('listening', resolve));
  server.on('connection', (ws) => {
    const outbox = new WebSocketOutbox(ws);
    for (const m of messages) outbox.enqueue(m, byteLengthOf(m));
    expect(outbox.backlog).toBeGreaterThanOrEqual(messages.reduce((n, m) => n + byteLengthOf(m), 0));
  });
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const received: string[] = [];
  await new Promise<void>((resolve, reject) => {
    client.on('message', (data, isBinary) => {
      if (isBinary) reject(new Error('expected text frames'));
      received.push(String(data));
      if (received.length === expected) resolve();
    });
    client.once('error', reject);
  });
  client.close();
  return received;
}

describe('WebSocketOutbox', () => {
  it('writes the messages of one tick as text frames a standard client reads back, in order, at every length class', async () => {
    const utf8 = (text: string) => Buffer.from(text, 'utf8');
    const medium = `{"m":"${'é'.repeat(100)}"}`; // 126..65535 bytes: 16-bit length
    const large = `{"l":"${'x🦊'.repeat(20_000)}"}`; // over 65535 bytes: 64-bit length
    const results = [utf8('"ünïcode"'), utf8(medium), utf8('{"n":1}')];
    const received = await roundTrip(['{"a":1}', medium, large, run('0xab', results), '', run('0x1234', results)], 10);
    expect(received).toEqual([
      '{"a":1}',
      medium,
      large,
      notification('0xab', '"ünïcode"'),
      notification('0xab', medium),
      notification('0xab', '{"n":1}'),
      '',
      notification('0x1234', '"ünïcode"'),
      notification('0x1234', medium),
      notification('0x1234', '{"n":1}'),
    ]);
    expect(byteLengthOf(medium)).toBeGreaterThan(125);
    // With compression negotiated the same messages go through the library, one by one.
    expect(
      await roundTrip(['{"a":1}', medium, large, run('0xab', results), '', run('0x1234', results)], 10, true),
    ).toEqual(received);
    expect(byteLengthOf(large)).toBeGreaterThan(65_535);
  });
});

describe('FlushScheduler', () => {
  const nextCheckPhase = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('flushes at once when quiet, then at most once per window, coalescing what was queued meanwhile', async () => {
    const scheduler = new FlushScheduler({ windowMs: 60 });
    const flushedAt: number[] = [];
    const target = { flush: () => flushedAt.push(performance.now()) };
    const t0 = performance.now();
    scheduler.schedule(target);
    await nextCheckPhase();
    expect(flushedAt).toHaveLength(1);
    scheduler.schedule(target); // within the window: waits for it
    await new Promise((r) => setTimeout(r, 20));
    scheduler.schedule(target); // joins the same pending flush
    expect(flushedAt).toHaveLength(1);
    await scheduler.idle();
    expect(flushedAt).toHaveLength(2);
    expect(flushedAt[1] - flushedAt[0]).toBeGreaterThanOrEqual(55);
    expect(performance.now() - t0).toBeLessThan(5_000);
    await expect(scheduler.idle()).resolves.toBeUndefined();
  });

  it('widens the window with the connections written, to keep their fixed cost within its share, up to the maximum', async () => {
    const scheduler = new FlushScheduler({ windowMs: 10, busyShare: 0.1, perWriteMs: 1, maxWindowMs: 80 });
    const flushedAt: number[] = [];
    const targets = (n: number) =>
      Array.from({ length: n }, () => ({ flush: () => flushedAt.push(performance.now()) }));
    /** Flushes `n` connections, then one: how long the second flush waited for the first's window. */
    const gapAfter = async (n: number) => {
      for (const t of targets(n)) scheduler.schedule(t);
      await scheduler.idle();
      const first = flushedAt.at(-1)!;
      scheduler.schedule(targets(1)[0]);
      await scheduler.idle();
      return flushedAt.at(-1)! - first;
    };
    expect(await gapAfter(5)).toBeGreaterThanOrEqual(49); // 5 writes × 1 ms / 10 %: a 50 ms window
    expect(scheduler.longestWindowMs).toBe(50);
    await gapAfter(1);
    expect(scheduler.currentWindowMs).toBe(10); // after a flush of one: back to the 10 ms window
    await gapAfter(20); // 200 ms, capped
    expect(scheduler.longestWindowMs).toBe(80);
  });

  it('leaves what is queued during a flush for the next one, after the window', async () => {
    const scheduler = new FlushScheduler({ windowMs: 30, perTurn: 1 });
    const flushedAt: number[] = [];
    const late = { flush: () => flushedAt.push(performance.now()) };
    const early = { flush: () => (flushedAt.push(performance.now()), scheduler.schedule(late)) };
    scheduler.schedule(early);
    scheduler.schedule(late);
    await scheduler.idle();
    expect(flushedAt).toHaveLength(3); // early, late, then late again in a flush of its own
    expect(flushedAt[2] - flushedAt[1]).toBeGreaterThanOrEqual(29);
  });

  it('writes at most perTurn targets per turn of the event loop, each once, in the order scheduled', async () => {
    const scheduler = new FlushScheduler({ windowMs: 0, perTurn: 2 });
    const flushed: number[] = [];
    const targets = Array.from({ length: 5 }, (_, i) => ({ flush: () => flushed.push(i) }));
    for (const t of [...targets, targets[0]]) scheduler.schedule(t);
    const progress: number[] = [];
    const watch = async () => {
      for (let i = 0; i < 4; i++) {
        await nextCheckPhase();
        progress.push(flushed.length);
      }
    };
    await Promise.all([watch(), scheduler.idle()]);
    expect(flushed).toEqual([0, 1, 2, 3, 4]);
    expect(progress).toEqual([2, 4, 5, 5]);
  });
});

describe('WebSocketOutbox with a scheduler', () => {
  it('holds notifications for the shared flush, sends a response on its tick with what was queued before it, keeps the order', async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server!.once('listening', resolve));
    const scheduler = new FlushScheduler({ windowMs: 150 }); // wide, so a slow machine still sees n2, n3 held
    const writes: number[] = [];
    const writtenAt: number[] = [];
    server.on('connection', async (ws) => {
      const socket = (ws as unknown as { _socket: { write: (b: Buffer) => boolean } })._socket;
      const write = socket.write.bind(socket);
      socket.write = (b: Buffer) => (writes.push(b.length), writtenAt.push(performance.now()), write(b));
      const outbox = new WebSocketOutbox(ws, scheduler);
      const note = (text: string) => {
        const message = run('0x1', [Buffer.from(text)]);
        outbox.enqueueNotification(message, byteLengthOf(message));
      };
      note('"n1"');
      await new Promise((r) => setImmediate(r));
      expect(writes).toHaveLength(1); // quiet: written on the next check phase
      note('"n2"');
      note('"n3"');
      await new Promise((r) => setTimeout(r, 5));
      expect(writes).toHaveLength(1); // within the window: held
      outbox.enqueue('"r1"', 4);
      await new Promise((r) => process.nextTick(r));
      expect(writes).toHaveLength(2); // the response went at once, with n2 and n3 ahead of it
      note('"n4"');
      note('"n5"');
      await scheduler.idle();
      expect(writes).toHaveLength(3);
      // n4 and n5 waited for the window after the first flush (a timer never fires early; 1 ms of rounding).
      expect(writtenAt[2] - writtenAt[0]).toBeGreaterThanOrEqual(149);
      expect(scheduler.longestWaitMs).toBeGreaterThan(0);
    });
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const received: string[] = [];
    await new Promise<void>((resolve, reject) => {
      client.on('message', (data) => {
        received.push(String(data));
        if (received.length === 6) resolve();
      });
      client.once('error', reject);
    });
    client.close();
    const n = (text: string) => notification('0x1', text);
    expect(received).toEqual([n('"n1"'), n('"n2"'), n('"n3"'), '"r1"', n('"n4"'), n('"n5"')]);
    const frame = 2 + n('"n1"').length;
    expect(writes).toEqual([frame, 2 * frame + 6, 2 * frame]); // response frame: 2 + 4 bytes
  });
});
