import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { createRequire } from 'node:module';
import { RLP } from '@ethereumjs/rlp';
import { describe, expect, it } from 'vitest';
import { keccak256 } from '../../chain/index.js';
import { buildRecord } from './enr.js';
import { GuardedUdpSocket, MAX_PACKET } from './udp-guard.js';

const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');

function signed(type: number, body: unknown[], key: Uint8Array): Buffer {
  const typed = Buffer.concat([Buffer.of(type), RLP.encode(body as Uint8Array[])]);
  const { signature, recid } = secp256k1.ecdsaSign(keccak256(typed), key);
  const rest = Buffer.concat([signature, Buffer.of(recid), typed]);
  return Buffer.concat([keccak256(rest), rest]);
}

describe('the guarded discovery socket', () => {
  it('splits a NEIGHBOURS answer of 16 nodes (over 1280 bytes) into packets of 12 and 4, each signed', async () => {
    const key = randomBytes(32);
    const guard = new GuardedUdpSocket(key, () => buildRecord(key, { seq: 1n }), {
      limits: { perSender: 10, total: 10 },
      endpoint: { address: '127.0.0.1', udpPort: 0, tcpPort: 0 },
    });
    const receiver = createSocket('udp4');
    await new Promise<void>((r) => receiver.bind(0, '127.0.0.1', r));
    const got: Buffer[] = [];
    receiver.on('message', (m) => got.push(m));
    const nodes = Array.from({ length: 16 }, () => [
      Buffer.of(127, 0, 0, 1),
      Buffer.of(0x76, 0x5f),
      Buffer.of(0x76, 0x5f),
      randomBytes(64),
    ]);
    const big = signed(0x04, [nodes, Buffer.of(0x7f, 0, 0, 0)], key);
    expect(big.length).toBeGreaterThan(MAX_PACKET);
    guard.send(big, 0, big.length, receiver.address().port, '127.0.0.1');
    for (let i = 0; i < 50 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    receiver.close();
    guard.close();
    expect(got.map((m) => m.length <= MAX_PACKET)).toEqual([true, true]);
    const counts = got.map((m) => {
      expect(Buffer.from(keccak256(m.subarray(32)))).toEqual(m.subarray(0, 32));
      return (RLP.decode(m.subarray(98)) as unknown[][])[0]!.length;
    });
    expect(counts).toEqual([12, 4]);
  });

  it('answers an ENRRequest (EIP-868) from a bonded node with its own record, which the asking side verifies', async () => {
    const keys = [randomBytes(32), randomBytes(32)];
    const records = keys.map((k, i) => buildRecord(k, { seq: BigInt(i + 7), ip: '127.0.0.1', udp: 30303 + i }));
    const [asker, answerer] = keys.map(
      (k, i) =>
        new GuardedUdpSocket(k, () => records[i]!, {
          limits: { perSender: 50, total: 50 },
          endpoint: { address: '127.0.0.1', udpPort: 0, tcpPort: 0 },
        }),
    );
    await Promise.all(
      [asker!, answerer!].map((g) => new Promise<void>((r) => (g.once('listening', r), g.bind(0, '127.0.0.1')))),
    );
    // The endpoint proof: the answerer pings the asker, whose PONG bonds it.
    const askerId = secp256k1.publicKeyCreate(keys[0]!, false).subarray(1);
    const askerAt = `127.0.0.1:${asker!.address().port}`;
    answerer!.ping('127.0.0.1', asker!.address().port);
    for (let i = 0; i < 100 && !answerer!.proof.isBonded(askerId, askerAt, Date.now()); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(answerer!.proof.isBonded(askerId, askerAt, Date.now())).toBe(true);
    const got = new Promise<Uint8Array>((resolve) => asker!.records.once('record', (record) => resolve(record.raw)));
    asker!.requestRecord('127.0.0.1', answerer!.address().port);
    expect(Buffer.from(await got)).toEqual(Buffer.from(records[1]!.raw));
    asker!.close();
    answerer!.close();
  });
});

describe('the guard’s budgets', () => {
  it('spends a sender’s own budget before everyone’s: after a flood from one sender, another’s PING is answered', async () => {
    const key = randomBytes(32);
    // Everyone's budget: 20 packets/s, bursts of 40; one sender's: 5/s, bursts of 10.
    const guard = new GuardedUdpSocket(key, () => buildRecord(key, { seq: 1n }), {
      limits: { perSender: 5, total: 20 },
      endpoint: { address: '127.0.0.1', udpPort: 0, tcpPort: 0 },
    });
    await new Promise<void>((r) => (guard.once('listening', r), guard.bind(0, '127.0.0.1')));
    const port = guard.address().port;
    const [flood, other] = [createSocket('udp4'), createSocket('udp4')];
    await Promise.all([flood, other].map((s) => new Promise<void>((r) => s.bind(0, '127.0.0.1', r))));
    const pongs: Buffer[] = [];
    other.on('message', (m) => pongs.push(m));
    const ping = (k: Uint8Array) => signed(0x01, [Buffer.of(4), [], [], Buffer.of(0x7f, 0xff, 0xff, 0xff)], k);
    // 60 PINGs from one sender (more than everyone's burst), then one from another, behind them in the queue.
    for (let i = 0; i < 60; i++) await new Promise((r) => flood.send(ping(key), port, '127.0.0.1', r));
    const mine = ping(randomBytes(32));
    await new Promise((r) => other.send(mine, port, '127.0.0.1', r));
    for (let i = 0; i < 100 && pongs.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(guard.dropped.rateLimited).toBeGreaterThanOrEqual(50);
    expect(pongs.map((p) => Buffer.from(RLP.decode(p.subarray(98), true).data[1] as Uint8Array))).toContainEqual(
      mine.subarray(0, 32),
    );
    for (const s of [flood, other]) s.close();
    guard.close();
  });
});
