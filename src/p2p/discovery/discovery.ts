/**
 * Node discovery: discv4 (the `DPT` of @ethereumjs/devp2p, the only place that imports it) on a guarded UDP
 * socket, our EIP-778 record with its `eth` fork id entry, and EIP-1459 DNS trees. What it finds it hands to
 * the peer manager as dial candidates, each marked with how it was found; it dials nothing itself.
 */
import { lookup } from 'node:dns/promises';
import { isIPv4 } from 'node:net';
import { DPT, type PeerInfo } from '@ethereumjs/devp2p';
import type { Enode } from '../enode.js';
import type { ForkId } from '../fork-id.js';
import type { PeerLog } from '../peer-manager.js';
import { DnsTreeError, DnsTreeWalker } from './dns-tree.js';
import type { NodeRecord } from './enr.js';
import { LocalRecord } from './local-record.js';
import { DROP_REASONS, type DropReason, GuardedUdpSocket } from './udp-guard.js';
import { endpointKey } from './endpoint-proof.js';
import type { Endpoint } from './packet.js';

/** `static` for the configured bootnodes, handed out again at each bootstrap round. */
export type FoundBy = 'discovery' | 'dns' | 'static';

export interface DiscoveryOptions {
  readonly privateKey: Uint8Array;
  readonly datadir: string;
  /** UDP bind address and port. */
  readonly host: string;
  readonly port: number;
  /** Our devp2p TCP port, announced in pings and the record. */
  readonly tcpPort: number;
  /** The IPv4 address to announce (`--nat extip:`); without it the record carries no address. */
  readonly advertiseIp?: string;
  readonly bootnodes: readonly Enode[];
  readonly dnsTrees: readonly string[];
  /** `ip[:port]` of the DNS server for the trees; the system's when absent. */
  readonly dnsServer?: string;
  /** How often the table is refreshed (a tenth of its nodes asked for neighbours per tick). */
  readonly refreshMs: number;
  readonly forkId: ForkId;
  readonly log: PeerLog;
  readonly onCandidate: (enode: Enode, foundBy: FoundBy) => void;
  /** Packets per second per sender and in total before the socket starts dropping. */
  readonly limits?: { perSender: number; total: number };
}

export interface DnsTreeStatus {
  readonly url: string;
  readonly records: number;
  readonly error: string | null;
}

export interface DiscoveryStatus {
  readonly udpPort: number;
  readonly tableSize: number;
  readonly bootnodes: readonly string[];
  readonly bootstrapRounds: number;
  readonly dnsTrees: readonly DnsTreeStatus[];
  readonly record: string;
}

/**
 * DNS trees are re-read this many table refreshes apart: about 30 minutes at the default 6 s tick, as core-geth
 * does; a tree that could not be read is tried again after a tenth of that.
 */
const DNS_EVERY_REFRESHES = 300;
const DROP_REPORT_MS = 10_000;

export class Discovery {
  readonly #opts: DiscoveryOptions;
  readonly #record: LocalRecord;
  readonly #socket: GuardedUdpSocket;
  readonly #dpt: DPT;
  readonly #dns: DnsTreeWalker;
  readonly #trees = new Map<string, DnsTreeStatus>();
  readonly #timers: NodeJS.Timeout[] = [];
  #bootstrapRounds = 0;
  #ticks = 0;
  #reported = Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>;
  #closed = false;

  constructor(options: DiscoveryOptions) {
    this.#opts = options;
    this.#record = new LocalRecord(options.privateKey, options.datadir, this.#fields(options.forkId));
    const endpoint = { address: options.advertiseIp ?? options.host, udpPort: options.port, tcpPort: options.tcpPort };
    this.#socket = new GuardedUdpSocket(options.privateKey, () => this.#record.record, {
      limits: options.limits ?? { perSender: 200, total: 2_000 },
      endpoint,
      bondWith: (peer) => this.#bondWith(peer),
    });
    this.#dns = new DnsTreeWalker(options.dnsServer);
    for (const url of options.dnsTrees) this.#trees.set(url, { url, records: 0, error: null });
    this.#dpt = new DPT(options.privateKey, {
      createSocket: () => this.#socket,
      endpoint,
      refreshInterval: options.refreshMs * 10,
      timeout: 4_000,
      shouldFindNeighbours: true,
      shouldGetDnsPeers: false,
    });
    this.#dpt.events.on('peer:added', (peer: PeerInfo) => this.#found(peer, 'discovery'));
    // The library reports unanswered pings and undecodable packets as errors: both are routine on the open network.
    this.#dpt.events.on('error', (err: Error) => {
      if (!/^Timeout error/.test(err.message) && !/banned/.test(err.message)) this.#socket.drop('malformed');
    });
    this.#socket.records.on('record', (record) => this.#takeRecord(record, 'discovery'));
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#socket.once('listening', resolve);
      this.#socket.once('error', reject);
      this.#dpt.bind(this.#opts.port, this.#opts.host);
    });
    this.#socket.on('error', (err: Error) =>
      this.#opts.log.debug('p2p discovery socket error', { error: err.message }),
    );
    void this.#bootstrap();
    void this.#readTrees();
    this.#every(this.#opts.refreshMs, () => {
      this.#ticks++;
      // No one in the table: the bootnodes were unreachable (or forgot us); ask them again.
      if (this.#dpt.numPeers() === 0) void this.#bootstrap();
      const failed = [...this.#trees.values()].some((t) => t.error !== null);
      if (this.#ticks % (failed ? DNS_EVERY_REFRESHES / 10 : DNS_EVERY_REFRESHES) === 0) void this.#readTrees();
    });
    this.#every(DROP_REPORT_MS, () => this.#reportDrops());
  }

  get udpPort(): number {
    return this.#socket.address().port;
  }

  get record(): NodeRecord {
    return this.#record.record;
  }

  /** A new head may have passed a fork: the record then gets the new fork id and a higher seq. */
  setForkId(forkId: ForkId): void {
    if (this.#record.update(this.#fields(forkId)))
      this.#opts.log.info('p2p node record updated', { seq: `${this.#record.record.seq}` });
  }

  /** Forgets a node (it showed another network or fork): it is not handed out again until rediscovered. */
  forget(idHex: string): void {
    this.#dpt.removePeer(Uint8Array.from(Buffer.from(idHex, 'hex')));
  }

  status(): DiscoveryStatus {
    return {
      udpPort: this.udpPort,
      tableSize: this.#dpt.numPeers(),
      bootnodes: this.#opts.bootnodes.map((b) => `${b.host}:${b.udpPort ?? b.port}`),
      bootstrapRounds: this.#bootstrapRounds,
      dnsTrees: [...this.#trees.values()],
      record: `enr:${Buffer.from(this.#record.record.raw).toString('base64url')}`,
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const t of this.#timers) clearInterval(t);
    this.#dns.cancel();
    await new Promise<void>((resolve) => {
      this.#socket.once('close', resolve);
      this.#dpt.destroy();
    });
  }

  #fields(forkId: ForkId) {
    const o = this.#opts;
    return { ...(o.advertiseIp !== undefined ? { ip: o.advertiseIp } : {}), tcp: o.tcpPort, udp: o.port, forkId };
  }

  #every(ms: number, job: () => void): void {
    const timer = setInterval(job, ms);
    timer.unref();
    this.#timers.push(timer);
  }

  async #bootstrap(): Promise<void> {
    if (this.#opts.bootnodes.length === 0) return;
    this.#bootstrapRounds++;
    for (const boot of this.#opts.bootnodes) {
      // Dialled as well: a bootnode that is a full node is a peer, and one that failed earlier gets another try.
      this.#opts.onCandidate(boot, 'static');
      const address = isIPv4(boot.host)
        ? boot.host
        : await lookup(boot.host, 4).then(
            (r) => r.address,
            () => null,
          );
      if (address === null || this.#closed) continue;
      // bootstrap() reports its own failures as 'error' events (an unanswered ping is routine).
      void this.#dpt.bootstrap({ id: boot.id, address, udpPort: boot.udpPort ?? boot.port, tcpPort: boot.port });
    }
  }

  async #readTrees(): Promise<void> {
    for (const url of this.#trees.keys()) {
      if (this.#closed) return;
      try {
        const { records, skipped } = await this.#dns.walk(url);
        this.#trees.set(url, { url, records: records.length, error: null });
        this.#opts.log.info('p2p DNS tree read', { tree: url, records: records.length, skipped: skipped.length });
        if (skipped.length > 0) this.#opts.log.debug('p2p DNS tree entries skipped', { tree: url, skipped });
        for (const record of records) this.#takeRecord(record, 'dns');
      } catch (err) {
        const reason = err instanceof DnsTreeError ? err.message : `unexpected: ${(err as Error).message}`;
        const previous = this.#trees.get(url)?.error;
        this.#trees.set(url, { url, records: 0, error: reason });
        if (!this.#closed && previous !== reason) this.#opts.log.warn('p2p DNS tree refused', { tree: url, reason });
      }
    }
  }

  #takeRecord(record: NodeRecord, foundBy: FoundBy): void {
    if (record.ip === undefined || record.tcp === undefined) return;
    this.#opts.onCandidate(
      { id: record.id, host: record.ip, port: record.tcp, udpPort: record.udp ?? record.tcp },
      foundBy,
    );
    // A DNS-listed node joins the discv4 table too, so the walk goes on from it.
    if (foundBy === 'dns' && record.udp !== undefined)
      this.#dpt
        .addPeer({ id: record.id, address: record.ip, udpPort: record.udp, tcpPort: record.tcp })
        .catch(() => undefined);
  }

  /**
   * A sender not bonded with us, pinged at its real source (never at the `from` its PING names): by the library
   * when it is new to the table, so its PONG also adds it there; by the guard when the library sent nothing (it
   * has the node already, or banned it a while for an unanswered ping: the node is alive now).
   */
  #bondWith(peer: Endpoint & { id: Uint8Array }): void {
    if (this.#closed) return;
    if (this.#dpt.getPeer(peer.id) === null)
      this.#dpt
        .addPeer({ id: peer.id, address: peer.address, udpPort: peer.udpPort, tcpPort: peer.tcpPort || null })
        .catch(() => undefined);
    // The library sends its PING before addPeer's first await: the guard has noted it by now, if there was one.
    if (!this.#socket.proof.pingPending(endpointKey(peer.address, peer.udpPort), Date.now()))
      this.#socket.ping(peer.address, peer.udpPort);
  }

  #found(peer: PeerInfo, foundBy: FoundBy): void {
    if (peer.id === undefined || peer.address === undefined || !peer.tcpPort) return;
    this.#opts.onCandidate(
      { id: peer.id, host: peer.address, port: peer.tcpPort, ...(peer.udpPort ? { udpPort: peer.udpPort } : {}) },
      foundBy,
    );
  }

  #reportDrops(): void {
    const now = this.#socket.dropped;
    const delta = Object.fromEntries(
      (Object.keys(now) as DropReason[]).map((k) => [k, now[k] - this.#reported[k]]).filter(([, n]) => n !== 0),
    );
    this.#reported = { ...now };
    if (Object.keys(delta).length > 0)
      this.#opts.log.info('p2p discovery dropped packets', { ...delta, windowSeconds: DROP_REPORT_MS / 1000 });
  }
}
