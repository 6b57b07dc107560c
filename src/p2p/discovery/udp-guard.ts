/**
 * The discovery UDP socket with a doorman in front of the discv4 library, which answers whatever reaches it:
 * - packets that are oversized, too short, or come faster than their sender's budget (checked first, so one
 *   flooding sender spends only its own share) or everyone's are dropped before any hashing or decoding; then
 *   those with a wrong hash, an unknown type, a bad signature or an expiration in the past;
 * - discv4's endpoint proof (discv4.md): FINDNODE and ENRRequest are answered only to a sender bonded with us
 *   (it answered our PING with a matching PONG within 12 h); NEIGHBOURS, PONG and ENRResponse are taken only
 *   in answer to our own FINDNODE, PING or ENRRequest;
 * - PING is answered here, its PONG sent to the packet's real source; the `from` it names is never pinged (the
 *   library would): an unbonded sender is pinged back at its real source through `bondWith`;
 * - a FINDNODE of ours waits, as geth's does, until the node has pinged us and had our PONG (so it holds a bond
 *   for us and answers), or a second at most;
 * - EIP-868 ENRRequest/ENRResponse (types 5 and 6), which the library does not speak, are handled here.
 * What is dropped is counted and reported at most once per window. To the library it looks like a dgram socket
 * (it creates it through `createSocket`).
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { EventEmitter } from 'node:events';
import { RLP } from '@ethereumjs/rlp';
import { equalsBytes } from '@ethereumjs/util';
import { keccak256 } from '../../chain/index.js';
import { decodeRecord, type NodeRecord } from './enr.js';
import { EndpointProof, endpointKey } from './endpoint-proof.js';
import {
  ENR_REQUEST,
  ENR_RESPONSE,
  type Endpoint,
  endpointField,
  expiration,
  FINDNODE,
  HEADER,
  isExpired,
  NEIGHBOURS,
  neighbourCount,
  type Packet,
  PacketError,
  PING,
  PONG,
  pingTcpPort,
  readPacket,
  signPacket,
} from './packet.js';

/** discv4's packet limit. */
export const MAX_PACKET = 1280;
const NEIGHBOURS_PER_PACKET = 12;
/** How long a FINDNODE of ours waits for the node's PING (discv4.md, "Known Issues": geth waits likewise). */
const FINDNODE_WAIT_MS = 1_000;
/** Bytes of kernel receive queue asked for (2 MiB: a few thousand packets, some 100 ms of a heavy flood). */
const RECEIVE_BUFFER = 2 * 1024 * 1024;
/** FINDNODEs waiting at once; past it they go out unwaited. */
const MAX_WAITING_FINDNODES = 256;

export interface GuardLimits {
  /** Packets per second one sender (ip:port) may send; a burst of twice that is tolerated. */
  readonly perSender: number;
  /** Packets per second from everyone together. */
  readonly total: number;
}

export interface GuardOptions {
  readonly limits: GuardLimits;
  /** What our PINGs announce as `from`. */
  readonly endpoint: Endpoint;
  /**
   * Called for the sender of a PING (at its real source address, with the TCP port it named) that is not bonded
   * with us and has no PING of ours pending: it should be pinged once. The default pings it from here; the node's discovery has the library do
   * it when the sender is new to its table, so the PONG also adds it there.
   */
  readonly bondWith?: (peer: Endpoint & { id: Uint8Array }) => void;
}

export type DropReason =
  | 'oversized'
  | 'malformed'
  | 'rateLimited'
  | 'badRecord'
  | 'badSignature'
  | 'expired'
  | 'unbonded'
  | 'unsolicited';

export const DROP_REASONS: readonly DropReason[] = [
  'oversized',
  'malformed',
  'rateLimited',
  'badRecord',
  'badSignature',
  'expired',
  'unbonded',
  'unsolicited',
];

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
  refill(now: number): void {
    this.tokens = Math.min(this.rate * 2, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
  }
  take(now: number): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}

/** Most senders tracked at once; past it the table starts over (bounded memory under a spoofed-source flood). */
const MAX_SENDERS = 4096;

interface WaitingFindnode {
  readonly msg: Buffer;
  readonly address: string;
  readonly port: number;
  readonly timer: NodeJS.Timeout;
}

export class GuardedUdpSocket extends EventEmitter {
  readonly records = new EventEmitter<GuardEvents>();
  readonly dropped = Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>;
  received = 0;
  readonly proof = new EndpointProof();
  readonly #socket: Socket;
  readonly #options: GuardOptions;
  readonly #senders = new Map<string, Bucket>();
  readonly #total: Bucket;
  readonly #privateKey: Uint8Array;
  readonly #localRecord: () => NodeRecord;
  readonly #waiting = new Map<string, WaitingFindnode>();

  constructor(privateKey: Uint8Array, localRecord: () => NodeRecord, options: GuardOptions) {
    super();
    this.#privateKey = privateKey;
    this.#localRecord = localRecord;
    this.#options = options;
    this.#total = new Bucket(options.limits.total, Date.now());
    this.#socket = createSocket({ type: 'udp4' });
    this.#socket.on('listening', () => {
      this.#widenReceiveBuffer();
      this.emit('listening');
    });
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

  /**
   * A flood fills the kernel's receive queue while the process is busy, and what arrives then is lost whoever
   * sent it; a larger queue (the kernel caps it at net.core.rmem_max) lets the per-sender budget do the choosing.
   */
  #widenReceiveBuffer(): void {
    try {
      if (this.#socket.getRecvBufferSize() < RECEIVE_BUFFER) this.#socket.setRecvBufferSize(RECEIVE_BUFFER);
    } catch {
      // Refused by the system: the default queue still works, it only loses more under a flood.
    }
  }

  /** The library's way out: its PINGs and FINDNODEs are noted (their answers are then expected), and sent. */
  send(msg: Uint8Array, offset: number, length: number, port: number, address: string): void {
    const packet = Buffer.from(msg.subarray(offset, offset + length));
    const endpoint = endpointKey(address, port);
    const type = packet[HEADER - 1];
    if (type === PING) this.proof.pingSent(endpoint, packet.subarray(0, 32), Date.now());
    if (type === FINDNODE) return this.#sendFindnode(packet, address, port);
    // The library answers FINDNODE with up to 16 nodes in one packet, over discv4's 1280 bytes (geth and we drop
    // those): such an answer goes out as several packets of 12 nodes, as geth sends them.
    if (packet.length > MAX_PACKET && type === NEIGHBOURS) return this.#splitNeighbours(packet, address, port);
    this.#raw(packet, address, port);
  }

  close(): void {
    for (const waiting of this.#waiting.values()) clearTimeout(waiting.timer);
    this.#waiting.clear();
    this.#socket.close();
  }

  drop(reason: DropReason): void {
    this.dropped[reason]++;
  }

  /** Pings a node (its PONG bonds it with us). */
  ping(address: string, port: number): void {
    const to = endpointField({ address, udpPort: port, tcpPort: 0 });
    const packet = this.#sign(PING, [Uint8Array.of(4), endpointField(this.#options.endpoint), to, expiration()]);
    this.proof.pingSent(endpointKey(address, port), packet.subarray(0, 32), Date.now());
    this.#raw(packet, address, port);
  }

  /** Asks a node for its record (EIP-868); the answer arrives as a `record` event. */
  requestRecord(address: string, port: number): void {
    const packet = this.#sign(ENR_REQUEST, [expiration()]);
    this.proof.enrRequested(endpointKey(address, port), packet.subarray(0, 32), Date.now());
    this.#raw(packet, address, port);
  }

  #onMessage(msg: Buffer, rinfo: RemoteInfo): void {
    this.received++;
    if (msg.length > MAX_PACKET) return this.drop('oversized');
    if (msg.length < HEADER + 1) return this.drop('malformed');
    const now = Date.now();
    const endpoint = endpointKey(rinfo.address, rinfo.port);
    if (!this.#allowed(endpoint, now)) return this.drop('rateLimited');
    if (!equalsBytes(msg.subarray(0, 32), keccak256(msg.subarray(32)))) return this.drop('malformed');
    const type = msg[HEADER - 1]!;
    if (type < PING || type > ENR_RESPONSE) return this.drop('malformed');
    let packet: Packet;
    try {
      packet = readPacket(msg);
      if (isExpired(packet, now)) return this.drop('expired');
    } catch (err) {
      return this.drop(err instanceof PacketError ? err.fault : 'malformed');
    }
    try {
      this.#dispatch(packet, msg, rinfo, endpoint, now);
    } catch {
      this.drop(type === ENR_RESPONSE ? 'badRecord' : 'malformed');
    }
  }

  #dispatch(packet: Packet, msg: Buffer, rinfo: RemoteInfo, endpoint: string, now: number): void {
    const bonded = this.proof.isBonded(packet.sender, endpoint, now);
    switch (packet.type) {
      case PING:
        return this.#answerPing(packet, rinfo, endpoint, bonded, now);
      case PONG:
        if (!this.proof.pongReceived(packet.sender, endpoint, packet.body[1], now)) return this.drop('unsolicited');
        return void this.emit('message', msg, rinfo);
      case FINDNODE:
        if (bonded) return void this.emit('message', msg, rinfo);
        // Nothing answered, but a ping (smaller than the FINDNODE): a node whose bond we forgot (we restarted)
        // gets it back. It named no TCP port, so it is not a dial candidate: the library's table is not asked.
        if (!this.proof.pingPending(endpoint, now)) this.ping(rinfo.address, rinfo.port);
        return this.drop('unbonded');
      case NEIGHBOURS:
        if (!this.proof.takeNeighbours(endpoint, neighbourCount(packet), now)) return this.drop('unsolicited');
        return void this.emit('message', msg, rinfo);
      case ENR_REQUEST:
        if (!bonded) return this.drop('unbonded');
        return this.#sendPacket(ENR_RESPONSE, [packet.hash, RLP.decode(this.#localRecord().raw)], rinfo);
      case ENR_RESPONSE:
        if (!this.proof.takeEnrResponse(endpoint, packet.body[0], now)) return this.drop('unsolicited');
        return this.#takeEnrResponse(packet, rinfo);
    }
  }

  #answerPing(packet: Packet, rinfo: RemoteInfo, endpoint: string, bonded: boolean, now: number): void {
    const tcpPort = pingTcpPort(packet);
    const to = endpointField({ address: rinfo.address, udpPort: rinfo.port, tcpPort });
    this.#sendPacket(PONG, [to, packet.hash, expiration(now)], rinfo);
    this.proof.pingAnswered(endpoint, now);
    // It now holds a bond for us: a FINDNODE of ours that waited for this can go (after the PONG, in order).
    this.#releaseFindnode(endpoint);
    // discv4.md: "a ping should be sent in addition to pong in order to receive an endpoint proof".
    if (bonded || this.proof.pingPending(endpoint, now)) return;
    const peer = { id: packet.sender, address: rinfo.address, udpPort: rinfo.port, tcpPort };
    if (this.#options.bondWith !== undefined) this.#options.bondWith(peer);
    else this.ping(peer.address, peer.udpPort);
  }

  #sendFindnode(packet: Buffer, address: string, port: number): void {
    const endpoint = endpointKey(address, port);
    const now = Date.now();
    if (this.proof.bondedByThem(endpoint, now) || this.#waiting.size >= MAX_WAITING_FINDNODES) {
      this.proof.findSent(endpoint, now);
      return this.#raw(packet, address, port);
    }
    // discv4.md, "Known Issues": ping, wait for the node's PING, answer it, then ask.
    const earlier = this.#waiting.get(endpoint);
    if (earlier !== undefined) clearTimeout(earlier.timer);
    const timer = setTimeout(() => this.#releaseFindnode(endpoint), FINDNODE_WAIT_MS);
    timer.unref();
    this.#waiting.set(endpoint, { msg: packet, address, port, timer });
    if (!this.proof.pingPending(endpoint, now)) this.ping(address, port);
  }

  #releaseFindnode(endpoint: string): void {
    const waiting = this.#waiting.get(endpoint);
    if (waiting === undefined) return;
    clearTimeout(waiting.timer);
    this.#waiting.delete(endpoint);
    this.proof.findSent(endpoint, Date.now());
    this.#raw(waiting.msg, waiting.address, waiting.port);
  }

  #splitNeighbours(msg: Buffer, address: string, port: number): void {
    const [nodes, expires] = RLP.decode(msg.subarray(HEADER)) as [Uint8Array[][], Uint8Array];
    for (let i = 0; i < nodes.length; i += NEIGHBOURS_PER_PACKET)
      this.#raw(this.#sign(NEIGHBOURS, [nodes.slice(i, i + NEIGHBOURS_PER_PACKET), expires]), address, port);
  }

  /** The sender's own budget first: a sender past it spends nothing of everyone's, so it cannot starve others. */
  #allowed(sender: string, now: number): boolean {
    let bucket = this.#senders.get(sender);
    if (bucket === undefined) {
      if (this.#senders.size >= MAX_SENDERS) this.#senders.clear();
      bucket = new Bucket(this.#options.limits.perSender, now);
      this.#senders.set(sender, bucket);
    }
    if (!bucket.take(now)) return false;
    return this.#total.take(now);
  }

  #takeEnrResponse(packet: Packet, rinfo: RemoteInfo): void {
    if (packet.body.length < 2 || !Array.isArray(packet.body[1])) throw new Error('bad ENRResponse');
    const record = decodeRecord(RLP.encode(packet.body[1] as Uint8Array[]));
    // The record must be the sender's own: its key signed the packet.
    if (!equalsBytes(packet.sender, record.id)) throw new Error('ENRResponse carries another node’s record');
    this.records.emit('record', record, rinfo);
  }

  #sign(type: number, body: unknown[]): Buffer {
    return signPacket(type, body, this.#privateKey);
  }

  #sendPacket(type: number, body: unknown[], to: RemoteInfo): void {
    this.#raw(this.#sign(type, body), to.address, to.port);
  }

  #raw(packet: Uint8Array, address: string, port: number): void {
    this.#socket.send(packet, 0, packet.length, port, address, () => undefined);
  }
}
