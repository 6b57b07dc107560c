/**
 * A raw discv4 speaker on a loopback UDP socket, for tests that talk to a node's discovery port as a stranger
 * would: it builds signed packets (any expiration, any `from`, a zeroed signature), keeps every packet the node
 * sends it with the bytes each way, and can answer the node's PINGs with PONGs (which bonds it with the node).
 */
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { createRequire } from 'node:module';
import { RLP } from '@ethereumjs/rlp';
import { keccak256 } from '../../src/chain/base/crypto.js';

const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');

export const PING = 1;
export const PONG = 2;
export const FINDNODE = 3;
export const NEIGHBOURS = 4;
export const ENR_REQUEST = 5;
export const ENR_RESPONSE = 6;

export interface Received {
  readonly type: number;
  readonly hash: Buffer;
  readonly body: unknown[];
  readonly size: number;
}

const be = (n: number, bytes: number) => {
  const out = Buffer.alloc(bytes);
  out.writeUIntBE(n, 0, bytes);
  return out;
};
export const unixIn = (seconds: number): Buffer => be(Math.floor(Date.now() / 1000) + seconds, 4);
export const endpoint = (port: number, tcp = port): Buffer[] => [Buffer.of(127, 0, 0, 1), be(port, 2), be(tcp, 2)];

export function framed(type: number, body: unknown[], key: Uint8Array, zeroSignature = false): Buffer {
  const typed = Buffer.concat([Buffer.of(type), RLP.encode(body as Uint8Array[])]);
  const { signature, recid } = secp256k1.ecdsaSign(keccak256(typed), key);
  const sig = zeroSignature ? Buffer.alloc(65) : Buffer.concat([signature, Buffer.of(recid)]);
  const rest = Buffer.concat([sig, typed]);
  return Buffer.concat([keccak256(rest), rest]);
}

export class Discv4Client {
  readonly key = randomBytes(32);
  readonly id = Buffer.from(secp256k1.publicKeyCreate(this.key, false)).subarray(1);
  readonly received: Received[] = [];
  bytesOut = 0;
  bytesIn = 0;
  /** Whether PINGs from the node get a PONG (that bonds us with it). */
  answerPings = false;
  readonly #socket: Socket = createSocket('udp4');
  readonly #waiters = new Set<() => void>();
  #pings = 0;

  private constructor(readonly nodePort: number) {
    this.#socket.on('message', (msg) => {
      this.bytesIn += msg.length;
      const body = RLP.decode(msg.subarray(98), true).data as unknown[];
      const got = { type: msg[97]!, hash: Buffer.from(msg.subarray(0, 32)), body, size: msg.length };
      this.received.push(got);
      if (got.type === PING && this.answerPings) this.send(PONG, [endpoint(this.nodePort), got.hash, unixIn(20)]);
      for (const wake of this.#waiters) wake();
    });
  }

  static async open(nodePort: number): Promise<Discv4Client> {
    const client = new Discv4Client(nodePort);
    await new Promise<void>((resolve) => client.#socket.bind(0, '127.0.0.1', resolve));
    return client;
  }

  get port(): number {
    return this.#socket.address().port;
  }

  /** Sends a signed packet to the node; returns its hash. */
  send(type: number, body: unknown[], options: { zeroSignature?: boolean } = {}): Buffer {
    return this.sendRaw(framed(type, body, this.key, options.zeroSignature));
  }

  sendRaw(packet: Buffer): Buffer {
    this.bytesOut += packet.length;
    this.#socket.send(packet, this.nodePort, '127.0.0.1');
    return packet.subarray(0, 32);
  }

  ping(options: { from?: number; expiresIn?: number } = {}): Buffer {
    return this.send(PING, [
      Buffer.of(4),
      endpoint(options.from ?? this.port),
      endpoint(this.nodePort, 0),
      // Each PING its own expiration, so its hash (which the PONG echoes) is its own.
      unixIn((options.expiresIn ?? 20) + this.#pings++),
    ]);
  }

  findnode(): Buffer {
    return this.send(FINDNODE, [randomBytes(64), unixIn(20)]);
  }

  enrRequest(options: { zeroSignature?: boolean } = {}): Buffer {
    return this.send(ENR_REQUEST, [unixIn(20)], options);
  }

  of(type: number): Received[] {
    return this.received.filter((r) => r.type === type);
  }

  pongTo(pingHash: Buffer): Received | undefined {
    return this.of(PONG).find((r) => Buffer.from(r.body[1] as Uint8Array).equals(pingHash));
  }

  /** Waits until `done()` holds (checked at each packet received), or fails after `ms` saying what it waited for. */
  async until(done: () => boolean, what: string, ms = 10_000): Promise<void> {
    if (done()) return;
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(wake);
        reject(new Error(`timed out waiting for ${what}; got types ${this.received.map((r) => r.type).join(',')}`));
      }, ms);
      this.#waiters.add(wake);
    });
  }

  /** A PING answered: every packet the node sent before its PONG (it handles ours in order) has arrived. */
  async barrier(): Promise<void> {
    const hash = this.ping();
    await this.until(() => this.pongTo(hash) !== undefined, 'the PONG to a barrier PING');
  }

  close(): void {
    this.#socket.close();
  }
}

/** A plain socket that only listens: whatever the node sends to it is counted. */
export async function listener(): Promise<{ port: number; got: Buffer[]; close: () => void }> {
  const socket = createSocket('udp4');
  const got: Buffer[] = [];
  socket.on('message', (m) => got.push(m));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, got, close: () => socket.close() };
}
