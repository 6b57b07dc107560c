/**
 * The connection table: listens for peers, dials static peers (and redials them with jitter), enforces the
 * blacklist and the peer limit, runs each link's eth handshake, and keeps one link per remote node.
 *
 * Two rules here answer known traps of devp2p stacks (etc-chain-and-p2p.md §3.3):
 * - a simultaneous dial in both directions yields two links; both sides keep the one dialled by the lower
 *   node id and drop the other, so they agree and one link survives (instead of each side killing the other's);
 * - an inbound socket from a blacklisted IP is closed before any handshake; a blacklisted node id is dropped
 *   as soon as its Hello reveals it, whichever side dialled.
 */
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { bytesToHex, compareBytes, equalsBytes } from '@ethereumjs/util';
import type { Blacklist } from './blacklist.js';
import { formatEnode, type Enode } from './enode.js';
import { EthSession, type SessionError, type LocalStatus, type SessionHost } from './eth/session.js';
import { normaliseIp } from './blacklist.js';
import { DisconnectReason, disconnectReasonName, RlpxLink } from './rlpx/transport.js';
import type { PeerDetails, PeerStatus, PeerSummary } from './types.js';

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
  readonly blacklist: Blacklist;
  readonly local: LocalStatus;
  readonly host: SessionHost;
  readonly log: PeerLog;
  /** A session passed its STATUS handshake / went away. */
  readonly onSessionReady: (session: EthSession) => void;
  readonly onSessionGone: (session: EthSession) => void;
  /** Base of the redial delay; a random 0–100 % is added so that restarted nodes do not dial in lockstep. */
  readonly redialMs?: number;
}

export const HANDSHAKE_TIMEOUT_MS = 10_000;

class Connection {
  status: PeerStatus = 'Connecting';
  link: RlpxLink | undefined;
  session: EthSession | undefined;
  nodeId: Uint8Array | null;

  constructor(
    readonly id: string,
    readonly remoteIp: string,
    readonly incoming: boolean,
    readonly target: StaticTarget | undefined,
    remoteId: Uint8Array | null,
  ) {
    this.nodeId = remoteId;
  }

  get nodeIdHex(): string | null {
    return this.nodeId === null ? null : bytesToHex(this.nodeId).slice(2);
  }

  /** Who dialled: the node that opened this TCP connection. */
  dialler(self: Uint8Array): Uint8Array | null {
    return this.incoming ? this.nodeId : self;
  }
}

interface StaticTarget {
  readonly enode: Enode;
  readonly idHex: string;
  nextDialAt: number;
  failures: number;
}

export class PeerManager {
  readonly #opts: PeerManagerOptions;
  readonly #connections = new Set<Connection>();
  readonly #targets = new Map<string, StaticTarget>();
  #server: Server | undefined;
  #tick: NodeJS.Timeout | undefined;
  #port = 0;
  #closing = false;

  constructor(options: PeerManagerOptions) {
    this.#opts = options;
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

  /** Adds a peer to keep connected (bootnodes, static-nodes.json, net_connectToPeer) and dials it soon. */
  addStatic(enode: Enode): void {
    const idHex = bytesToHex(enode.id).slice(2);
    if (idHex === this.nodeIdHex) return;
    const existing = this.#targets.get(idHex);
    if (existing) {
      existing.nextDialAt = 0;
      return;
    }
    this.#targets.set(idHex, { enode, idHex, nextDialAt: 0, failures: 0 });
    if (this.#tick) setImmediate(() => this.dialDue());
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
      if (this.#connections.size >= this.#opts.maxPeers) return;
      target.nextDialAt = Number.POSITIVE_INFINITY; // until this attempt ends
      this.dial(target);
    }
  }

  private redialDelay(target: StaticTarget): number {
    const base = this.#opts.redialMs ?? 2_000;
    const backoff = base * Math.min(2 ** Math.min(target.failures, 4), 15);
    return backoff + Math.random() * base;
  }

  private connectedTo(idHex: string): boolean {
    for (const c of this.#connections) if (c.nodeIdHex === idHex) return true;
    return false;
  }

  private dial(target: StaticTarget): void {
    const { host, port } = target.enode;
    const conn = new Connection(`${host}:${port}`, normaliseIp(host), false, target, target.enode.id);
    this.#connections.add(conn);
    const socket = tcpConnect({ host, port, noDelay: true });
    const connectTimer = setTimeout(() => socket.destroy(new Error('connect timeout')), HANDSHAKE_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(connectTimer);
      this.startLink(conn, socket);
    });
    socket.on('error', (err) =>
      this.#opts.log.debug('p2p dial failed', { peer: formatEnode(target.enode), error: err.message }),
    );
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
    if (this.#connections.size >= this.#opts.maxPeers) {
      this.#opts.log.debug('p2p inbound refused: too many peers', { peer: id, maxPeers: this.#opts.maxPeers });
      return void socket.destroy();
    }
    const conn = new Connection(id, ip, true, undefined, null);
    this.#connections.add(conn);
    socket.on('error', () => undefined);
    this.startLink(conn, socket);
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
    const session = new EthSession(link, this.#opts.local, this.#opts.host);
    conn.session = session;
    try {
      await session.handshake();
    } catch (err) {
      const e = err as SessionError;
      this.#opts.log.info('p2p peer rejected', {
        peer: conn.id,
        nodeId: idHex,
        reason: disconnectReasonName(e.reason),
        detail: e.message,
      });
      return;
    }
    if (link.closed) return;
    const rival = this.rivalOf(conn);
    if (rival !== undefined) {
      // Trap (a): keep the link dialled by the lower node id, on both sides alike.
      const keepThis = this.prefer(conn, rival) === conn;
      const drop = keepThis ? rival : conn;
      this.#opts.log.debug('p2p duplicate link dropped', { peer: drop.id, nodeId: idHex });
      drop.link?.disconnect(DisconnectReason.ALREADY_CONNECTED);
      if (!keepThis) return;
    }
    conn.status = 'Handshaked';
    if (conn.target) conn.target.failures = 0;
    this.#opts.log.info('p2p peer connected', {
      peer: conn.id,
      nodeId: idHex,
      incoming: conn.incoming,
      client: link.hello?.clientId,
    });
    this.#opts.onSessionReady(session);
  }

  private rivalOf(conn: Connection): Connection | undefined {
    for (const c of this.#connections)
      if (c !== conn && c.status === 'Handshaked' && c.nodeIdHex === conn.nodeIdHex) return c;
    return undefined;
  }

  private prefer(a: Connection, b: Connection): Connection {
    const da = a.dialler(this.#opts.nodeId);
    const db = b.dialler(this.#opts.nodeId);
    if (da === null || db === null || equalsBytes(da, db)) return b; // same dialler twice: keep the older link
    return compareBytes(da, db) < 0 ? a : b;
  }

  private onClosed(conn: Connection, reason: number | undefined, byUs: boolean | null): void {
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
    const target = conn.target ?? (conn.nodeIdHex ? this.#targets.get(conn.nodeIdHex) : undefined);
    if (target && !this.connectedTo(target.idHex)) {
      if (why === 'dial failed' || conn.session === undefined || !conn.session.ready) target.failures++;
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
    return this.details().map(({ id, remoteAddress, nodeId, incoming, status }) => ({
      id,
      remoteAddress,
      nodeId,
      incoming,
      status,
    }));
  }

  details(): PeerDetails[] {
    const rows: PeerDetails[] = [];
    const connected = new Set<string>();
    for (const c of this.#connections) {
      if (c.nodeIdHex) connected.add(c.nodeIdHex);
      const s = c.session;
      const hello = c.link?.hello ?? null;
      rows.push({
        id: c.id,
        remoteAddress: c.id,
        nodeId: c.nodeIdHex,
        incoming: c.incoming,
        status: c.status,
        clientId: hello?.clientId ?? null,
        capabilities: hello?.capabilities ?? [],
        networkId: s?.remoteStatus?.networkId ?? null,
        genesisHash: s?.remoteStatus?.genesisHash ?? null,
        bestHash: s?.bestHash ?? null,
        maxBlockNumber: s?.bestNumber ?? null,
        totalDifficulty: s?.td ?? null,
        forkAccepted: s?.forkAccepted ?? null,
      });
    }
    // Static peers waiting for their next dial are listed as Idle, so an operator sees who is expected.
    for (const t of this.#targets.values()) {
      if (connected.has(t.idHex)) continue;
      const id = `${t.enode.host}:${t.enode.port}`;
      rows.push({
        id,
        remoteAddress: id,
        nodeId: t.idHex,
        incoming: false,
        status: 'Idle',
        clientId: null,
        capabilities: [],
        networkId: null,
        genesisHash: null,
        bestHash: null,
        maxBlockNumber: null,
        totalDifficulty: null,
        forkAccepted: null,
      });
    }
    return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
