/**
 * The pivot and the header chain up to it. The pivot is the head the best peers agree on, less a distance (64 by
 * default, as geth), so that every peer still holds its state for a while. Headers are fetched forward from
 * the highest stored one and linked by parent hash; seals are checked for one header in 100 and for the last
 * ones before the pivot (geth's snap sync does the same), the rest is vouched for by the links.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { ChainPort, SnapStatePort } from '../../chain-port.js';
import type { EthSession } from '../../eth/session.js';
import { BadAnswer, NotHeld, type SnapPeers } from './peers.js';
import type { BlockRefTd } from './record.js';

const HEADER_BATCH = 192;
/** One header in this many has its seal checked, and so do the last LAST_SEALS before the pivot. */
export const SEAL_SAMPLE = 100;
const LAST_SEALS = 64;
/** peers.run keys "does not hold" by root; headers are not tied to one, so they share this key. */
const HEADERS_KEY = new Uint8Array(32);

/** The highest head that at least two of the peers (or the only one) have reached. */
export async function agreedHead(peers: readonly EthSession[], decode: ChainPort['decodeHeaderValues']) {
  const heads: bigint[] = [];
  for (const peer of peers) {
    if (peer.bestNumber === null && peer.bestHash !== null) {
      const [raw] = await peer.getBlockHeaders({ origin: peer.bestHash, amount: 1, skip: 0, reverse: false });
      if (raw !== undefined) peer.bestNumber = decode(raw).number;
    }
    if (peer.bestNumber !== null) heads.push(peer.bestNumber);
  }
  heads.sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
  return heads.length === 0 ? undefined : heads[Math.min(1, heads.length - 1)];
}

/** The canonical header at `number` from one peer. */
export async function headerAt(peers: SnapPeers, chain: ChainPort, number: bigint): Promise<BlockHeader> {
  return peers.run(HEADERS_KEY, async (peer) => {
    const [raw] = await peer.getBlockHeaders({ origin: number, amount: 1, skip: 0, reverse: false });
    if (raw === undefined) throw new NotHeld(`no header ${number}`);
    const header = decode(chain, raw);
    if (header.number !== number) throw new BadAnswer(`sent header ${header.number} for ${number}`);
    return header;
  });
}

export interface HeaderChainOptions {
  readonly chain: ChainPort;
  readonly state: SnapStatePort;
  readonly peers: SnapPeers;
  /** The progress record with this tip, written with the headers. */
  readonly recordWith: (tip: BlockRefTd) => Uint8Array;
  readonly onTip: (tip: BlockRefTd) => void;
}

/**
 * Stores the headers after `tip` up to `pivot` (which must end the chain), each batch with the record; returns
 * the new tip (the pivot, with its total difficulty).
 */
export async function downloadHeaders(
  opts: HeaderChainOptions,
  tip: BlockRefTd,
  pivot: { number: bigint; hash: Uint8Array },
): Promise<BlockRefTd> {
  let current = tip;
  while (current.number < pivot.number) {
    const from = current.number + 1n;
    const left = pivot.number - current.number;
    const amount = left < BigInt(HEADER_BATCH) ? Number(left) : HEADER_BATCH;
    const parent = current;
    const headers = await opts.peers.run(HEADERS_KEY, (peer) => fetchLinked(opts, peer, from, amount, parent, pivot));
    const last = headers.at(-1)!;
    const td = headers.reduce((sum, h) => sum + h.difficulty, current.td);
    const next = { number: last.number, hash: last.hash(), td };
    await opts.state.storeHeaders(headers, current.td, opts.recordWith(next));
    current = next;
    opts.onTip(current);
  }
  if (!equalsBytes(current.hash, pivot.hash))
    throw new Error(`the header chain reached ${bytesToHex(current.hash)}, not the pivot ${bytesToHex(pivot.hash)}`);
  return current;
}

async function fetchLinked(
  opts: HeaderChainOptions,
  peer: EthSession,
  from: bigint,
  amount: number,
  parent: BlockRefTd,
  pivot: { number: bigint; hash: Uint8Array },
): Promise<BlockHeader[]> {
  const raws = await peer.getBlockHeaders({ origin: from, amount, skip: 0, reverse: false });
  if (raws.length === 0) throw new NotHeld(`no headers from ${from}`);
  const headers = raws.map((raw) => decode(opts.chain, raw));
  let parentHash = parent.hash;
  const sampled: BlockHeader[] = [];
  headers.forEach((h, i) => {
    if (h.number !== from + BigInt(i))
      throw new BadAnswer(`sent header ${h.number} where ${from + BigInt(i)} was asked`);
    if (!equalsBytes(h.parentHash, parentHash)) throw new BadAnswer(`sent headers that do not link at ${h.number}`);
    parentHash = h.hash();
    if (h.number % BigInt(SEAL_SAMPLE) === 0n || h.number + BigInt(LAST_SEALS) > pivot.number) sampled.push(h);
  });
  const last = headers.at(-1)!;
  if (last.number === pivot.number && !equalsBytes(last.hash(), pivot.hash))
    throw new BadAnswer(`sent a header ${last.number} that is not the pivot the peers agreed on`);
  const verdicts = (await opts.chain.checkSeals?.(sampled)) ?? [];
  verdicts.forEach((v, i) => {
    if (v !== true) throw new BadAnswer(`sent header ${sampled[i]!.number} with a bad seal: ${v}`);
  });
  return headers;
}

function decode(chain: ChainPort, raw: readonly Uint8Array[]): BlockHeader {
  try {
    return chain.decodeHeaderValues(raw);
  } catch (err) {
    throw new BadAnswer(`sent an undecodable header: ${(err as Error).message}`);
  }
}
