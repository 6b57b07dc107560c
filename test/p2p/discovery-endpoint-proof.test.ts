/**
 * discv4's rules on a node process's discovery port, spoken to by raw UDP clients on loopback (discv4.md):
 * FINDNODE and ENRRequest are answered only to a sender that answered the node's PING (the endpoint proof), so
 * a forged source cannot turn the node into an amplifier; expired packets and bad signatures are dropped; the
 * `from` of a PING and the nodes of an unsolicited NEIGHBOURS are never pinged; and one sender's flood spends
 * its own budget, not everyone's. The node's table is filled first by sixteen bonded clients, so an answered
 * FINDNODE would carry sixteen nodes. Bytes each way are printed for the note.
 */
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeProcess, startNode } from '../helpers/node-process.js';
import { Discv4Client, ENR_RESPONSE, endpoint, framed, listener, NEIGHBOURS, PING, unixIn } from './discv4-client.js';

let node: NodeProcess;
let udpPort: number;
const clients: Discv4Client[] = [];
const closers: (() => void)[] = [];

async function client(): Promise<Discv4Client> {
  const c = await Discv4Client.open(udpPort);
  clients.push(c);
  return c;
}

/** The node's discovery socket in /proc/net/udp: bytes waiting in its receive queue, packets the kernel dropped. */
function socketQueue(): { queued: number; drops: string } {
  const hexPort = udpPort.toString(16).toUpperCase().padStart(4, '0');
  const fields = readFileSync('/proc/net/udp', 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((f) => f[1]?.endsWith(`:${hexPort}`));
  return { queued: Number.parseInt(fields?.[4]?.split(':')[1] ?? '0', 16), drops: fields?.at(-1) ?? 'unknown' };
}

/**
 * Waits (up to 100 ms) until the node has read most of its receive queue: on a busy machine a flood sent faster
 * than the node is scheduled would fill the kernel's queue, which then loses packets whoever sent them, a
 * starvation no budget in the node can prevent and not what this test is about.
 */
async function nodeCaughtUp(): Promise<void> {
  for (let i = 0; i < 50 && socketQueue().queued > 64 * 1024; i++) await sleep(2);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the node sent per byte it got, over the packets `c` exchanged since `from` (a count of packets each way). */
function ratioSince(c: Discv4Client, sentBytes: number, receivedFrom: number, excludeHash: Buffer) {
  const answers = c.received
    .slice(receivedFrom)
    .filter((r) => !Buffer.from(r.body[1] as Uint8Array).equals(excludeHash));
  const out = answers.reduce((sum, r) => sum + r.size, 0);
  return { in: sentBytes, out, ratio: Number((out / sentBytes).toFixed(2)), types: answers.map((r) => r.type) };
}

beforeAll(async () => {
  node = await startNode({ args: ['--no-mine', '--discovery'], timeoutMs: 90_000 });
  const url = new URL(node.enode!.replace(/^enode:/, 'http:'));
  udpPort = Number(url.searchParams.get('discport') ?? 0) || Number(url.port);
  // Sixteen nodes in the node's table: each pings it and answers its PING back.
  const members = await Promise.all(Array.from({ length: 16 }, client));
  for (const m of members) {
    m.answerPings = true;
    m.ping();
  }
  await Promise.all(members.map((m) => m.until(() => m.of(PING).length > 0, 'the node to ping a member back')));
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.close();
  for (const close of closers) close();
  await node?.stop();
});

describe('discv4 endpoint proof on a node process', () => {
  it('answers FINDNODE and ENRRequest only once the sender has bonded (bytes out ≤ bytes in before)', async () => {
    const c = await client();
    const figures: Record<string, unknown> = {};

    let mark = c.received.length;
    let sent = c.bytesOut;
    for (let i = 0; i < 5; i++) c.findnode();
    sent = c.bytesOut - sent;
    let barrier = c.ping();
    await c.until(() => c.pongTo(barrier) !== undefined, 'the barrier PONG');
    figures.findnode = ratioSince(c, sent, mark, barrier);

    mark = c.received.length;
    sent = c.bytesOut;
    for (let i = 0; i < 5; i++) c.enrRequest();
    sent = c.bytesOut - sent;
    barrier = c.ping();
    await c.until(() => c.pongTo(barrier) !== undefined, 'the barrier PONG');
    figures.enrRequest = ratioSince(c, sent, mark, barrier);

    const stranger = await client();
    sent = stranger.bytesOut;
    for (let i = 0; i < 5; i++) stranger.ping();
    sent = stranger.bytesOut - sent;
    barrier = stranger.ping();
    await stranger.until(() => stranger.pongTo(barrier) !== undefined, 'the barrier PONG');
    figures.pingFromStranger = ratioSince(stranger, sent, 0, barrier);
    console.log(`unbonded discovery packets, bytes node→client per byte client→node: ${JSON.stringify(figures)}`);

    expect(c.of(NEIGHBOURS)).toEqual([]);
    expect(c.of(ENR_RESPONSE)).toEqual([]);
    const f = figures.findnode as { in: number; out: number };
    const e = figures.enrRequest as { in: number; out: number };
    expect(f.out).toBeLessThanOrEqual(f.in);
    expect(e.out).toBeLessThanOrEqual(e.in);

    // Bonding: the node pings us (an unbonded FINDNODE asks it to, at most once per few seconds) and we answer.
    c.answerPings = true;
    for (let i = 0; i < 40 && c.of(NEIGHBOURS).length === 0; i++) {
      c.findnode();
      await sleep(500);
    }
    const nodes = c.of(NEIGHBOURS).flatMap((n) => n.body[0] as unknown[]);
    expect(nodes.length).toBeGreaterThanOrEqual(12);
    c.enrRequest();
    await c.until(() => c.of(ENR_RESPONSE).length === 1, 'an ENRResponse once bonded');

    // Bonded, but a request nobody signed is still refused.
    c.enrRequest({ zeroSignature: true });
    await c.barrier();
    expect(c.of(ENR_RESPONSE).length).toBe(1);
  }, 60_000);

  it('drops an expired PING', async () => {
    const c = await client();
    const expired = c.ping({ expiresIn: -60 });
    await c.barrier();
    expect(c.pongTo(expired)).toBeUndefined();
  });

  it('never pings the `from` of a PING nor the nodes of an unsolicited NEIGHBOURS', async () => {
    const named = await listener();
    const listed = await listener();
    closers.push(named.close, listed.close);
    const c = await client();
    const hash = c.ping({ from: named.port });
    // The PONG goes to the packet's real source.
    await c.until(() => c.pongTo(hash) !== undefined, 'the PONG at the real source');
    c.send(NEIGHBOURS, [[[...endpoint(listed.port), randomBytes(64)]], unixIn(20)]);
    await c.barrier();
    // The library pinged such endpoints 0–100 ms after the packet: a generous wait shows none comes.
    await sleep(2_000);
    expect(named.got.length).toBe(0);
    expect(listed.got.length).toBe(0);
  });

  it('spends a flooding sender’s own budget first: another sender’s 10 PINGs all get PONGs', async () => {
    const flood = createSocket('udp4');
    closers.push(() => flood.close());
    const ping = framed(PING, [Buffer.of(4), endpoint(1), endpoint(udpPort, 0), unixIn(3_600)], randomBytes(32));
    const other = await client();
    const hashes: Buffer[] = [];
    // 100 PINGs every 10 ms from one socket (10,000/s when the machine keeps up), for 2 s before the other sender
    // starts: more than everyone's budget (2,000/s, bursts of 4,000). Then, every 15th round, one PING of the other
    // sender right behind the round's 100, when everyone's budget was just spent if the flood could spend it.
    for (let round = 0; round < 350; round++) {
      for (let i = 0; i < 100; i++) flood.send(ping, udpPort, '127.0.0.1');
      if (round >= 200 && round % 15 === 0) hashes.push(other.ping());
      await sleep(10);
      await nodeCaughtUp();
    }
    await other
      .until(() => hashes.every((h) => other.pongTo(h) !== undefined), 'PONGs to all 10', 5_000)
      .catch(() => undefined);
    expect(hashes.length).toBe(10);
    expect(hashes.filter((h) => other.pongTo(h) !== undefined).length, `kernel drops: ${socketQueue().drops}`).toBe(10);
  }, 90_000);
});
