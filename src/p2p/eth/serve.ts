/**
 * Answers peers' eth/68 data requests from the chain engine: headers (by number or hash, with skip and
 * reverse), bodies, receipts and pooled transactions. Unknown items are skipped, as the protocol allows, and
 * every answer is capped in count and size so that one request cannot make us load the whole chain.
 *
 * Given the asking peer, a request is served within that peer's budget (serve-budget.ts): one at a time, a bounded
 * queue behind them, none started while the peer leaves earlier answers unread, and none (nor the rest of a running
 * one) once its link has closed.
 */
import { RLP } from '@ethereumjs/rlp';
import { encodeConsensusReceipt } from '../../chain/index.js';
import type { ChainPort, PoolPort } from '../chain-port.js';
import { isGone, PerPeerBudget, ServeCancelled, type PerPeerBudgetOptions, type ServedPeer } from '../serve-budget.js';
import {
  MAX_BODIES_SERVE,
  MAX_HEADERS_SERVE,
  MAX_POOLED_TXS_SERVE,
  MAX_RECEIPTS_SERVE,
  SOFT_RESPONSE_LIMIT,
  type HeadersRequest,
  type RawBody,
  type RawHeader,
  type RawTx,
} from './messages.js';

/**
 * eth requests of one peer answered at a time: one, as geth handles a peer's messages one after another, so its
 * answers leave in the order it asked; a slow read (receipts) holds up only that peer.
 */
export const ETH_REQUESTS_PER_PEER = 1;
/**
 * eth requests of one peer that may wait behind it. Our own sync has at most 8 requests out to a peer, geth's
 * downloader and transaction fetcher a few more; a peer with more than this waiting asks faster than it reads.
 */
export const ETH_QUEUED_PER_PEER = 64;

/** Nobody to serve for: an in-process caller (tests, tools) that is never gone. */
const NO_PEER: ServedPeer = { link: { closed: false } };

export class EthServer {
  readonly budget: PerPeerBudget;

  constructor(
    private readonly chain: ChainPort,
    private readonly pool: PoolPort,
    budget: PerPeerBudgetOptions = {},
  ) {
    this.budget = new PerPeerBudget({ inFlight: ETH_REQUESTS_PER_PEER, maxQueued: ETH_QUEUED_PER_PEER, ...budget });
  }

  /** `work` within `peer`'s budget; without a peer at once. */
  private within<T>(peer: ServedPeer | undefined, work: (gone: () => void) => Promise<T>): Promise<T> {
    const asker = peer ?? NO_PEER;
    // Checked between reads: a peer that left stops its answer being built.
    const gone = () => {
      if (isGone(asker)) throw new ServeCancelled();
    };
    return peer === undefined ? work(gone) : this.budget.run(peer, () => work(gone));
  }

  headers(req: HeadersRequest, peer?: ServedPeer): Promise<RawHeader[]> {
    return this.within(peer, (gone) => this.readHeaders(req, gone));
  }

  private async readHeaders(req: HeadersRequest, gone: () => void): Promise<RawHeader[]> {
    const amount = Math.min(req.amount, MAX_HEADERS_SERVE);
    if (amount <= 0) return [];
    const step = BigInt(req.skip) + 1n;
    let first: bigint;
    if (req.origin instanceof Uint8Array) {
      const header = await this.chain.getHeader(req.origin);
      if (header === undefined) return [];
      // A side-chain origin can only be walked by parent links (reverse, no skip); anything else answers the origin alone.
      if (!(await this.chain.isCanonical(req.origin)))
        return this.sideChainHeaders(header.raw(), header.parentHash, req.reverse && req.skip === 0 ? amount : 1, gone);
      first = header.number;
    } else {
      first = req.origin;
    }
    const out: RawHeader[] = [];
    const head = this.chain.getHead().header.number;
    for (let i = 0, n = first; i < amount && n >= 0n && n <= head; i++, n = req.reverse ? n - step : n + step) {
      gone();
      const hash = await this.chain.getCanonicalHash(n);
      if (hash === undefined) break;
      const header = await this.chain.getHeader(hash);
      if (header === undefined) break;
      out.push(header.raw());
    }
    return out;
  }

  private async sideChainHeaders(
    first: RawHeader,
    parentHash: Uint8Array,
    amount: number,
    gone: () => void,
  ): Promise<RawHeader[]> {
    const out = [first];
    let parent = parentHash;
    while (out.length < amount) {
      gone();
      const header = await this.chain.getHeader(parent);
      if (header === undefined) break;
      out.push(header.raw());
      parent = header.parentHash;
    }
    return out;
  }

  bodies(hashes: readonly Uint8Array[], peer?: ServedPeer): Promise<RawBody[]> {
    return this.within(peer, (gone) => this.readBodies(hashes, gone));
  }

  private async readBodies(hashes: readonly Uint8Array[], gone: () => void): Promise<RawBody[]> {
    const out: RawBody[] = [];
    let bytes = 0;
    for (const hash of hashes.slice(0, MAX_BODIES_SERVE)) {
      gone();
      const block = await this.chain.getBlock(hash);
      if (block === undefined) continue;
      const [, txs, uncles] = block.raw() as unknown as [RawHeader, RawTx[], RawHeader[]];
      out.push({ txs, uncles });
      bytes += RLP.encode([txs, uncles] as never).length;
      if (bytes >= SOFT_RESPONSE_LIMIT) break;
    }
    return out;
  }

  receipts(hashes: readonly Uint8Array[], peer?: ServedPeer): Promise<unknown[][]> {
    return this.within(peer, (gone) => this.readReceipts(hashes, gone));
  }

  private async readReceipts(hashes: readonly Uint8Array[], gone: () => void): Promise<unknown[][]> {
    const out: unknown[][] = [];
    let bytes = 0;
    for (const hash of hashes.slice(0, MAX_RECEIPTS_SERVE)) {
      gone();
      const receipts = await this.chain.getReceipts(hash);
      if (receipts === undefined) continue;
      // On the wire a legacy receipt is its RLP list, a typed one its type-prefixed bytes (as in the receipts trie).
      out.push(
        receipts.map((r) => {
          const encoded = encodeConsensusReceipt(r);
          bytes += encoded.length;
          return r.type === 0 ? RLP.decode(encoded) : encoded;
        }),
      );
      if (bytes >= SOFT_RESPONSE_LIMIT) break;
    }
    return out;
  }

  /** From memory and quick, but within the budget all the same: its answers take the link like any other. */
  pooledTransactions(hashes: readonly Uint8Array[], peer?: ServedPeer): Promise<RawTx[]> {
    return this.within(peer, async () => this.readPooledTransactions(hashes));
  }

  private readPooledTransactions(hashes: readonly Uint8Array[]): RawTx[] {
    const out: RawTx[] = [];
    let bytes = 0;
    for (const hash of hashes.slice(0, MAX_POOLED_TXS_SERVE)) {
      const pooled = this.pool.get(hash);
      if (pooled === undefined) continue;
      out.push(wireTx(pooled.raw));
      bytes += pooled.raw.length;
      if (bytes >= SOFT_RESPONSE_LIMIT) break;
    }
    return out;
  }
}

/**
 * A transaction's network form from its canonical bytes: a legacy transaction travels as its RLP list, a
 * typed one (first byte < 0x80, EIP-2718) as its bytes.
 */
export function wireTx(raw: Uint8Array): RawTx {
  return raw[0]! >= 0xc0 ? (RLP.decode(raw) as Uint8Array[]) : raw;
}
