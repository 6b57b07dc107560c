/**
 * discv4 packets as the guard reads and writes them (discv4.md, "Wire Protocol"): the header's hash, the
 * sender's key recovered from the signature, the RLP body (extra list elements and trailing bytes ignored, as
 * EIP-8 asks), and the expiration every request carries. The library decodes again what the guard lets through.
 */
import { createRequire } from 'node:module';
import { isIPv4 } from 'node:net';
import { RLP } from '@ethereumjs/rlp';
import { keccak256 } from '../../chain/index.js';

const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');

/** hash (32) + signature (65) + type (1). */
export const HEADER = 98;
export const PING = 0x01;
export const PONG = 0x02;
export const FINDNODE = 0x03;
export const NEIGHBOURS = 0x04;
export const ENR_REQUEST = 0x05;
export const ENR_RESPONSE = 0x06;

/** Where each type keeps its expiration in the body; ENRResponse has none. */
const EXPIRATION_AT: Record<number, number> = {
  [PING]: 3,
  [PONG]: 2,
  [FINDNODE]: 1,
  [NEIGHBOURS]: 1,
  [ENR_REQUEST]: 0,
};
/** How far ahead our own packets expire. */
const EXPIRES_IN_S = 20;

export type PacketFault = 'malformed' | 'badSignature';

export class PacketError extends Error {
  constructor(
    readonly fault: PacketFault,
    message: string,
  ) {
    super(message);
  }
}

export interface Packet {
  readonly hash: Uint8Array;
  readonly type: number;
  /** The sender's node id: its 64-byte public key, recovered from the signature. */
  readonly sender: Uint8Array;
  readonly body: readonly unknown[];
}

export interface Endpoint {
  readonly address: string;
  readonly udpPort: number;
  readonly tcpPort: number;
}

/** Reads a packet whose hash the caller has checked; throws a PacketError naming what is wrong with it. */
export function readPacket(msg: Uint8Array): Packet {
  const type = msg[HEADER - 1]!;
  let body: unknown;
  try {
    body = RLP.decode(msg.subarray(HEADER), true).data;
  } catch {
    throw new PacketError('malformed', 'body is not RLP');
  }
  if (!Array.isArray(body)) throw new PacketError('malformed', 'body is not a list');
  let key: Uint8Array;
  try {
    key = secp256k1.ecdsaRecover(msg.subarray(32, 96), msg[96]!, keccak256(msg.subarray(HEADER - 1)), false);
  } catch {
    throw new PacketError('badSignature', 'no key recovers from the signature');
  }
  return { hash: msg.subarray(0, 32), type, sender: key.subarray(1), body };
}

/** The packet's expiration in unix seconds (null for a type without one); throws if the field is not a number. */
export function expirationOf(packet: Packet): number | null {
  const at = EXPIRATION_AT[packet.type];
  if (at === undefined) return null;
  const field = packet.body[at];
  if (!(field instanceof Uint8Array) || field.length > 8) throw new PacketError('malformed', 'bad expiration');
  return Number(field.reduce((n, b) => (n << 8n) | BigInt(b), 0n));
}

export function isExpired(packet: Packet, nowMs: number): boolean {
  const expiration = expirationOf(packet);
  return expiration !== null && expiration < Math.floor(nowMs / 1000);
}

/** The TCP port a PING's `from` names (0 if none): the only part of `from` we use, and only with the real source. */
export function pingTcpPort(packet: Packet): number {
  const from = packet.body[1];
  if (!Array.isArray(from) || !(from[2] instanceof Uint8Array) || from[2].length > 2) return 0;
  return from[2].reduce((n, b) => (n << 8) | b, 0);
}

/** The number of nodes a NEIGHBOURS packet lists; throws if it has no list of nodes. */
export function neighbourCount(packet: Packet): number {
  const nodes = packet.body[0];
  if (!Array.isArray(nodes)) throw new PacketError('malformed', 'NEIGHBOURS without a node list');
  return nodes.length;
}

/** Signs and frames a packet; its first 32 bytes are the hash a PONG or ENRResponse echoes. */
export function signPacket(type: number, body: unknown[], privateKey: Uint8Array): Buffer {
  const typed = Buffer.concat([Uint8Array.of(type), RLP.encode(body as Uint8Array[])]);
  const { signature, recid } = secp256k1.ecdsaSign(keccak256(typed), privateKey);
  const signed = Buffer.concat([signature, Uint8Array.of(recid), typed]);
  return Buffer.concat([keccak256(signed), signed]);
}

/** discv4 expiration: a few seconds from now, in unix seconds. */
export function expiration(nowMs = Date.now()): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, Math.floor(nowMs / 1000) + EXPIRES_IN_S);
  return out;
}

export function endpointField(e: Endpoint): Uint8Array[] {
  return [ipBytes(e.address), portBytes(e.udpPort), portBytes(e.tcpPort)];
}

function ipBytes(address: string): Uint8Array {
  return isIPv4(address) ? Uint8Array.from(address.split('.').map(Number)) : new Uint8Array(4);
}

function portBytes(port: number): Uint8Array {
  return port === 0 ? new Uint8Array() : Uint8Array.of(port >> 8, port & 0xff);
}
