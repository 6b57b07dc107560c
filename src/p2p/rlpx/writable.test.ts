/** The backpressure the serving budget waits on: a link's unsent bytes, on real loopback sockets. */
import { createServer, connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { generatePrivateKey } from '../../chain/index.js';
import { nodeIdOf } from '../node-key.js';
import { RlpxLink } from './transport.js';

const sockets: Socket[] = [];
afterAll(() => {
  for (const s of sockets) s.destroy();
});

/** A connected loopback pair: `ours` carries the link, `theirs` is the peer that reads (or not). */
async function socketPair(): Promise<{ ours: Socket; theirs: Socket; close: () => void }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const ours = connect({ host: '127.0.0.1', port: (server.address() as { port: number }).port });
  const theirs = await accepted;
  sockets.push(ours, theirs);
  return { ours, theirs, close: () => server.close() };
}

function linkOn(socket: Socket): RlpxLink {
  const privateKey = Uint8Array.from(generatePrivateKey());
  return new RlpxLink({
    socket,
    privateKey,
    nodeId: nodeIdOf(privateKey),
    remoteId: null,
    clientId: 'writable-test',
    listenPort: 0,
    events: { onConnect: () => undefined, onMessage: () => undefined, onClose: () => undefined },
  });
}

describe('RlpxLink.writableBelow', () => {
  it('waits while the peer leaves more than the bound unread, and resolves once it reads', async () => {
    const { ours, theirs, close } = await socketPair();
    const link = linkOn(ours);
    theirs.pause();
    // 32 MiB: more than the kernel's loopback buffers take, so most stays in our socket's write buffer.
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 32; i++) ours.write(chunk);
    let ready = false;
    const waited = link.writableBelow(1024 * 1024).then(() => (ready = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ours.writableLength).toBeGreaterThan(1024 * 1024);
    expect(ready).toBe(false);
    theirs.resume();
    await waited;
    expect(ours.writableLength).toBeLessThanOrEqual(1024 * 1024);
    close();
  });

  it('resolves when the socket closes with bytes still unsent', async () => {
    const { ours, theirs, close } = await socketPair();
    const link = linkOn(ours);
    theirs.pause();
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 8; i++) ours.write(chunk);
    const waited = link.writableBelow(1024);
    ours.destroy();
    await waited;
    expect(link.closed).toBe(true);
    close();
  });

  it('resolves at once when there is room', async () => {
    const { ours, close } = await socketPair();
    await linkOn(ours).writableBelow(1024);
    close();
  });
});
