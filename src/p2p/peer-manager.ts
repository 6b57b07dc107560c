/**
 * The connection table: listens for peers, dials static peers (and redials them with jitter), enforces the
 * blacklist and the peer limit, runs each link's eth handshake, and keeps one link per remote node.
 *
 * Two rules here answer known traps of devp2p stacks (etc-chain-and-p2p.md §3.3):
 * - a simultaneous dial in both directions yields two links; both sides keep the one dialled by the lower
 *   node id and drop the other, so they agree and one link survives (instead of each side killing the other's);
 * - an inbound socket from a blacklisted IP is closed before any handshake; a blacklisted node id is dropped
 *   as soon as its Hello reveals it, whichever side dialled.
 *
 * Which socket holds a slot, gives way or survives is decided in peer-slots.ts.
 */
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { Blacklist } from './blacklist.js';
import { Connection } from './connection.js';
import { DialPool, type DialTarget } from './dial-pool.js';
import { formatEnode, type Enode } from './enode.js';
import { EthSession, type SessionError, type LocalStatus, type SessionHost } from './eth/session.js';
import { normaliseIp } from './blacklist.js';
import { DisconnectReason, disconnectReasonName, RlpxLink } from './rlpx/transport.js';
import { connectionRow, idleTargetRow } from './peer-rows.js';
import { admittedCount, pendingToDrop, preferredLink, rivalOf, worstEvictable } from './peer-slots.js';
import { DEFAULT_MAX_PENDING_PEERS, DEFAULT_MAX_PENDING_PEERS_PER_IP } from './pending-limits.js';
import type { PeerDetails, PeerSource, PeerSummary } from './types.js';
import { DialFailures, linkFailureReason, socketFailureReason } from './dial-failures.js';

export interface PeerLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
}

export interface PeerManagerOptions {
  readonly privateKey: Uint8Array;
  readonly nodeId: Uint8Array;
  readonly clientId: string;
  readonly listenHost: string;
  readonly listenPort: number;
  readonly maxPeers: number;
  /** Inbound sockets still in their handshake at once, in all and from one IP; default 32 and 4. */
  readonly maxPendingPeers?: number;
  readonly maxPendingPeersPerIp?: number;
  /** Share (0–1) of maxPeers we fill by dialling discovered nodes; the rest is left for inbound peers. */
  readonly dialRatio?: number;
  readonly blacklist: Blacklist;
  readonly local: LocalStatus;
  readonly host: SessionHost;
  readonly log: PeerLog;
  /** A session passed its STATUS handshake / went away. */
  readonly onSessionReady: (session: EthSession) => void;
  readonly onSessionGone: (session: EthSession) => void;
  /** A peer showed another network, genesis or fork in STATUS; it is blacklisted for a while as well. */
  readonly onIncompatible?: (idHex: string) => void;
  /** Base of the redial delay; a random 0–100 % is added so that restarted nodes do not dial in lockstep. */
  readonly redialMs?: number;
}

export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** A peer whose STATUS shows another network or fork is not dialled (or let in) again for this long. */
const INCOMPATIBLE_BAN_SECONDS = 1800;
/** An unreachable configured peer is reported at info at most this often. */
const UNREACHABLE_LOG_MS = 60_000;

export class PeerManager {
  readonly #opts: PeerManagerOptions;
  readonly #connections = new Set<Connection>();
  readonly #targets = new Map<string, DialTarget>();
  readonly #pool: DialPool;
  dialsTried = 0;
  dialsSucceeded = 0;
  readonly dialFailures = new DialFailures();
  #server: Server | undefined;
  #tick: NodeJS.Timeout | undefined;
  #port = 0;
  #closing = false;

  constructor(options: PeerManagerOptions) {
    this.#opts = options;
    this.#pool = new DialPool(options.redialMs ?? 2_000);
  }

  get listenPort(): number {
    return this.#port;
  }

  get nodeIdHex(): string {
    return bytesToHex(this.#opts.nodeId).slice(2);
  }

  async start(): Promise<void> {
    const server = createServer({ noDelay: true }, (socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#opts.listenPort, this.#opts.listenHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (err) => this.#opts.log.warn('p2p server error', { error: err.message }));
    this.#server = server;
    const address = server.address();
    this.#port = typeof address === 'object' && address !== null ? address.port : this.#opts.listenPort;
    this.#tick = setInterval(() => this.dialDue(), 500);
    this.#tick.unref();
  }

  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#tick);
    for (const c of this.#connections) {
      if (c.link && c.status === 'Handshaked') c.link.disconnect(DisconnectReason.CLIENT_QUITTING);
      else c.link?.destroy();
    }
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
    // Give DISCONNECT messages a moment to leave, then cut what is left.
    await new Promise((r) => setTimeout(r, 50));
    for (const c of this.#connections) c.link?.destroy();
  }

  // ------------------------------------------------------------------ static peers and dialling

  /** Node ids (hex) of trusted peers (admin_addTrustedPeer): dialled over maxPeers, never evicted. */
  readonly trusted = new Set<string>();

  /** Forgets a peer to keep connected (no more redials) and drops its connection; false when it was neither. */
  removeStatic(idHex: string): boolean {
    const known = this.#targets.delete(idHex);
    return this.disconnect(idHex) || known;
  }

  /** Adds a peer to keep connected (bootnodes, static-nodes.json, net_connectToPeer) and dials it soon. */
  addStatic(enode: Enode): void {
    const idHex = bytesToHex(enode.id).slice(2);
    if (idHex === this.nodeIdHex) return;
    const existing = this.#targets.get(idHex);
    if (existing) {
      existing.nextDialAt = 0;
      return;
    }
    this.#targets.set(idHex, { enode, idHex, foundBy: 'static', pooled: false, nextDialAt: 0, failures: 0 });
    this.#pool.remove(idHex);
    if (this.#tick) setImmediate(() => this.dialDue());
  }

  /** A node found by discovery, DNS or a bootnode list: dialled while outbound room is left, not kept connected. */
  addCandidate(enode: Enode, foundBy: PeerSource): void {
    const idHex = bytesToHex(enode.id).slice(2);
    if (idHex === this.nodeIdHex || this.#targets.has(idHex)) return;
    this.#pool.add(enode, foundBy);
  }

  get candidateCount(): number {
    return this.#pool.size;
  }

  get staticCount(): number {
    return this.#targets.size;
  }

  private dialDue(): void {
    if (this.#closing) return;
    const now = Date.now();
    for (const target of this.#targets.values()) {
      if (target.nextDialAt > now || this.connectedTo(target.idHex)) continue;
      if (this.#opts.blacklist.blocking(normaliseIp(target.enode.host), target.idHex)) {
        target.nextDialAt = now + this.redialDelay(target);
        continue;
      }
      if (admittedCount(this.#connections) >= this.#opts.maxPeers && !this.trusted.has(target.idHex)) continue;
      target.nextDialAt = Number.POSITIVE_INFINITY; // until this attempt ends
      this.dial(target);
    }
    // Discovered nodes fill the outbound share of the table; the rest stays open for nodes that dial us.
    const outboundRoom = Math.max(1, Math.ceil(this.#opts.maxPeers * (this.#opts.dialRatio ?? 0.5)));
    let outbound = 0;
    for (const c of this.#connections) if (c.target?.pooled) outbound++;
    const skip = (t: DialTarget) =>
      this.connectedTo(t.idHex) || this.#opts.blacklist.blocking(normaliseIp(t.enode.host), t.idHex) !== undefined;
    let admitted = admittedCount(this.#connections);
    for (const candidate of this.#pool.due(now, skip)) {
      if (outbound >= outboundRoom || admitted >= this.#opts.maxPeers) return;
      admitted++;
      candidate.nextDialAt = Number.POSITIVE_INFINITY;
      outbound++;
      this.dial(candidate);
    }
  }

  private redialDelay(target: DialTarget): number {
    const base = this.#opts.redialMs ?? 2_000;
    const backoff = base * Math.min(2 ** Math.min(target.failures, 4), 15);
    return backoff + Math.random() * base;
  }

  private connectedTo(idHex: string): boolean {
    for (const c of this.#connections) if (c.nodeIdHex === idHex) return true;
    return false;
  }

  private dial(target: DialTarget): void {
    const { host, port } = target.enode;
    this.dialsTried++;
    const conn = new Connection(`${host}:${port}`, normaliseIp(host), false, target, target.enode.id, target.foundBy);
    this.#connections.add(conn);
    const socket = tcpConnect({ host, port, noDelay: true });
    let connectTimedOut = false;
    const connectTimer = setTimeout(() => {
      connectTimedOut = true;
      socket.destroy(new Error('connect timeout'));
    }, HANDSHAKE_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(connectTimer);
      this.startLink(conn, socket);
    });
    socket.on('error', (err) => {
      if (conn.link === undefined) conn.dialFailure ??= socketFailureReason(err, connectTimedOut);
      const now = Date.now();
      // A configured peer the operator expects is worth an info line (at a slow pace); a discovered one is not.
      if (target.foundBy === 'static' && now - (target.loggedAt ?? 0) >= UNREACHABLE_LOG_MS) {
        target.loggedAt = now;
        this.#opts.log.info('p2p configured peer unreachable', {
          peer: formatEnode(target.enode),
          error: err.message,
          failures: target.failures + 1,
        });
      } else this.#opts.log.debug('p2p dial failed', { peer: formatEnode(target.enode), error: err.message });
    });
    socket.once('close', () => {
      clearTimeout(connectTimer);
      if (conn.link === undefined) this.forget(conn, 'dial failed');
    });
  }

  // ------------------------------------------------------------------ inbound

  private accept(socket: Socket): void {
    const ip = normaliseIp(socket.remoteAddress ?? '');
    const id = `${ip}:${socket.remotePort}`;
    if (this.#closing) return void socket.destroy();
    // Trap (d): a blocked address never gets as far as a handshake.
    const banned = this.#opts.blacklist.blocking(ip, undefined);
    if (banned) {
      this.#opts.log.debug('p2p inbound refused: blacklisted', { peer: id, reason: banned.reason });
      return void socket.destroy();
    }
    // Full of peers none of which a newcomer could replace: not worth a handshake. Otherwise the newcomer's Hello
    // decides (onHello), so that a socket that never finishes its handshake costs no peer its place.
    if (
      admittedCount(this.#connections) >= this.#opts.maxPeers &&
      worstEvictable(this.#connections, this.trusted) === undefined
    ) {
      this.#opts.log.debug('p2p inbound refused: too many peers', { peer: id, maxPeers: this.#opts.maxPeers });
      return void socket.destroy();
    }
    const perIp = this.#opts.maxPendingPeersPerIp ?? DEFAULT_MAX_PENDING_PEERS_PER_IP;
    const drop = pendingToDrop(this.#connections, ip, perIp, this.#opts.maxPendingPeers ?? DEFAULT_MAX_PENDING_PEERS);
    if (drop) this.dropPending(drop.conn, drop.why, drop.limit);
    const conn = new Connection(id, ip, true, undefined, null, 'inbound');
    this.#connections.add(conn);
    socket.on('error', () => undefined);
    this.startLink(conn, socket);
  }

  private dropPending(conn: Connection, why: string, limit: number): void {
    this.#opts.log.debug('p2p pending handshake dropped for a newer one', { peer: conn.id, reason: why, limit });
    conn.link?.destroy();
    this.forget(conn, 'pending handshake dropped');
  }

  // ------------------------------------------------------------------ link life cycle

  private startLink(conn: Connection, socket: Socket): void {
    conn.status = 'Handshaking';
    const handshakeTimer = setTimeout(() => {
      if (conn.status !== 'Handshaked') {
        this.#opts.log.debug('p2p handshake timed out', { peer: conn.id });
        conn.link?.destroy();
      }
    }, HANDSHAKE_TIMEOUT_MS);
    const link = new RlpxLink({
      socket,
      privateKey: this.#opts.privateKey,
      nodeId: this.#opts.nodeId,
      remoteId: conn.incoming ? null : conn.nodeId,
      clientId: this.#opts.clientId,
      listenPort: this.#port,
      events: {
        onConnect: (shared) => void this.onHello(conn, link, shared),
        onMessage: (protocol, code, payload) => conn.session?.handle(protocol, code, payload),
        onError: (err) =>
          this.#opts.log.debug('p2p link error', { peer: conn.id, nodeId: conn.nodeIdHex, error: err.message }),
        onClose: (reason, byUs) => {
          clearTimeout(handshakeTimer);
          this.onClosed(conn, reason, byUs);
        },
      },
    });
    conn.link = link;
  }

  /** When full: drops the peer worstEvictable names, if any. */
  private evictWorst(): boolean {
    const worst = worstEvictable(this.#connections, this.trusted);
    if (worst === undefined) return false;
    this.#opts.log.info('p2p peer dropped for a better one', { peer: worst.id, score: worst.session!.score.value });
    worst.link?.disconnect(DisconnectReason.TOO_MANY_PEERS);
    this.forget(worst, 'evicted');
    return true;
  }

  private async onHello(conn: Connection, link: RlpxLink, shared: ReadonlySet<string>): Promise<void> {
    conn.nodeId = link.remoteId;
    const idHex = conn.nodeIdHex!;
    if (equalsBytes(conn.nodeId!, this.#opts.nodeId)) return link.disconnect(DisconnectReason.SAME_IDENTITY);
    const banned = this.#opts.blacklist.blocking(conn.remoteIp, idHex);
    if (banned) {
      this.#opts.log.debug('p2p peer refused: blacklisted', { peer: conn.id, nodeId: idHex, reason: banned.reason });
      return link.disconnect(DisconnectReason.USELESS_PEER);
    }
    if (!shared.has('eth')) return link.disconnect(DisconnectReason.USELESS_PEER);
    if (conn.pending) {
      // Its handshake is done: now it needs a peer slot (a trusted peer gets one over maxPeers).
      if (admittedCount(this.#connections) >= this.#opts.maxPeers && !this.trusted.has(idHex) && !this.evictWorst()) {
        this.#opts.log.debug('p2p inbound refused: too many peers', { peer: conn.id, nodeId: idHex });
        return link.disconnect(DisconnectReason.TOO_MANY_PEERS);
      }
      conn.admitted = true;
    }
    const session = new EthSession(link, this.#opts.local, this.#opts.host);
    conn.session = session;
    try {
      await session.handshake();
    } catch (err) {
      const e = err as SessionError;
      // Another network, genesis or fork: not worth a redial for a while (whoever found it again).
      if (/^(network id|genesis|fork id)/.test(e.message)) {
        this.#opts.blacklist.add(idHex, INCOMPATIBLE_BAN_SECONDS, `incompatible: ${e.message}`);
        this.#pool.remove(idHex);
        this.#opts.onIncompatible?.(idHex);
      }
      this.#opts.log.info('p2p peer rejected', {
        peer: conn.id,
        nodeId: idHex,
        reason: disconnectReasonName(e.reason),
        detail: e.message,
      });
      return;
    }
    if (link.closed) return;
    const rival = rivalOf(this.#connections, conn);
    if (rival !== undefined) {
      // Trap (a): keep the link dialled by the lower node id, on both sides alike.
      const keepThis = preferredLink(conn, rival, this.#opts.nodeId) === conn;
      const drop = keepThis ? rival : conn;
      this.#opts.log.debug('p2p duplicate link dropped', { peer: drop.id, nodeId: idHex });
      drop.link?.disconnect(DisconnectReason.ALREADY_CONNECTED);
      // Out of the peer table at once: the disconnect itself takes up to a second (DISCONNECT, then the socket
      // closes), and a link listed as Handshaked meanwhile made the two sides seem to keep different links.
      if (drop.status === 'Handshaked') this.onClosed(drop, DisconnectReason.ALREADY_CONNECTED, true);
      if (!keepThis) return;
    }
    conn.status = 'Handshaked';
    if (conn.target) conn.target.failures = 0;
    if (!conn.incoming) this.dialsSucceeded++;
    this.#opts.log.info('p2p peer connected', {
      peer: conn.id,
      nodeId: idHex,
      incoming: conn.incoming,
      client: link.hello?.clientId,
      foundBy: conn.foundBy,
    });
    this.#opts.onSessionReady(session);
  }

  private onClosed(conn: Connection, reason: number | undefined, byUs: boolean | null): void {
    if (conn.status === 'Disconnected') return; // already retired (a dropped duplicate), now its socket closed
    const wasReady = conn.status === 'Handshaked';
    conn.session?.closed(disconnectReasonName(reason));
    this.forget(
      conn,
      reason === undefined ? 'socket closed' : `${disconnectReasonName(reason)} (${byUs ? 'by us' : 'by peer'})`,
    );
    if (wasReady && conn.session) {
      this.#opts.log.info('p2p peer disconnected', {
        peer: conn.id,
        nodeId: conn.nodeIdHex,
        reason: disconnectReasonName(reason),
        byUs,
        ...(conn.session.failure !== undefined ? { detail: conn.session.failure } : {}),
      });
      this.#opts.onSessionGone(conn.session);
    }
  }

  private forget(conn: Connection, why: string): void {
    if (!this.#connections.delete(conn)) return;
    conn.status = 'Disconnected';
    const failed = why === 'dial failed' || conn.session === undefined || !conn.session.ready;
    // Our dial that never became a peer, by why: its socket's error, else how its link closed.
    if (!conn.incoming && failed)
      this.dialFailures.note(conn.dialFailure ?? (why === 'dial failed' ? 'other' : linkFailureReason(why)));
    if (conn.target?.pooled) return this.#pool.settle(conn.target, !failed);
    const target = conn.target ?? (conn.nodeIdHex ? this.#targets.get(conn.nodeIdHex) : undefined);
    if (target && !this.connectedTo(target.idHex)) {
      if (failed) target.failures++;
      target.nextDialAt = Date.now() + this.redialDelay(target);
    }
  }

  // ------------------------------------------------------------------ operator actions and views

  /** Drops every connection matching an IP or node id (a new blacklist entry); returns how many. */
  dropMatching(ip: string | undefined, nodeIdHex: string | undefined): number {
    let dropped = 0;
    for (const c of this.#connections) {
      if ((ip !== undefined && c.remoteIp === ip) || (nodeIdHex !== undefined && c.nodeIdHex === nodeIdHex)) {
        dropped++;
        if (c.link) c.link.disconnect(DisconnectReason.USELESS_PEER);
        else this.forget(c, 'blacklisted');
      }
    }
    return dropped;
  }

  disconnect(id: string): boolean {
    for (const c of this.#connections) {
      if (c.id !== id && c.nodeIdHex !== id.toLowerCase()) continue;
      c.link?.disconnect(DisconnectReason.DISCONNECT_REQUESTED);
      // An operator's disconnect of a static peer waits a full redial period before trying again.
      if (c.target) c.target.failures = Math.max(c.target.failures, 1);
      return true;
    }
    return false;
  }

  /** The connection with this id (host:port) or node id, if any. */
  find(id: string): { readonly ip: string; readonly nodeIdHex: string | null } | undefined {
    for (const c of this.#connections)
      if (c.id === id || c.nodeIdHex === id.toLowerCase()) return { ip: c.remoteIp, nodeIdHex: c.nodeIdHex };
    return undefined;
  }

  handshakedCount(): number {
    let n = 0;
    for (const c of this.#connections) if (c.status === 'Handshaked') n++;
    return n;
  }

  sessions(): EthSession[] {
    const out: EthSession[] = [];
    for (const c of this.#connections) if (c.status === 'Handshaked' && c.session) out.push(c.session);
    return out;
  }

  summaries(): PeerSummary[] {
    return this.details().map(({ id, remoteAddress, nodeId, incoming, status, foundBy, score }) => ({
      id,
      remoteAddress,
      nodeId,
      incoming,
      status,
      foundBy,
      score,
    }));
  }

  details(): PeerDetails[] {
    const rows: PeerDetails[] = [];
    const connected = new Set<string>();
    for (const c of this.#connections) {
      if (c.nodeIdHex) connected.add(c.nodeIdHex);
      rows.push(connectionRow(c));
    }
    // Static peers waiting for their next dial are listed as Idle, so an operator sees who is expected.
    for (const t of this.#targets.values()) {
      if (connected.has(t.idHex)) continue;
      rows.push(idleTargetRow(t));
    }
    return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
