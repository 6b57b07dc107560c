/**
 * The pivot and the header chain up to it. The pivot is the head the best peers agree on, less a distance (64 by
 * default, as geth), so that every peer still holds its state for a while. Headers are fetched forward from
 * the highest stored one and linked by parent hash; seals are checked for one header in 100 and for the last
 * ones before the pivot (geth's snap sync does the same), the rest is vouched for by the links.
 *
 * The peers' chain may reorganise under what we stored. Headers that do not link to our tip then come from a
 * peer whose header at our tip's height is another one: the download goes back to the last header both chains
 * share and stores the new branch from there over the old one (an honest peer on a new branch is no liar). A
 * pivot that the new branch does not hold is abandoned (PivotAbandoned): the caller picks a new one.
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

/** The peers' canonical chain no longer holds the pivot (a reorg under it): a new pivot is needed. */
export class PivotAbandoned extends Error {
  override name = 'PivotAbandoned';
}

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
    const got = await opts.peers.run(HEADERS_KEY, (peer) => fetchLinked(opts, peer, from, amount, parent, pivot));
    if (!Array.isArray(got)) {
      // A reorg: the next batch starts after the shared header and overwrites the old branch's entries.
      current = got.forkedAt;
      continue;
    }
    const headers = got;
    const last = headers.at(-1)!;
    if (last.number === pivot.number && !equalsBytes(last.hash(), pivot.hash))
      throw new PivotAbandoned(`the peers' block ${pivot.number} is no longer the pivot ${bytesToHex(pivot.hash)}`);
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
): Promise<BlockHeader[] | { forkedAt: BlockRefTd }> {
  const raws = await peer.getBlockHeaders({ origin: from, amount, skip: 0, reverse: false });
  if (raws.length === 0) throw new NotHeld(`no headers from ${from}`);
  const headers = raws.map((raw) => decode(opts.chain, raw));
  if (headers[0]!.number === from && !equalsBytes(headers[0]!.parentHash, parent.hash) && parent.number > 0n)
    return { forkedAt: await forkPoint(opts.chain, peer, parent) };
  let parentHash = parent.hash;
  const sampled: BlockHeader[] = [];
  headers.forEach((h, i) => {
    if (h.number !== from + BigInt(i))
      throw new BadAnswer(`sent header ${h.number} where ${from + BigInt(i)} was asked`);
    if (!equalsBytes(h.parentHash, parentHash)) throw new BadAnswer(`sent headers that do not link at ${h.number}`);
    parentHash = h.hash();
    if (h.number % BigInt(SEAL_SAMPLE) === 0n || h.number + BigInt(LAST_SEALS) > pivot.number) sampled.push(h);
  });
  const verdicts = (await opts.chain.checkSeals?.(sampled)) ?? [];
  verdicts.forEach((v, i) => {
    if (v !== true) throw new BadAnswer(`sent header ${sampled[i]!.number} with a bad seal: ${v}`);
  });
  return headers;
}

/**
 * The highest of our stored headers at or below `tip` that the peer's chain holds too, with its total difficulty,
 * found by walking the peer's headers back from `tip`'s height. A peer that holds our tip itself sent headers
 * that do not link to it: that is a lie, not a reorg.
 */
async function forkPoint(chain: ChainPort, peer: EthSession, tip: BlockRefTd): Promise<BlockRefTd> {
  let td = tip.td;
  let number = tip.number;
  let below: Uint8Array | undefined;
  // Ours are walked by parent hash: the canonical index answers only up to the head, still genesis here.
  let ours: Uint8Array = tip.hash;
  while (number > 0n) {
    const raws = await peer.getBlockHeaders({ origin: number, amount: HEADER_BATCH, skip: 0, reverse: true });
    if (raws.length === 0) throw new NotHeld(`no headers back from ${number}`);
    for (const raw of raws) {
      const theirs = decode(chain, raw);
      if (theirs.number !== number) throw new BadAnswer(`sent header ${theirs.number} where ${number} was asked`);
      if (below !== undefined && !equalsBytes(theirs.hash(), below))
        throw new BadAnswer(`sent headers that do not link at ${theirs.number}`);
      below = theirs.parentHash;
      const header = await chain.getHeader(ours);
      if (header === undefined) throw new Error(`the stored header chain has no header ${number}`);
      if (equalsBytes(ours, theirs.hash())) {
        if (number === tip.number) throw new BadAnswer(`sent headers that do not link to our header ${number}`);
        return { number, hash: ours, td };
      }
      td -= header.difficulty;
      ours = header.parentHash;
      number--;
      if (number === 0n) break;
    }
  }
  const genesis = chain.getGenesis();
  return { number: 0n, hash: genesis.hash(), td };
}

function decode(chain: ChainPort, raw: readonly Uint8Array[]): BlockHeader {
  try {
    return chain.decodeHeaderValues(raw);
  } catch (err) {
    throw new BadAnswer(`sent an undecodable header: ${(err as Error).message}`);
  }
}
