/**
 * The node's devp2p service: one object that owns the node key, the blacklist, the peer manager, serving,
 * sync and announcements, and offers the rest of the node the `PeerService` view (src/p2p/types.ts).
 */
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { Block } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import type { TxAddedEvent } from '../chain/index.js';
import { Blacklist, normaliseIp } from './blacklist.js';
import { formatEnode, parseEnode, type Enode } from './enode.js';
import type { NewBlockMsg, PooledTxAnnouncement, RawTx } from './eth/messages.js';
import { EthServer } from './eth/serve.js';
import type { EthSession, LocalStatus, SessionHost } from './eth/session.js';
import { ForkIdTable, forkBlocksOf } from './fork-id.js';
import { dropDivergedPeers } from './fork-watch.js';
import { loadOrCreateNodeKey, nodeIdOf } from './node-key.js';
import { Discovery } from './discovery/discovery.js';
import type { P2pEngine } from './chain-port.js';
import { PeerManager } from './peer-manager.js';
import type { PeerServiceOptions } from './service-options.js';
import { peerAdmin } from './peer-admin.js';
import { startSearchLog } from './search-log.js';
import { DisconnectReason } from './rlpx/transport.js';
import { SnapServer } from './snap/serve.js';
import { startSnapSyncIfEmpty, type SnapRun } from './snap/sync/run.js';
import { HistoryBackfill, type HistoryBackfillStatus } from './snap/sync/backfill.js';
import { parseBootnodes, staticNodesOf } from './static-nodes.js';
import { peerName, Synchronizer } from './sync.js';
import {
  PeerInputError,
  type BlacklistEntry,
  type PeerAdmin,
  type PeerDetails,
  type PeerSearch,
  type PeerService,
  type PeerSummary,
  type SyncEvent,
  type SyncProgress,
} from './types.js';

export type { PeerServiceOptions } from './service-options.js';

/** How long a peer that sent an invalid block stays blocked. */
const BAD_PEER_BAN_SECONDS = 3600;
/** Up to this many peers get whole new blocks; the rest get hashes (and fetch the block if they want it). */
const FULL_BLOCK_FANOUT_MIN = 4;
const TX_ANNOUNCE_CHUNK = 4096;
const TX_FETCH_CHUNK = 256;

export async function startPeerService(options: PeerServiceOptions): Promise<P2pService> {
  const service = new P2pService(options);
  try {
    await service.start();
  } catch (err) {
    // What did start (the RLPx listener, sync, backfill timers) would keep the process alive after a failed start.
    await service.close().catch(() => undefined);
    throw err;
  }
  return service;
}

export class P2pService implements PeerService, SessionHost {
  readonly #opts: PeerServiceOptions;
  readonly #engine: P2pEngine;
  readonly #blacklist: Blacklist;
  readonly #manager: PeerManager;
  readonly #sync: Synchronizer;
  readonly #eth: EthServer;
  readonly #snap: SnapServer;
  readonly #nodeId: Uint8Array;
  readonly #staticPeers: Enode[];
  readonly #bootnodes: Enode[];
  readonly #privateKey: Uint8Array;
  readonly #local: LocalStatus;
  #discovery: Discovery | undefined;
  #snapRun: SnapRun | undefined;
  readonly #history: HistoryBackfill;
  #configuredPeers: boolean;
  #txQueue: TxAddedEvent['tx'][] = [];
  #txFlush: NodeJS.Immediate | undefined;
  readonly #detach: (() => void)[] = [];

  constructor(options: PeerServiceOptions) {
    this.#opts = options;
    const engine = (this.#engine = options.engine);
    const chain = engine.chain;
    const privateKey = loadOrCreateNodeKey(options.datadir);
    this.#nodeId = nodeIdOf(privateKey);
    this.#blacklist = Blacklist.open(join(options.datadir, 'blacklist.json'));
    this.#privateKey = privateKey;
    const discovering = options.discovery !== undefined;
    this.#bootnodes = parseBootnodes(options.bootnodes);
    this.#staticPeers = [...(discovering ? [] : this.#bootnodes), ...staticNodesOf(options.datadir)];
    this.#configuredPeers = this.#staticPeers.length > 0 || this.#bootnodes.length > 0;
    const genesisHash = chain.getGenesis().hash();
    const local: LocalStatus = (this.#local = {
      networkId: engine.definition.networkId,
      genesisHash,
      forkIds: new ForkIdTable(genesisHash, forkBlocksOf(engine.definition)),
      head: () => {
        const head = chain.getHead();
        return { number: head.header.number, hash: head.hash(), td: chain.getHeadTotalDifficulty() };
      },
    });
    this.#eth = new EthServer(chain, engine.pool);
    this.#snap = new SnapServer(chain, {
      ...(options.snapRequestsPerPeer !== undefined ? { requestsPerPeer: options.snapRequestsPerPeer } : {}),
      ...(options.snapResponseBytes !== undefined ? { responseBytes: options.snapResponseBytes } : {}),
    });
    const peering = {
      chain,
      sessions: () => this.#manager.sessions(),
      onBadPeer: (session: EthSession, reason: string) => this.punish(session, reason),
      log: options.log,
    };
    this.#sync = new Synchronizer(peering);
    // Idle until a snap sync has handed over (or resumes one): then fetches the history below its base.
    this.#history = HistoryBackfill.start({ ...peering, busy: () => this.#sync.active });
    this.#manager = new PeerManager({
      privateKey,
      nodeId: this.#nodeId,
      clientId: options.clientId,
      listenHost: options.listenHost,
      listenPort: options.listenPort,
      maxPeers: options.maxPeers,
      ...(options.maxPendingPeers !== undefined ? { maxPendingPeers: options.maxPendingPeers } : {}),
      ...(options.maxPendingPeersPerIp !== undefined ? { maxPendingPeersPerIp: options.maxPendingPeersPerIp } : {}),
      blacklist: this.#blacklist,
      local,
      host: this,
      log: options.log,
      onSessionReady: (session) => this.onSessionReady(session),
      onSessionGone: () => undefined,
      onIncompatible: (idHex) => this.#discovery?.forget(idHex),
      ...(options.dialRatio !== undefined ? { dialRatio: options.dialRatio } : {}),
      ...(options.redialMs !== undefined ? { redialMs: options.redialMs } : {}),
    });
  }

  async start(): Promise<void> {
    await this.#manager.start();
    const chain = this.#engine.chain;
    const onHead = (block: Block) => {
      // The block first: a peer dropped for its fork id then learns the head that parts us, and says so itself.
      if (!this.#sync.active) this.announceBlock(block);
      dropDivergedPeers(this.#manager.sessions(), this.#local.forkIds, block.header.number, this.#opts.log);
    };
    chain.on('newHead', onHead);
    this.#detach.push(() => chain.off('newHead', onHead));
    const onTx = (e: TxAddedEvent) => this.queueTxAnnouncement(e.tx);
    this.#engine.pool.on('tx:added', onTx);
    this.#detach.push(() => this.#engine.pool.off('tx:added', onTx));
    // After a sync run only the head it reached is announced, not every block on the way.
    this.#detach.push(this.#sync.onEvent((e) => (e.syncing ? undefined : this.announceBlock(chain.getHead()))));
    if (this.#opts.syncMode === 'snap') await this.startSnapSync();
    for (const enode of this.#staticPeers) this.#manager.addStatic(enode);
    if (this.#opts.discovery !== undefined) await this.startDiscovery(this.#opts.discovery);
    this.#detach.push(
      startSearchLog(
        this.#opts.log,
        () => this.peerCount(),
        () => this.search(),
      ),
    );
  }

  /** An empty node (or one whose snap sync was cut short) snap-syncs first; full sync waits until it hands over. */
  private async startSnapSync(): Promise<void> {
    this.#snapRun = await startSnapSyncIfEmpty({
      chain: this.#engine.chain,
      sync: this.#sync,
      sessions: () => this.#manager.sessions(),
      onBadPeer: (session, reason) => this.punish(session, reason),
      log: this.#opts.log,
      ...(this.#opts.pivotDistance !== undefined ? { pivotDistance: this.#opts.pivotDistance } : {}),
      ...(this.#opts.healPauseMs !== undefined ? { healPauseMs: this.#opts.healPauseMs } : {}),
      ...(this.#opts.snapMaxRssBytes !== undefined ? { maxRssBytes: this.#opts.snapMaxRssBytes } : {}),
      onDone: () => {
        this.#snapRun = undefined;
      },
    });
  }

  private async startDiscovery(d: NonNullable<PeerServiceOptions['discovery']>): Promise<void> {
    const chain = this.#engine.chain;
    const forkIdAtHead = () => this.#local.forkIds.at(chain.getHead().header.number);
    const discovery = new Discovery({
      privateKey: this.#privateKey,
      datadir: this.#opts.datadir,
      host: this.#opts.listenHost,
      port: d.port ?? this.#manager.listenPort,
      tcpPort: this.#manager.listenPort,
      ...(this.#opts.externalIp !== undefined ? { advertiseIp: this.#opts.externalIp } : {}),
      bootnodes: this.#bootnodes,
      dnsTrees: d.dnsTrees,
      ...(d.dnsServer !== undefined ? { dnsServer: d.dnsServer } : {}),
      refreshMs: d.intervalMs,
      forkId: forkIdAtHead(),
      log: this.#opts.log,
      onCandidate: (enode, foundBy) => this.#manager.addCandidate(enode, foundBy),
    });
    try {
      await discovery.start();
    } catch (err) {
      await discovery.close();
      throw err;
    }
    this.#discovery = discovery;
    const onHead = () => discovery.setForkId(forkIdAtHead());
    chain.on('newHead', onHead);
    this.#detach.push(() => chain.off('newHead', onHead));
  }

  search(): PeerSearch {
    const d = this.#discovery?.status();
    const configured = [...this.#bootnodes, ...this.#staticPeers].map((e) => `${e.host}:${e.port}`);
    return {
      discovery: d !== undefined,
      udpPort: d?.udpPort ?? null,
      tableSize: d?.tableSize ?? 0,
      bootnodes: [...new Set(configured)],
      dnsTrees: d?.dnsTrees ?? [],
      dialsTried: this.#manager.dialsTried,
      dialsSucceeded: this.#manager.dialsSucceeded,
      dialFailures: this.#manager.dialFailures.counts(),
      candidates: this.#manager.candidateCount,
    };
  }

  /** Our node record (EIP-778, `enr:` text); null when discovery is off. */
  get enr(): string | null {
    return this.#discovery?.status().record ?? null;
  }

  // ------------------------------------------------------------------ PeerService

  get enode(): string {
    const wildcard = this.#opts.listenHost === '0.0.0.0' || this.#opts.listenHost === '::';
    const host = this.#opts.externalIp ?? (wildcard ? '127.0.0.1' : this.#opts.listenHost);
    const udpPort = this.#discovery?.udpPort;
    return formatEnode({ id: this.#nodeId, host, port: this.#manager.listenPort, ...(udpPort ? { udpPort } : {}) });
  }

  get admin(): PeerAdmin {
    return peerAdmin(this.#manager, () => this.enr);
  }

  get listenPort(): number {
    return this.#manager.listenPort;
  }

  hasConfiguredPeers(): boolean {
    return this.#configuredPeers;
  }

  peerCount(): number {
    return this.#manager.handshakedCount();
  }

  peers(): readonly PeerSummary[] {
    return this.#manager.summaries();
  }

  peerDetails(): readonly PeerDetails[] {
    return this.#manager.details();
  }

  connect(enode: string): void {
    const parsed = parseEnode(enode);
    this.#configuredPeers = true;
    this.#manager.addStatic(parsed);
  }

  disconnect(id: string): boolean {
    return this.#manager.disconnect(id);
  }

  blacklist(): readonly BlacklistEntry[] {
    return this.#blacklist.entries();
  }

  addToBlacklist(address: string, seconds: number | null, reason: string): void {
    const key = this.blacklistKeyOf(address);
    this.#blacklist.add(key, seconds, reason);
    const isNodeId = /^[0-9a-f]{128}$/.test(key);
    const dropped = this.#manager.dropMatching(isNodeId ? undefined : key, isNodeId ? key : undefined);
    this.#opts.log.info('p2p blacklisted', { id: key, seconds, reason, dropped });
  }

  removeFromBlacklist(address: string): boolean {
    return this.#blacklist.remove(this.blacklistKeyOf(address));
  }

  /** An IP address, a node id (with or without 0x, or inside an enode URL), or a connection id from peers(). */
  private blacklistKeyOf(address: string): string {
    const text = address.trim();
    const hex = text.toLowerCase().replace(/^0x/, '');
    if (/^[0-9a-f]{128}$/.test(hex)) return hex;
    if (text.startsWith('enode://')) return bytesToHex(parseEnode(text).id).slice(2);
    if (isIP(text.replace(/^\[|\]$/g, ''))) return normaliseIp(text.replace(/^\[|\]$/g, ''));
    const conn = this.#manager.find(text);
    if (conn) return conn.nodeIdHex ?? conn.ip;
    if (this.#blacklist.entries().some((e) => e.id === text)) return text;
    throw new PeerInputError(
      `"${address}" is not an IP address, a node id (128 hex digits) or a connection id (host:port) of a current peer`,
    );
  }

  syncProgress(): SyncProgress | null {
    return this.#sync.progress();
  }

  historyBackfill = (): HistoryBackfillStatus | null => this.#history.status();

  onSyncEvent(listener: (event: SyncEvent) => void): () => void {
    return this.#sync.onEvent(listener);
  }

  async close(): Promise<void> {
    for (const d of this.#detach.splice(0)) d();
    if (this.#txFlush) clearImmediate(this.#txFlush);
    this.#sync.close();
    await this.#snapRun?.close();
    await this.#history.close();
    await this.#discovery?.close();
    await this.#manager.close();
    await this.#sync.idle().catch(() => undefined);
  }

  // ------------------------------------------------------------------ SessionHost: serving

  serveHeaders(req: Parameters<EthServer['headers']>[0], peer: EthSession) {
    return this.#eth.headers(req, peer);
  }

  serveBodies(hashes: readonly Uint8Array[], peer: EthSession) {
    return this.#eth.bodies(hashes, peer);
  }

  serveReceipts(hashes: readonly Uint8Array[], peer: EthSession) {
    return this.#eth.receipts(hashes, peer);
  }

  servePooledTransactions(hashes: readonly Uint8Array[], peer: EthSession) {
    return this.#eth.pooledTransactions(hashes, peer);
  }

  serveSnap(code: number, payload: Uint8Array, peer: EthSession) {
    return this.#snap.serve(code, payload, peer);
  }

  /** The peer's requests still waiting are dropped; those being answered stop at their next read. */
  onSessionClosed(session: EthSession): void {
    this.#eth.budget.drop(session);
    this.#snap.budget.drop(session);
  }

  // ------------------------------------------------------------------ SessionHost: announcements

  onNewBlock(session: EthSession, msg: NewBlockMsg): void {
    const chain = this.#engine.chain;
    let block: Block;
    try {
      const [header, txs, uncles] = msg.block;
      block = chain.decodeBlockValues(header, txs, uncles);
    } catch (err) {
      this.punish(session, `sent an undecodable NewBlock: ${(err as Error).message}`);
      return;
    }
    const hash = block.hash();
    session.knownBlocks.add(bytesToHex(hash));
    if (session.bestNumber === null || block.header.number >= session.bestNumber) {
      session.bestNumber = block.header.number;
      session.bestHash = hash;
      session.td = msg.td;
    }
    // A snap sync in progress has no state to import on; the announcement only moved the peer's head.
    if (this.#snapRun !== undefined) return;
    void (async () => {
      if ((await chain.getHeader(hash)) !== undefined) return;
      if ((await chain.getHeader(block.header.parentHash)) === undefined) return this.#sync.trigger();
      await this.#sync.importFrom(session, block);
    })().catch((err: unknown) =>
      this.#opts.log.debug('p2p new block not imported', { peer: peerName(session), error: (err as Error).message }),
    );
  }

  onNewBlockHashes(session: EthSession, items: readonly { hash: Uint8Array; number: bigint }[]): void {
    const head = this.#engine.chain.getHead().header.number;
    let highest: { hash: Uint8Array; number: bigint } | undefined;
    for (const item of items) if (highest === undefined || item.number > highest.number) highest = item;
    if (highest === undefined) return;
    if (session.bestNumber === null || highest.number > session.bestNumber) {
      session.bestNumber = highest.number;
      session.bestHash = highest.hash;
      // A hash announcement carries no TD; the sync run learns the real weight from the blocks themselves.
      session.td = null;
    }
    if (highest.number > head) this.#sync.trigger();
  }

  onTransactions(session: EthSession, txs: readonly RawTx[]): void {
    void this.addRemoteTxs(session, txs);
  }

  onPooledTransactionHashes(session: EthSession, announcement: PooledTxAnnouncement): void {
    const pool = this.#engine.pool;
    const unknown = announcement.hashes.filter((h) => !pool.has(h));
    for (let i = 0; i < unknown.length; i += TX_FETCH_CHUNK) {
      session
        .getPooledTransactions(unknown.slice(i, i + TX_FETCH_CHUNK))
        .then((txs) => this.addRemoteTxs(session, txs))
        .catch((err: unknown) =>
          this.#opts.log.debug('p2p pooled transactions not fetched', {
            peer: peerName(session),
            error: (err as Error).message,
          }),
        );
    }
  }

  onMisbehaviour(session: EthSession, reason: string): void {
    this.punish(session, reason);
  }

  private async addRemoteTxs(session: EthSession, txs: readonly RawTx[]): Promise<void> {
    for (const tx of txs) {
      const bytes = tx instanceof Uint8Array ? tx : RLP.encode(tx);
      try {
        const added = await this.#engine.pool.add(bytes);
        session.knownTxs.add(bytesToHex(added.hash));
      } catch {
        // Invalid, underpriced or already known: other clients drop these silently too.
      }
    }
  }

  // ------------------------------------------------------------------ internals

  private onSessionReady(session: EthSession): void {
    // A node others have peered with is part of a network, not a single-node dev chain: losing every peer must
    // make it unready (the hub of `npm run cluster` has no peers of its own to dial; the others dial it).
    this.#configuredPeers = true;
    // A new peer learns our pool (eth/68 announces hashes; it fetches what it lacks).
    const pending = this.#engine.pool.all();
    for (let i = 0; i < pending.length; i += TX_ANNOUNCE_CHUNK)
      session.sendPooledTransactionHashes(announcementOf(pending.slice(i, i + TX_ANNOUNCE_CHUNK)));
    this.#sync.trigger();
  }

  private punish(session: EthSession, reason: string): void {
    const id = session.link.remoteId;
    if (id !== null) this.#blacklist.add(bytesToHex(id).slice(2), BAD_PEER_BAN_SECONDS, reason);
    session.failure ??= reason;
    session.score.bad();
    this.#opts.log.warn('p2p peer dropped for a bad block or answer', { peer: peerName(session), reason });
    session.link.disconnect(DisconnectReason.SUBPROTOCOL_ERROR);
  }

  private announceBlock(block: Block): void {
    const sessions = this.#manager.sessions();
    if (sessions.length === 0) return;
    const hash = block.hash();
    const hashHex = bytesToHex(hash);
    const td = this.#engine.chain.getHeadTotalDifficulty();
    const unaware = sessions.filter((s) => !s.knownBlocks.has(hashHex));
    const full = Math.max(FULL_BLOCK_FANOUT_MIN, Math.ceil(Math.sqrt(sessions.length)));
    const msg: NewBlockMsg = { block: block.raw() as unknown as NewBlockMsg['block'], td };
    unaware.forEach((s, i) => {
      if (i < full) s.sendNewBlock(msg, hash);
      else s.sendNewBlockHashes([{ hash, number: block.header.number }]);
    });
  }

  private queueTxAnnouncement(tx: TxAddedEvent['tx']): void {
    this.#txQueue.push(tx);
    this.#txFlush ??= setImmediate(() => {
      this.#txFlush = undefined;
      const queued = this.#txQueue;
      this.#txQueue = [];
      for (const session of this.#manager.sessions()) {
        const fresh = queued.filter((t) => !session.knownTxs.has(t.hashHex));
        for (let i = 0; i < fresh.length; i += TX_ANNOUNCE_CHUNK)
          session.sendPooledTransactionHashes(announcementOf(fresh.slice(i, i + TX_ANNOUNCE_CHUNK)));
      }
    });
  }
}

function announcementOf(txs: readonly TxAddedEvent['tx'][]): PooledTxAnnouncement {
  return {
    types: Uint8Array.from(txs.map((t) => (t.raw[0]! >= 0xc0 ? 0 : t.raw[0]!))),
    sizes: txs.map((t) => t.raw.length),
    hashes: txs.map((t) => t.hash),
  };
}
