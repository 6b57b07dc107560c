/**
 * One peer's eth/68 (+ snap/1) session over an RLPx link: the STATUS handshake and its checks, request ids and
 * timeouts for our requests, and routing of the peer's requests and announcements to the host (serving and sync).
 */
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { ForkIdTable } from '../fork-id.js';
import { DisconnectReason, type RlpxLink, type SubProtocol } from '../rlpx/transport.js';
import * as eth from './messages.js';
import {
  EthCode,
  type HeadersRequest,
  type NewBlockMsg,
  type PooledTxAnnouncement,
  type RawBody,
  type RawHeader,
  type RawTx,
  type Status,
} from './messages.js';
import { PeerScore } from '../peer-score.js';
import { ServeCancelled, ServeQueueFull } from '../serve-budget.js';
import * as snap from '../snap/messages.js';
import { SnapCode } from '../snap/messages.js';

/** Our side of STATUS, read at handshake time. */
export interface LocalStatus {
  readonly networkId: bigint;
  readonly genesisHash: Uint8Array;
  readonly forkIds: ForkIdTable;
  head(): { readonly number: bigint; readonly hash: Uint8Array; readonly td: bigint };
}

/**
 * What the session hands on: requests to serve and announcements to act on. `peer` is the asking session: each
 * peer has its own serving budget (serve-budget.ts), whose refusal (ServeQueueFull) disconnects the peer.
 */
export interface SessionHost {
  serveHeaders(req: HeadersRequest, peer: EthSession): Promise<RawHeader[]>;
  serveBodies(hashes: readonly Uint8Array[], peer: EthSession): Promise<RawBody[]>;
  serveReceipts(hashes: readonly Uint8Array[], peer: EthSession): Promise<unknown[][]>;
  servePooledTransactions(hashes: readonly Uint8Array[], peer: EthSession): Promise<RawTx[]>;
  serveSnap(
    code: number,
    payload: Uint8Array,
    peer: EthSession,
  ): Promise<{ code: number; payload: Uint8Array } | undefined>;
  onNewBlock(session: EthSession, msg: NewBlockMsg): void;
  onNewBlockHashes(session: EthSession, items: readonly { hash: Uint8Array; number: bigint }[]): void;
  onTransactions(session: EthSession, txs: readonly RawTx[]): void;
  onPooledTransactionHashes(session: EthSession, announcement: PooledTxAnnouncement): void;
  /** The peer broke the protocol in a way worth blocking it for (bad blocks are reported by sync itself). */
  onMisbehaviour(session: EthSession, reason: string): void;
  /** The link closed or is closing: the peer's requests still waiting to be served are dropped. */
  onSessionClosed?(session: EthSession): void;
}

export class SessionError extends Error {
  constructor(
    readonly reason: DisconnectReason,
    message: string,
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

interface Pending {
  readonly protocol: SubProtocol;
  readonly expect: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
  readonly timer: NodeJS.Timeout;
  readonly sentAt: number;
}

const REQUEST_TIMEOUT_MS = 15_000;
/** A peer's request budget: at most this many of our requests in flight to it; more wait their turn. */
const MAX_IN_FLIGHT = 8;
/** Bounded memory of what the peer is known to have, so announcements are not echoed back. */
const KNOWN_LIMIT = 4096;

class KnownSet {
  readonly #set = new Set<string>();
  add(key: string): void {
    if (this.#set.has(key)) return;
    this.#set.add(key);
    if (this.#set.size > KNOWN_LIMIT) this.#set.delete(this.#set.values().next().value as string);
  }
  has(key: string): boolean {
    return this.#set.has(key);
  }
}

export class EthSession {
  /** Their STATUS once received and accepted. */
  remoteStatus: Status | null = null;
  /** Best block we know the peer has: from STATUS, announcements and headers it served. */
  bestHash: Uint8Array | null = null;
  bestNumber: bigint | null = null;
  td: bigint | null = null;
  forkAccepted: boolean | null = null;
  readonly knownBlocks = new KnownSet();
  readonly knownTxs = new KnownSet();
  /** Timeouts, bad and useless answers, latency: what the manager keeps or drops this peer by. */
  readonly score = new PeerScore();
  #nextRequestId = 1n;
  readonly #waiting: (() => void)[] = [];
  readonly #pending = new Map<bigint, Pending>();
  #statusTimer: NodeJS.Timeout | undefined;
  #onReady: (() => void) | undefined;
  #onFail: ((err: SessionError) => void) | undefined;

  constructor(
    readonly link: RlpxLink,
    private readonly local: LocalStatus,
    private readonly host: SessionHost,
  ) {}

  get ready(): boolean {
    return this.remoteStatus !== null && this.forkAccepted === true;
  }

  /** Sends our STATUS and resolves once the peer's STATUS is accepted; rejects (and disconnects) otherwise. */
  handshake(timeoutMs = 10_000): Promise<void> {
    const head = this.local.head();
    this.link.send(
      'eth',
      EthCode.Status,
      eth.encodeStatus({
        version: eth.ETH_VERSION,
        networkId: this.local.networkId,
        td: head.td,
        bestHash: head.hash,
        genesisHash: this.local.genesisHash,
        forkId: this.local.forkIds.at(head.number),
      }),
    );
    return new Promise<void>((resolve, reject) => {
      this.#onReady = resolve;
      this.#onFail = reject;
      this.#statusTimer = setTimeout(
        () => this.fail(new SessionError(DisconnectReason.TIMEOUT, `no eth STATUS within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
  }

  /** Why we dropped the peer, when it was for something it did (for the disconnect log line). */
  failure: string | undefined;

  /** Drops the link with `err.reason`, failing the handshake and every request still waiting. */
  fail(err: SessionError): void {
    this.failure ??= err.message;
    clearTimeout(this.#statusTimer);
    this.#onFail?.(err);
    this.#onFail = undefined;
    this.#onReady = undefined;
    this.closePending(err);
    this.link.disconnect(err.reason);
    this.host.onSessionClosed?.(this);
  }

  /** The link closed: everything waiting fails. */
  closed(reason: string): void {
    clearTimeout(this.#statusTimer);
    const err = new SessionError(DisconnectReason.DISCONNECT_REQUESTED, `peer disconnected: ${reason}`);
    this.#onFail?.(err);
    this.#onFail = undefined;
    this.closePending(err);
    this.host.onSessionClosed?.(this);
  }

  private closePending(err: Error): void {
    for (const p of this.#pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.#pending.clear();
    for (const wake of this.#waiting.splice(0)) wake();
  }

  // ------------------------------------------------------------------ requests we make

  getBlockHeaders(req: Omit<HeadersRequest, 'requestId'>): Promise<RawHeader[]> {
    return this.request(EthCode.GetBlockHeaders, EthCode.BlockHeaders, (requestId) =>
      eth.encodeGetBlockHeaders({ ...req, requestId }),
    );
  }

  getBlockBodies(hashes: readonly Uint8Array[]): Promise<RawBody[]> {
    return this.request(EthCode.GetBlockBodies, EthCode.BlockBodies, (requestId) =>
      eth.encodeGetBlockBodies(requestId, [...hashes]),
    );
  }

  /** Receipts per block, as the wire carries them (legacy: field list; typed: type byte ++ RLP). */
  getReceipts(hashes: readonly Uint8Array[]): Promise<eth.RawReceipt[][]> {
    return this.request(EthCode.GetReceipts, EthCode.Receipts, (requestId) =>
      eth.encodeGetReceipts(requestId, [...hashes]),
    );
  }

  getPooledTransactions(hashes: readonly Uint8Array[]): Promise<RawTx[]> {
    return this.request(EthCode.GetPooledTransactions, EthCode.PooledTransactions, (requestId) =>
      eth.encodeGetPooledTransactions(requestId, [...hashes]),
    );
  }

  /** Whether the peer offered snap/1 in its Hello (only such peers get our snap requests). */
  get speaksSnap(): boolean {
    return this.link.hello?.capabilities.includes(`snap/${snap.SNAP_VERSION}`) ?? false;
  }

  getAccountRange(req: Omit<snap.GetAccountRange, 'requestId'>, timeoutMs?: number): Promise<snap.AccountRange> {
    return this.request(
      SnapCode.GetAccountRange,
      SnapCode.AccountRange,
      (requestId) => snap.encodeGetAccountRange({ ...req, requestId }),
      'snap',
      timeoutMs,
    );
  }

  getStorageRanges(req: Omit<snap.GetStorageRanges, 'requestId'>, timeoutMs?: number): Promise<snap.StorageRanges> {
    return this.request(
      SnapCode.GetStorageRanges,
      SnapCode.StorageRanges,
      (requestId) => snap.encodeGetStorageRanges({ ...req, requestId }),
      'snap',
      timeoutMs,
    );
  }

  getByteCodes(req: Omit<snap.GetByteCodes, 'requestId'>, timeoutMs?: number): Promise<snap.ByteCodes> {
    return this.request(
      SnapCode.GetByteCodes,
      SnapCode.ByteCodes,
      (requestId) => snap.encodeGetByteCodes({ ...req, requestId }),
      'snap',
      timeoutMs,
    );
  }

  getTrieNodes(req: Omit<snap.GetTrieNodes, 'requestId'>, timeoutMs?: number): Promise<snap.TrieNodes> {
    return this.request(
      SnapCode.GetTrieNodes,
      SnapCode.TrieNodes,
      (requestId) => snap.encodeGetTrieNodes({ ...req, requestId }),
      'snap',
      timeoutMs,
    );
  }

  private async request<T>(
    code: number,
    expect: number,
    encode: (requestId: bigint) => Uint8Array,
    protocol: SubProtocol = 'eth',
    /** The snap sync sizes it to the peer's measured round trip (snap/sync/rates.ts). */
    timeoutMs = REQUEST_TIMEOUT_MS,
  ): Promise<T> {
    while (this.#pending.size >= MAX_IN_FLIGHT && !this.link.closed)
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    const requestId = this.#nextRequestId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(requestId);
        this.score.timedOut();
        this.#waiting.shift()?.();
        reject(new SessionError(DisconnectReason.TIMEOUT, `no answer to request ${requestId} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(requestId, {
        protocol,
        expect,
        resolve: resolve as (v: unknown) => void,
        reject,
        timer,
        sentAt: Date.now(),
      });
      if (!this.link.send(protocol, code, encode(requestId))) {
        clearTimeout(timer);
        this.#pending.delete(requestId);
        this.#waiting.shift()?.();
        reject(new SessionError(DisconnectReason.DISCONNECT_REQUESTED, 'peer link is closed'));
      }
    });
  }

  private answer(code: number, requestId: bigint, value: unknown, protocol: SubProtocol = 'eth'): void {
    const pending = this.#pending.get(requestId);
    // An answer to a request that timed out (or was never made) is ignored, as other clients do.
    if (pending === undefined || pending.expect !== code || pending.protocol !== protocol) return;
    this.#pending.delete(requestId);
    clearTimeout(pending.timer);
    this.score.answered(Date.now() - pending.sentAt);
    this.#waiting.shift()?.();
    pending.resolve(value);
  }

  // ------------------------------------------------------------------ announcements we send

  sendNewBlock(msg: NewBlockMsg, hash: Uint8Array): void {
    this.knownBlocks.add(bytesToHex(hash));
    this.link.send('eth', EthCode.NewBlock, eth.encodeNewBlock(msg));
  }

  sendNewBlockHashes(items: readonly { hash: Uint8Array; number: bigint }[]): void {
    for (const item of items) this.knownBlocks.add(bytesToHex(item.hash));
    this.link.send('eth', EthCode.NewBlockHashes, eth.encodeNewBlockHashes([...items]));
  }

  sendPooledTransactionHashes(announcement: PooledTxAnnouncement): void {
    for (const h of announcement.hashes) this.knownTxs.add(bytesToHex(h));
    this.link.send('eth', EthCode.NewPooledTransactionHashes, eth.encodeNewPooledTransactionHashes(announcement));
  }

  // ------------------------------------------------------------------ incoming

  /** Routes one message from the link. Malformed input drops the peer with PROTOCOL_ERROR. */
  handle(protocol: SubProtocol, code: number, payload: Uint8Array): void {
    try {
      if (protocol === 'snap') this.handleSnap(code, payload);
      else this.handleEth(code, payload);
    } catch (err) {
      if (err instanceof SessionError) this.fail(err);
      else
        this.fail(
          new SessionError(
            DisconnectReason.PROTOCOL_ERROR,
            `bad ${protocol} message 0x${code.toString(16)}: ${(err as Error).message}`,
          ),
        );
    }
  }

  private handleEth(code: number, payload: Uint8Array): void {
    if (code === EthCode.Status) return this.onStatus(eth.decodeStatus(payload));
    if (this.remoteStatus === null)
      throw new SessionError(DisconnectReason.PROTOCOL_ERROR, `eth message 0x${code.toString(16)} before STATUS`);
    switch (code) {
      case EthCode.GetBlockHeaders: {
        const req = eth.decodeGetBlockHeaders(payload);
        return this.serve(this.host.serveHeaders(req, this), (headers) =>
          this.link.send('eth', EthCode.BlockHeaders, eth.encodeBlockHeaders(req.requestId, headers)),
        );
      }
      case EthCode.GetBlockBodies: {
        const req = eth.decodeGetBlockBodies(payload);
        return this.serve(this.host.serveBodies(req.hashes, this), (bodies) =>
          this.link.send('eth', EthCode.BlockBodies, eth.encodeBlockBodies(req.requestId, bodies)),
        );
      }
      case EthCode.GetReceipts: {
        const req = eth.decodeGetReceipts(payload);
        return this.serve(this.host.serveReceipts(req.hashes, this), (receipts) =>
          this.link.send('eth', EthCode.Receipts, eth.encodeReceipts(req.requestId, receipts as eth.RawReceipt[][])),
        );
      }
      case EthCode.GetPooledTransactions: {
        const req = eth.decodeGetPooledTransactions(payload);
        return this.serve(this.host.servePooledTransactions(req.hashes, this), (txs) =>
          this.link.send('eth', EthCode.PooledTransactions, eth.encodePooledTransactions(req.requestId, txs)),
        );
      }
      case EthCode.BlockHeaders: {
        const res = eth.decodeBlockHeaders(payload);
        return this.answer(code, res.requestId, res.headers);
      }
      case EthCode.BlockBodies: {
        const res = eth.decodeBlockBodies(payload);
        return this.answer(code, res.requestId, res.bodies);
      }
      case EthCode.PooledTransactions: {
        const res = eth.decodePooledTransactions(payload);
        return this.answer(code, res.requestId, res.txs);
      }
      case EthCode.Receipts: {
        const res = eth.decodeReceipts(payload);
        return this.answer(code, res.requestId, res.receipts);
      }
      case EthCode.NewBlock: {
        const msg = eth.decodeNewBlock(payload);
        return this.host.onNewBlock(this, msg);
      }
      case EthCode.NewBlockHashes: {
        const items = eth.decodeNewBlockHashes(payload);
        for (const item of items) this.knownBlocks.add(bytesToHex(item.hash));
        return this.host.onNewBlockHashes(this, items);
      }
      case EthCode.Transactions:
        return this.host.onTransactions(this, eth.decodeTransactions(payload));
      case EthCode.NewPooledTransactionHashes: {
        const announcement = eth.decodeNewPooledTransactionHashes(payload);
        for (const h of announcement.hashes) this.knownTxs.add(bytesToHex(h));
        return this.host.onPooledTransactionHashes(this, announcement);
      }
      default:
        // Messages we do not use (e.g. GetNodeData, gone since eth/67) are ignored rather than punished.
        return;
    }
  }

  private handleSnap(code: number, payload: Uint8Array): void {
    if (this.remoteStatus === null)
      throw new SessionError(DisconnectReason.PROTOCOL_ERROR, `snap message 0x${code.toString(16)} before eth STATUS`);
    if (
      code === SnapCode.GetAccountRange ||
      code === SnapCode.GetStorageRanges ||
      code === SnapCode.GetByteCodes ||
      code === SnapCode.GetTrieNodes
    ) {
      this.serve(this.host.serveSnap(code, payload, this), (answer) => {
        if (answer !== undefined) this.link.send('snap', answer.code, answer.payload);
      });
    }
    switch (code) {
      case SnapCode.AccountRange: {
        const res = snap.decodeAccountRange(payload);
        return this.answer(code, res.requestId, res, 'snap');
      }
      case SnapCode.StorageRanges: {
        const res = snap.decodeStorageRanges(payload);
        return this.answer(code, res.requestId, res, 'snap');
      }
      case SnapCode.ByteCodes: {
        const res = snap.decodeByteCodes(payload);
        return this.answer(code, res.requestId, res, 'snap');
      }
      case SnapCode.TrieNodes: {
        const res = snap.decodeTrieNodes(payload);
        return this.answer(code, res.requestId, res, 'snap');
      }
    }
  }

  private serve<T>(work: Promise<T>, reply: (value: T) => void): void {
    work.then(reply, (err: unknown) => {
      // The peer left: its request is dropped unanswered, nothing more to do.
      if (err instanceof ServeCancelled) return;
      if (err instanceof ServeQueueFull)
        return this.fail(new SessionError(DisconnectReason.SUBPROTOCOL_ERROR, `too many requests: ${err.message}`));
      if (err instanceof SessionError) this.fail(err);
      else
        this.fail(new SessionError(DisconnectReason.PROTOCOL_ERROR, `cannot serve request: ${(err as Error).message}`));
    });
  }

  private onStatus(status: Status): void {
    if (this.remoteStatus !== null) throw new SessionError(DisconnectReason.PROTOCOL_ERROR, 'second eth STATUS');
    clearTimeout(this.#statusTimer);
    const head = this.local.head();
    if (status.version !== eth.ETH_VERSION) {
      throw new SessionError(
        DisconnectReason.INCOMPATIBLE_VERSION,
        `eth version ${status.version}, we speak ${eth.ETH_VERSION}`,
      );
    }
    if (status.networkId !== this.local.networkId) {
      throw new SessionError(
        DisconnectReason.USELESS_PEER,
        `network id ${status.networkId}, ours is ${this.local.networkId}`,
      );
    }
    if (!equalsBytes(status.genesisHash, this.local.genesisHash)) {
      throw new SessionError(
        DisconnectReason.USELESS_PEER,
        `genesis ${bytesToHex(status.genesisHash)}, ours is ${bytesToHex(this.local.genesisHash)}`,
      );
    }
    const fork = this.local.forkIds.check(head.number, status.forkId);
    this.forkAccepted = fork === true;
    if (fork !== true) throw new SessionError(DisconnectReason.USELESS_PEER, `fork id: ${fork}`);
    this.remoteStatus = status;
    this.td = status.td;
    this.bestHash = status.bestHash;
    this.knownBlocks.add(bytesToHex(status.bestHash));
    this.#onReady?.();
    this.#onReady = undefined;
    this.#onFail = undefined;
  }
}
