/**
 * enode URLs (`enode://<128 hex digits>@<host>:<port>[?discport=<udp port>]`): parsing with messages an operator can
 * act on, and formatting. The node id is the peer's uncompressed secp256k1 public key without its 0x04 prefix; it
 * is checked to be a point on the curve here, so a typo fails at `net_connectToPeer` rather than in the handshake.
 */
import { createRequire } from 'node:module';
import { isIPv4, isIPv6 } from 'node:net';
import { PeerInputError } from './types.js';

const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');

export interface Enode {
  /** 64-byte public key. */
  readonly id: Uint8Array;
  /** IPv4 address, IPv6 address (without brackets) or DNS name. */
  readonly host: string;
  readonly port: number;
  /** The discovery (UDP) port from `?discport=`, when it differs from the TCP port. */
  readonly udpPort?: number;
}

const SCHEME = 'enode://';
const NODE_ID_HEX = /^[0-9a-fA-F]{128}$/;
/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME =
  /^(?=.{1,253}$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Whether 64 bytes are the x‖y coordinates of a point on secp256k1. */
export function isValidNodeId(id: Uint8Array): boolean {
  if (id.length !== 64) return false;
  const uncompressed = new Uint8Array(65);
  uncompressed[0] = 0x04;
  uncompressed.set(id, 1);
  return secp256k1.publicKeyVerify(uncompressed);
}

function parsePort(text: string, what: string, url: string): number {
  if (!/^[0-9]{1,5}$/.test(text)) throw new PeerInputError(`${what} "${text}" is not a number in enode URL ${url}`);
  const port = Number(text);
  if (port < 1 || port > 65535) throw new PeerInputError(`${what} ${port} is outside 1–65535 in enode URL ${url}`);
  return port;
}

/** Throws PeerInputError whose message names the problem. */
export function parseEnode(url: string): Enode {
  const text = url.trim();
  if (!text.toLowerCase().startsWith(SCHEME))
    throw new PeerInputError(`not an enode URL (missing enode:// scheme): ${url}`);
  const rest = text.slice(SCHEME.length);
  const at = rest.indexOf('@');
  if (at < 0) throw new PeerInputError(`enode URL has no @host:port after the node id: ${url}`);

  const idHex = rest.slice(0, at);
  if (!NODE_ID_HEX.test(idHex)) {
    throw new PeerInputError(
      `node id must be 128 hex digits (a 64-byte public key), got ${idHex.length} characters: ${url}`,
    );
  }
  const id = Uint8Array.from(Buffer.from(idHex, 'hex'));
  if (!isValidNodeId(id)) throw new PeerInputError(`node id is not a valid secp256k1 public key: ${url}`);

  // The query may only carry the discovery (UDP) port, for when it is not the TCP port.
  let address = rest.slice(at + 1);
  const q = address.indexOf('?');
  let udpPort: number | undefined;
  if (q >= 0) {
    const query = new URLSearchParams(address.slice(q + 1));
    for (const [key, value] of query) {
      if (key !== 'discport') throw new PeerInputError(`unsupported enode URL parameter "${key}": ${url}`);
      udpPort = parsePort(value, 'discport', url);
    }
    address = address.slice(0, q);
  }

  let host: string;
  let portText: string;
  if (address.startsWith('[')) {
    const close = address.indexOf(']');
    if (close < 0) throw new PeerInputError(`unclosed [ in IPv6 host: ${url}`);
    host = address.slice(1, close);
    if (!isIPv6(host)) throw new PeerInputError(`"${host}" is not an IPv6 address: ${url}`);
    const after = address.slice(close + 1);
    if (!after.startsWith(':')) throw new PeerInputError(`enode URL has no :port after the host: ${url}`);
    portText = after.slice(1);
  } else {
    const colon = address.lastIndexOf(':');
    if (colon < 0) throw new PeerInputError(`enode URL has no :port after the host: ${url}`);
    host = address.slice(0, colon);
    portText = address.slice(colon + 1);
    if (host.includes(':')) throw new PeerInputError(`an IPv6 host must be written in brackets ([${host}]): ${url}`);
    if (host === '') throw new PeerInputError(`enode URL has no host: ${url}`);
    if (!isIPv4(host) && (/^[0-9.]+$/.test(host) || !HOST_NAME.test(host))) {
      throw new PeerInputError(`"${host}" is not an IP address or host name: ${url}`);
    }
  }
  if (portText === '') throw new PeerInputError(`enode URL has no port: ${url}`);
  const port = parsePort(portText, 'port', url);
  return { id, host: host.toLowerCase(), port, ...(udpPort !== undefined && udpPort !== port ? { udpPort } : {}) };
}

/** `enode://<hex id>@<host>:<port>[?discport=<udp port>]`, IPv6 hosts in brackets. */
export function formatEnode(e: Enode): string {
  const host = e.host.includes(':') ? `[${e.host}]` : e.host;
  const disc = e.udpPort !== undefined && e.udpPort !== e.port ? `?discport=${e.udpPort}` : '';
  return `${SCHEME}${Buffer.from(e.id.buffer, e.id.byteOffset, e.id.byteLength).toString('hex')}@${host}:${e.port}${disc}`;
}
