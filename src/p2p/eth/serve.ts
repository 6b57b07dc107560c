/**
 * Answers peers' eth/68 data requests from the chain engine: headers (by number or hash, with skip and
 * reverse), bodies, receipts and pooled transactions. Unknown items are skipped, as the protocol allows, and
 * every answer is capped in count and size so that one request cannot make us load the whole chain.
 */
import { RLP } from '@ethereumjs/rlp';
import { encodeConsensusReceipt } from '../../chain/index.js';
import type { ChainPort, PoolPort } from '../chain-port.js';
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

export class EthServer {
  constructor(
    private readonly chain: ChainPort,
    private readonly pool: PoolPort,
  ) {}

  async headers(req: HeadersRequest): Promise<RawHeader[]> {
    const amount = Math.min(req.amount, MAX_HEADERS_SERVE);
    if (amount <= 0) return [];
    const step = BigInt(req.skip) + 1n;
    let first: bigint;
    if (req.origin instanceof Uint8Array) {
      const header = await this.chain.getHeader(req.origin);
      if (header === undefined) return [];
      // A side-chain origin can only be walked by parent links (reverse, no skip); anything else answers the origin alone.
      if (!(await this.chain.isCanonical(req.origin)))
        return this.sideChainHeaders(header.raw(), header.parentHash, req.reverse && req.skip === 0 ? amount : 1);
      first = header.number;
    } else {
      first = req.origin;
    }
    const out: RawHeader[] = [];
    const head = this.chain.getHead().header.number;
    for (let i = 0, n = first; i < amount && n >= 0n && n <= head; i++, n = req.reverse ? n - step : n + step) {
      const hash = await this.chain.getCanonicalHash(n);
      if (hash === undefined) break;
      const header = await this.chain.getHeader(hash);
      if (header === undefined) break;
      out.push(header.raw());
    }
    return out;
  }

  private async sideChainHeaders(first: RawHeader, parentHash: Uint8Array, amount: number): Promise<RawHeader[]> {
    const out = [first];
    let parent = parentHash;
    while (out.length < amount) {
      const header = await this.chain.getHeader(parent);
      if (header === undefined) break;
      out.push(header.raw());
      parent = header.parentHash;
    }
    return out;
  }

  async bodies(hashes: readonly Uint8Array[]): Promise<RawBody[]> {
    const out: RawBody[] = [];
    let bytes = 0;
    for (const hash of hashes.slice(0, MAX_BODIES_SERVE)) {
      const block = await this.chain.getBlock(hash);
      if (block === undefined) continue;
      const [, txs, uncles] = block.raw() as unknown as [RawHeader, RawTx[], RawHeader[]];
      out.push({ txs, uncles });
      bytes += RLP.encode([txs, uncles] as never).length;
      if (bytes >= SOFT_RESPONSE_LIMIT) break;
    }
    return out;
  }

  async receipts(hashes: readonly Uint8Array[]): Promise<unknown[][]> {
    const out: unknown[][] = [];
    let bytes = 0;
    for (const hash of hashes.slice(0, MAX_RECEIPTS_SERVE)) {
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

  pooledTransactions(hashes: readonly Uint8Array[]): RawTx[] {
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
