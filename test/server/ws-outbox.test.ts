import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { byteLengthOf, FlushScheduler, WebSocketOutbox, type OutgoingMessage } from '../../src/server/ws-outbox.js';

let server: WebSocketServer | undefined;
afterEach(async () => {
  for (const client of server?.clients ?? []) client.terminate();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Queues `messages` on the server side of a fresh connection in one tick; resolves with what a `ws` client received. */
async function roundTrip(messages: readonly OutgoingMessage[]): Promise<string[]> {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
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
      if (received.length === messages.length) resolve();
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
    const pieces = [utf8('{"jsonrpc":"2.0","params":{"result":'), utf8('"ünïcode"'), utf8('}}')];
    const received = await roundTrip(['{"a":1}', medium, large, pieces, '']);
    expect(received).toEqual(['{"a":1}', medium, large, '{"jsonrpc":"2.0","params":{"result":"ünïcode"}}', '']);
    expect(byteLengthOf(medium)).toBeGreaterThan(125);
    expect(byteLengthOf(large)).toBeGreaterThan(65_535);
  });
});

describe('FlushScheduler', () => {
  const nextCheckPhase = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('flushes at once when quiet, then at most once per window, coalescing what was queued meanwhile', async () => {
    const scheduler = new FlushScheduler(60);
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
    expect(performance.now() - t0).toBeLessThan(1_000);
    await expect(scheduler.idle()).resolves.toBeUndefined();
  });

  it('writes at most perTurn targets per turn of the event loop, each once, in the order scheduled', async () => {
    const scheduler = new FlushScheduler(0, 2);
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
    const scheduler = new FlushScheduler(40);
    const writes: number[] = [];
    server.on('connection', async (ws) => {
      const socket = (ws as unknown as { _socket: { write: (b: Buffer) => boolean } })._socket;
      const write = socket.write.bind(socket);
      socket.write = (b: Buffer) => (writes.push(b.length), write(b));
      const outbox = new WebSocketOutbox(ws, scheduler);
      const note = (text: string) => outbox.enqueueNotification([Buffer.from(text)], text.length);
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
      expect(scheduler.longestWaitMs).toBeGreaterThanOrEqual(25); // n4, n5 waited for the window's end
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
    expect(received).toEqual(['"n1"', '"n2"', '"n3"', '"r1"', '"n4"', '"n5"']);
    expect(writes).toEqual([6, 18, 12]); // frames of 2 + 4 bytes
  });
});
