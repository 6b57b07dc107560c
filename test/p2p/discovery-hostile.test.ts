/**
 * Hostile input on the discovery port of a node process: malformed and oversized UDP packets, unsolicited ENR
 * responses with records over EIP-778's 300 bytes, then a flood of 10,000 packets/s for 10 s. The node keeps answering RPC all
 * along, its memory stays bounded, and its log says what it dropped, in a few summary lines (not one per packet).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { RLP } from '@ethereumjs/rlp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keccak256 } from '../../src/chain/base/crypto.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, waitFor } from './multi-node-fixture.js';

const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');

let node: NodeProcess;
let udpPort: number;
const sockets: Socket[] = [];

function sender(): Socket {
  const socket = createSocket('udp4');
  sockets.push(socket);
  return socket;
}

/** A correctly hashed and signed discv4 packet of `type` with `body` (valid framing, whatever the content). */
function packet(type: number, body: unknown[]): Buffer {
  const typed = Buffer.concat([Buffer.of(type), RLP.encode(body as Uint8Array[])]);
  const { signature, recid } = secp256k1.ecdsaSign(keccak256(typed), randomBytes(32));
  const signed = Buffer.concat([signature, Buffer.of(recid), typed]);
  return Buffer.concat([keccak256(signed), signed]);
}

const rssKb = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${node.child.pid}/status`, 'utf8'))![1]);
const send = (socket: Socket, msg: Buffer) =>
  new Promise<void>((resolve) => socket.send(msg, udpPort, '127.0.0.1', () => resolve()));

beforeAll(async () => {
  node = await startNode({ args: ['--no-mine', '--discovery'], timeoutMs: 90_000 });
  udpPort = Number(new URL(node.enode!.replace(/^enode:/, 'http:')).searchParams.get('discport') ?? 0) || 0;
  if (udpPort === 0) udpPort = Number(new URL(node.enode!.replace(/^enode:/, 'http:')).port);
}, 120_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  await node?.stop();
});

describe('the discovery port under hostile input', () => {
  it('drops malformed, oversized and over-long-record packets and a 10 s flood, answering RPC throughout', async () => {
    const junk = sender();
    for (let i = 0; i < 40; i++) await send(junk, randomBytes(100 + i * 20)); // wrong hash
    for (let i = 0; i < 20; i++) await send(junk, randomBytes(2_000)); // over discv4's 1280 bytes
    for (let i = 0; i < 20; i++) await send(junk, randomBytes(50)); // shorter than a header
    const bigRecord = [
      randomBytes(64),
      Buffer.of(1),
      Buffer.from('id'),
      Buffer.from('v4'),
      Buffer.from('z'),
      randomBytes(400),
    ];
    for (let i = 0; i < 20; i++) await send(junk, packet(0x06, [randomBytes(32), bigRecord]));
    for (let i = 0; i < 20; i++) await send(junk, packet(0x09, [randomBytes(8)])); // no such packet type

    const rssBefore = rssKb();
    const flood = sender();
    const flooded = packet(0x01, [Buffer.of(4), randomBytes(20)]);
    let sent = 0;
    let rpcAnswers = 0;
    let flooding = true;
    const rpc = (async () => {
      while (flooding) {
        expect(Number(await call<string>(node.url, 'eth_blockNumber'))).toBeGreaterThanOrEqual(0);
        rpcAnswers++;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    // 10,000 packets/s for 10 s: 100 rounds of 1,000, one round per 100 ms, alternating junk and a framed ping.
    for (let round = 0; round < 100; round++) {
      const tick = Date.now();
      for (let i = 0; i < 1_000; i++) {
        flood.send(i % 2 === 0 ? flooded : createHash('sha512').update(String(sent)).digest(), udpPort, '127.0.0.1');
        sent++;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 100 - (Date.now() - tick))));
    }
    flooding = false;
    await rpc;
    expect(sent).toBe(100_000);
    expect(rpcAnswers).toBeGreaterThan(10);
    // Bounded: the flood may not pile up in the node (a queue per packet would cost far more than this).
    expect(rssKb() - rssBefore).toBeLessThan(100 * 1024);

    const drops = () => node.logs.filter((l) => l.msg === 'p2p discovery dropped packets');
    const total = (key: string) => drops().reduce((sum, l) => sum + (Number(l[key]) || 0), 0);
    // What the kernel's socket buffer drops while the node is busy never reaches it; most of the rest is refused.
    await waitFor(
      async () => total('rateLimited') + total('malformed') > 40_000,
      'the drop summary to count the flood',
      { node },
      25_000,
    );
    expect(total('rateLimited')).toBeGreaterThan(5_000);
    expect(total('oversized')).toBeGreaterThanOrEqual(20);
    expect(total('malformed')).toBeGreaterThanOrEqual(60);
    // ENRResponses the node never asked for are dropped before their record is read.
    expect(total('unsolicited')).toBeGreaterThanOrEqual(20);
    // A summary per 10 s window, not a line per packet.
    expect(drops().length).toBeLessThanOrEqual(5);
    expect(node.logs.filter((l) => l.level === 'error')).toEqual([]);
    expect(Number(await call<string>(node.url, 'net_peerCount'))).toBe(0);
  }, 90_000);
});
