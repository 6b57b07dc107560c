/**
 * The discovery UDP socket with a doorman in front of the discv4 library: packets that are oversized, too short,
 * carry a wrong hash or an unknown type, or come faster than a sender's (and everyone's) budget are dropped
 * before any signature recovery or decoding; what is dropped is counted and reported at most once per window.
 * EIP-868 ENRRequest/ENRResponse (types 5 and 6), which the library does not speak, are answered here.
 * To the library it looks like a dgram socket (it creates it through `createSocket`).
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { RLP } from '@ethereumjs/rlp';
import { equalsBytes } from '@ethereumjs/util';
import { keccak256 } from '../../chain/index.js';
import { decodeRecord, type NodeRecord } from './enr.js';

const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');

/** discv4's packet limit; hash (32) + signature (65) + type (1) is the shortest header. */
export const MAX_PACKET = 1280;
const HEADER = 98;
const NEIGHBOURS = 0x04;
const NEIGHBOURS_PER_PACKET = 12;
const ENR_REQUEST = 0x05;
const ENR_RESPONSE = 0x06;

export interface GuardLimits {
  /** Packets per second one sender (ip:port) may send; a burst of twice that is tolerated. */
  readonly perSender: number;
  /** Packets per second from everyone together. */
  readonly total: number;
}

export type DropReason = 'oversized' | 'malformed' | 'rateLimited' | 'badRecord';

export interface GuardEvents {
  /** A verified ENRResponse: the sender's node record. */
  record: [record: NodeRecord, from: RemoteInfo];
}

class Bucket {
  tokens: number;
  at: number;
  constructor(
    readonly rate: number,
    now: number,
  ) {
    this.tokens = rate * 2;
    this.at = now;
  }
  take(now: number): boolean {
    this.tokens = Math.min(this.rate * 2, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}

/** Most senders tracked at once; past it the table starts over (bounded memory under a spoofed-source flood). */
const MAX_SENDERS = 4096;

export class GuardedUdpSocket extends EventEmitter {
  readonly records = new EventEmitter<GuardEvents>();
  readonly dropped: Record<DropReason, number> = { oversized: 0, malformed: 0, rateLimited: 0, badRecord: 0 };
  received = 0;
  readonly #socket: Socket;
  readonly #limits: GuardLimits;
  readonly #senders = new Map<string, Bucket>();
  readonly #total: Bucket;
  readonly #privateKey: Uint8Array;
  readonly #localRecord: () => NodeRecord;

  constructor(privateKey: Uint8Array, localRecord: () => NodeRecord, limits: GuardLimits) {
    super();
    this.#privateKey = privateKey;
    this.#localRecord = localRecord;
    this.#limits = limits;
    this.#total = new Bucket(limits.total, Date.now());
    this.#socket = createSocket({ type: 'udp4' });
    this.#socket.on('listening', () => this.emit('listening'));
    this.#socket.on('close', () => this.emit('close'));
    this.#socket.on('error', (err) => this.emit('error', err));
    this.#socket.on('message', (msg, rinfo) => this.#onMessage(msg, rinfo));
  }

  bind(port: number, host: string): void {
    this.#socket.bind(port, host);
  }

  address() {
    return this.#socket.address();
  }

  send(msg: Uint8Array, offset: number, length: number, port: number, address: string): void {
    // The library answers FINDNODE with up to 16 nodes in one packet, over discv4's 1280 bytes (geth and we drop
    // those): such an answer goes out as several packets of 12 nodes, as geth sends them.
    if (length > MAX_PACKET && msg[offset + 97] === NEIGHBOURS) return this.#splitNeighbours(msg, port, address);
    this.#socket.send(msg, offset, length, port, address, () => undefined);
  }

  #splitNeighbours(msg: Uint8Array, port: number, address: string): void {
    const [nodes, expires] = RLP.decode(msg.subarray(HEADER)) as [Uint8Array[][], Uint8Array];
    for (let i = 0; i < nodes.length; i += NEIGHBOURS_PER_PACKET)
      this.#sendPacket(NEIGHBOURS, [nodes.slice(i, i + NEIGHBOURS_PER_PACKET), expires], address, port);
  }

  close(): void {
    this.#socket.close();
  }

  drop(reason: DropReason): void {
    this.dropped[reason]++;
  }

  /** Asks a node for its record (EIP-868); the answer arrives as a `record` event. */
  requestRecord(address: string, port: number): void {
    this.#sendPacket(ENR_REQUEST, [expiration()], address, port);
  }

  #onMessage(msg: Buffer, rinfo: RemoteInfo): void {
    this.received++;
    if (msg.length > MAX_PACKET) return this.drop('oversized');
    if (msg.length < HEADER + 1) return this.drop('malformed');
    const now = Date.now();
    if (!this.#allowed(`${rinfo.address}:${rinfo.port}`, now)) return this.drop('rateLimited');
    if (!equalsBytes(msg.subarray(0, 32), keccak256(msg.subarray(32)))) return this.drop('malformed');
    const type = msg[97]!;
    if (type >= 1 && type <= 4) return void this.emit('message', msg, rinfo);
    try {
      if (type === ENR_REQUEST) this.#answerEnrRequest(msg, rinfo);
      else if (type === ENR_RESPONSE) this.#takeEnrResponse(msg, rinfo);
      else this.drop('malformed');
    } catch {
      this.drop(type === ENR_RESPONSE ? 'badRecord' : 'malformed');
    }
  }

  #allowed(sender: string, now: number): boolean {
    if (!this.#total.take(now)) return false;
    let bucket = this.#senders.get(sender);
    if (bucket === undefined) {
      if (this.#senders.size >= MAX_SENDERS) this.#senders.clear();
      bucket = new Bucket(this.#limits.perSender, now);
      this.#senders.set(sender, bucket);
    }
    return bucket.take(now);
  }

  #answerEnrRequest(msg: Buffer, rinfo: RemoteInfo): void {
    const body = RLP.decode(msg.subarray(HEADER));
    if (!Array.isArray(body) || !(body[0] instanceof Uint8Array)) throw new Error('ENRRequest is not [expiration]');
    this.#sendPacket(
      ENR_RESPONSE,
      [msg.subarray(0, 32), RLP.decode(this.#localRecord().raw)],
      rinfo.address,
      rinfo.port,
    );
  }

  #takeEnrResponse(msg: Buffer, rinfo: RemoteInfo): void {
    const body = RLP.decode(msg.subarray(HEADER));
    if (!Array.isArray(body) || body.length < 2 || !Array.isArray(body[1])) throw new Error('bad ENRResponse');
    const record = decodeRecord(RLP.encode(body[1] as Uint8Array[]));
    // The record must be the sender's own: its key signed the packet.
    const sender = secp256k1.ecdsaRecover(msg.subarray(32, 96), msg[96]!, keccak256(msg.subarray(97)), false);
    if (!equalsBytes(sender.subarray(1), record.id)) throw new Error('ENRResponse carries another node’s record');
    this.records.emit('record', record, rinfo);
  }

  #sendPacket(type: number, body: unknown[], address: string, port: number): void {
    const typed = Buffer.concat([Uint8Array.of(type), RLP.encode(body as Uint8Array[])]);
    const { signature, recid } = secp256k1.ecdsaSign(keccak256(typed), this.#privateKey);
    const signed = Buffer.concat([signature, Uint8Array.of(recid), typed]);
    const packet = Buffer.concat([keccak256(signed), signed]);
    this.send(packet, 0, packet.length, port, address);
  }
}

/** discv4 expiration: 20 s from now, in unix seconds. */
function expiration(): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, Math.floor(Date.now() / 1000) + 20);
  return out;
}
