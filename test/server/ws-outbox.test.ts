import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { byteLengthOf, WebSocketOutbox, type OutgoingMessage } from '../../src/server/ws-outbox.js';

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
