/**
 * EIP-778 node records ("v4" identity scheme): built and signed with the node key, decoded and verified from the
 * `enr:` text form that DNS trees and ENRResponse packets carry. Ours carries the EIP-2124 `eth` entry
 * (`[[forkHash, forkNext]]`), so a remote can tell our network before it dials.
 */
import { createRequire } from 'node:module';
import { isIPv4, isIPv6 } from 'node:net';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToInt, intToBytes } from '@ethereumjs/util';
import { keccak256 } from '../../chain/index.js';
import type { ForkId } from '../fork-id.js';

const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');

/** EIP-778: a record's RLP may not exceed 300 bytes. */
export const MAX_ENR_SIZE = 300;

export interface NodeRecord {
  readonly seq: bigint;
  /** 64-byte public key (the enode id). */
  readonly id: Uint8Array;
  readonly ip?: string;
  readonly tcp?: number;
  readonly udp?: number;
  /** The `eth` entry, when the record has one. */
  readonly forkId?: ForkId;
  /** The exact RLP the record was read from (or built as). */
  readonly raw: Uint8Array;
}

export class EnrError extends Error {
  override name = 'EnrError';
}

const utf8 = (text: string) => new TextEncoder().encode(text);

function ipBytes(ip: string): Uint8Array {
  if (isIPv4(ip)) return Uint8Array.from(ip.split('.').map(Number));
  throw new EnrError(`only IPv4 addresses go into our record, got ${ip}`);
}

function ipText(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.length === 16) {
    const groups: string[] = [];
    for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
    const text = groups.join(':');
    if (isIPv6(text)) return text;
  }
  throw new EnrError(`ip entry of ${bytes.length} bytes is no IPv4 or IPv6 address`);
}

/** Builds and signs a record; keys are written in sorted order as EIP-778 requires. */
export function buildRecord(
  privateKey: Uint8Array,
  fields: { seq: bigint; ip?: string; tcp?: number; udp?: number; forkId?: ForkId },
): NodeRecord {
  const pairs: [string, Uint8Array | Uint8Array[][]][] = [];
  if (fields.forkId) pairs.push(['eth', [[fields.forkId.hash, bigIntToUnpaddedBytes(fields.forkId.next)]]]);
  pairs.push(['id', utf8('v4')]);
  if (fields.ip !== undefined) pairs.push(['ip', ipBytes(fields.ip)]);
  pairs.push(['secp256k1', secp256k1.publicKeyCreate(privateKey, true)]);
  if (fields.tcp !== undefined) pairs.push(['tcp', intToBytes(fields.tcp)]);
  if (fields.udp !== undefined) pairs.push(['udp', intToBytes(fields.udp)]);
  const content = [bigIntToUnpaddedBytes(fields.seq), ...pairs.flatMap(([k, v]) => [utf8(k), v])];
  const { signature } = secp256k1.ecdsaSign(keccak256(RLP.encode(content)), privateKey);
  const raw = RLP.encode([signature, ...content]);
  if (raw.length > MAX_ENR_SIZE) throw new EnrError(`record is ${raw.length} bytes, over ${MAX_ENR_SIZE}`);
  return decodeRecord(raw);
}

/** Decodes and verifies a record's RLP; throws EnrError naming what is wrong. */
export function decodeRecord(raw: Uint8Array): NodeRecord {
  if (raw.length > MAX_ENR_SIZE) throw new EnrError(`record is ${raw.length} bytes, over ${MAX_ENR_SIZE}`);
  let items: unknown;
  try {
    items = RLP.decode(raw);
  } catch (err) {
    throw new EnrError(`record is not RLP: ${(err as Error).message}`);
  }
  if (!Array.isArray(items) || items.length < 2 || items.length % 2 !== 0)
    throw new EnrError('record is not [signature, seq, key, value, ...]');
  const [signature, seq, ...kv] = items as (Uint8Array | unknown[])[];
  if (!(signature instanceof Uint8Array) || !(seq instanceof Uint8Array) || seq.length > 8)
    throw new EnrError('record signature or seq is malformed');
  const entries = new Map<string, Uint8Array | unknown[]>();
  let previous = '';
  for (let i = 0; i < kv.length; i += 2) {
    const key = kv[i];
    if (!(key instanceof Uint8Array)) throw new EnrError('record key is not a byte string');
    const name = new TextDecoder().decode(key);
    if (name <= previous && i > 0) throw new EnrError('record keys are not sorted and unique');
    previous = name;
    entries.set(name, kv[i + 1]!);
  }
  const scheme = entries.get('id');
  if (!(scheme instanceof Uint8Array) || new TextDecoder().decode(scheme) !== 'v4')
    throw new EnrError('record does not use the v4 identity scheme');
  const key = entries.get('secp256k1');
  if (!(key instanceof Uint8Array) || key.length !== 33 || !secp256k1.publicKeyVerify(key))
    throw new EnrError('record has no valid compressed secp256k1 key');
  if (signature.length !== 64) throw new EnrError('record signature is not 64 bytes');
  const digest = keccak256(RLP.encode([seq, ...kv] as Uint8Array[]));
  let valid = false;
  try {
    valid = secp256k1.ecdsaVerify(signature, digest, key);
  } catch {
    valid = false;
  }
  if (!valid) throw new EnrError('record signature does not match its key');
  const id = secp256k1.publicKeyConvert(key, false).slice(1);
  const port = (name: string): number | undefined => {
    const v = entries.get(name);
    if (!(v instanceof Uint8Array)) return undefined;
    const n = v.length === 0 || v.length > 2 ? 0 : bytesToInt(v);
    if (n === 0) throw new EnrError(`record ${name} port is not 1–65535`);
    return n;
  };
  const ip = entries.get('ip');
  const tcp = port('tcp');
  const udp = port('udp');
  const forkId = forkIdOf(entries.get('eth'));
  return {
    seq: bytesToBigInt(seq),
    id,
    raw,
    ...(ip instanceof Uint8Array ? { ip: ipText(ip) } : {}),
    ...(tcp !== undefined ? { tcp } : {}),
    ...(udp !== undefined ? { udp } : {}),
    ...(forkId ? { forkId } : {}),
  };
}

/** The `eth` entry: `[[forkHash, forkNext], ...rest]`; anything else is ignored as unknown content. */
function forkIdOf(value: unknown): ForkId | undefined {
  if (!Array.isArray(value) || !Array.isArray(value[0])) return undefined;
  const [hash, next] = value[0] as unknown[];
  if (!(hash instanceof Uint8Array) || hash.length !== 4 || !(next instanceof Uint8Array) || next.length > 8)
    return undefined;
  return { hash, next: bytesToBigInt(next) };
}

/** `enr:` + unpadded base64url of the RLP (the text form). */
export function recordToText(record: NodeRecord): string {
  return `enr:${Buffer.from(record.raw).toString('base64url')}`;
}

export function recordFromText(text: string): NodeRecord {
  if (!text.startsWith('enr:')) throw new EnrError('text record does not start with "enr:"');
  const body = text.slice(4);
  // 300 bytes of RLP take at most 400 base64 characters; refuse longer text before decoding it.
  if (body.length > Math.ceil((MAX_ENR_SIZE * 4) / 3)) throw new EnrError(`record text is over ${MAX_ENR_SIZE} bytes`);
  if (!/^[A-Za-z0-9_-]*$/.test(body)) throw new EnrError('record text is not base64url');
  return decodeRecord(Uint8Array.from(Buffer.from(body, 'base64url')));
}
