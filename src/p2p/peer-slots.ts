/**
 * Who holds a peer slot, which pending handshake gives way, which peer a better one may replace, and which of two
 * links to one node survives: the connection table's policies as functions over its connections (peer-manager.ts
 * owns the table and acts on the answers).
 *
 * An inbound socket takes a peer slot (maxPeers) only once its Hello is in: until then it is a pending handshake,
 * held to its own limits (in all and per IP), and a new inbound socket that finds them full takes the place of the
 * oldest pending one. So idle sockets cannot lock real peers out: they only ever push each other out.
 */
import { compareBytes, equalsBytes } from '@ethereumjs/util';
import type { Connection } from './connection.js';
import { EVICTABLE_BELOW } from './peer-score.js';

/** Connections that hold a peer slot: every one but inbound sockets still in their handshake. */
export function admittedCount(connections: Iterable<Connection>): number {
  let n = 0;
  for (const c of connections) if (c.admitted) n++;
  return n;
}

export interface PendingDrop {
  readonly conn: Connection;
  readonly why: string;
  readonly limit: number;
}

/**
 * Before a new inbound socket from `ip` joins the pending handshakes: when its IP already has its share, or all
 * pending places are taken, the oldest pending handshake (of that IP, or of all) to cut. The table is in arrival
 * order, so the first pending one found is the oldest.
 */
export function pendingToDrop(
  connections: Iterable<Connection>,
  ip: string,
  perIp: number,
  total: number,
): PendingDrop | undefined {
  let oldest: Connection | undefined;
  let oldestOfIp: Connection | undefined;
  let pending = 0;
  let pendingOfIp = 0;
  for (const c of connections) {
    if (!c.pending) continue;
    pending++;
    oldest ??= c;
    if (c.remoteIp !== ip) continue;
    pendingOfIp++;
    oldestOfIp ??= c;
  }
  if (pendingOfIp >= perIp)
    return { conn: oldestOfIp!, why: `${pendingOfIp} pending handshakes from its IP`, limit: perIp };
  if (pending >= total) return { conn: oldest!, why: `${pending} pending handshakes`, limit: total };
  return undefined;
}

/** The lowest-scored peer that is neither configured nor trusted, if it scores below a new peer's start. */
export function worstEvictable(
  connections: Iterable<Connection>,
  trusted: ReadonlySet<string>,
): Connection | undefined {
  let worst: Connection | undefined;
  for (const c of connections) {
    if (c.status !== 'Handshaked' || c.foundBy === 'static' || c.session === undefined) continue;
    if (trusted.has(c.nodeIdHex ?? '')) continue;
    if (worst === undefined || c.session.score.value < worst.session!.score.value) worst = c;
  }
  return worst === undefined || worst.session!.score.value >= EVICTABLE_BELOW ? undefined : worst;
}

/** Another handshaked link to the same remote node, if any. */
export function rivalOf(connections: Iterable<Connection>, conn: Connection): Connection | undefined {
  for (const c of connections) if (c !== conn && c.status === 'Handshaked' && c.nodeIdHex === conn.nodeIdHex) return c;
  return undefined;
}

/** Of two links to one node, the one dialled by the lower node id (both sides agree); the older for one dialler. */
export function preferredLink(a: Connection, b: Connection, localId: Uint8Array): Connection {
  const da = a.dialler(localId);
  const db = b.dialler(localId);
  if (da === null || db === null || equalsBytes(da, db)) return b;
  return compareBytes(da, db) < 0 ? a : b;
}
