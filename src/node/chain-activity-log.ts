/**
 * Chain activity at info, as geth, Hardhat and Anvil show it: a line per block stored (mined here or imported from
 * a peer or over RPC), a reorg line, and the pool's size when it changed. When blocks come faster than a person
 * reads (a dev burst, a sync, a bulk mine), they fold into one "imported new chain segment" line per few seconds.
 *
 * It only listens to the engine's events; the engine knows nothing of it. A block is announced by the chain
 * (`blockImported`) before the miner says it sealed it (`sealed`, after the pool settled), so lines wait a moment
 * (`settleMs`) to learn who made the block.
 */
import type { Block } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import type { BlockImportedEvent, ReorgEvent, ChainEngine, MinedBlock } from '../chain/index.js';
import type { Logger } from './logger.js';

export interface ChainActivityOptions {
  /** How long a block's line waits for the miner's word (default 150 ms). */
  readonly settleMs?: number;
  /** One aggregated line covers at most this long; also the window of `maxBlockLines` (default 4 s). */
  readonly segmentMs?: number;
  /** Per-block lines allowed in one window before blocks are aggregated (default 5). */
  readonly maxBlockLines?: number;
  /** At most one pool line per this long (default 4 s). */
  readonly poolMs?: number;
}

export interface ChainActivityLog {
  /** Writes what is still held (the last blocks, the pool's size) and stops listening. */
  close(): void;
}

interface Segment {
  readonly startedAt: number;
  blocks: number;
  mined: number;
  side: number;
  txs: number;
  gas: bigint;
  head?: Block;
}

/** A hash as people compare them: the first and last few digits. */
const shortHash = (bytes: Uint8Array) => {
  const full = bytesToHex(bytes);
  return `${full.slice(0, 8)}…${full.slice(-6)}`;
};
const mgas = (gas: bigint) => Number(gas) / 1e6;
// Numbers go out as decimal strings (as the `chain opened` line's head does): bare at a terminal, exact in JSON.

export function logChainActivity(engine: ChainEngine, log: Logger, opts: ChainActivityOptions = {}): ChainActivityLog {
  const settleMs = opts.settleMs ?? 150;
  const segmentMs = opts.segmentMs ?? 4000;
  const maxBlockLines = opts.maxBlockLines ?? 5;
  const poolMs = opts.poolMs ?? 4000;

  /** Blocks the miner sealed, by hash, with the time it spent sealing (undefined: an external miner's work). */
  const minedHere = new Map<string, number | undefined>();
  let arrivals: BlockImportedEvent[] = [];
  let settleTimer: NodeJS.Timeout | undefined;
  let segment: Segment | undefined;
  let segmentTimer: NodeJS.Timeout | undefined;
  /** Times of recent per-block lines; a full window switches to aggregation. */
  let recentLines: number[] = [];
  /** After a busy segment, the next blocks aggregate at once instead of spending the per-block allowance again. */
  let busyUntil = 0;

  const blockLine = ({ block, status, durationMs }: BlockImportedEvent, mined: boolean, sealMs?: number) => {
    const fields = {
      number: block.header.number.toString(),
      hash: shortHash(block.hash()),
      txs: block.transactions.length,
      gasUsed: block.header.gasUsed.toString(),
      ms: Math.round(durationMs * 10) / 10,
      ...(sealMs !== undefined ? { sealMs: Math.round(sealMs * 10) / 10 } : {}),
      source: mined ? 'mined' : 'imported',
      ...(status === 'side' ? { sideChain: true } : {}),
    };
    log.info(mined ? 'mined block' : 'imported block', fields);
  };

  const flushSegment = () => {
    clearTimeout(segmentTimer);
    segmentTimer = undefined;
    const s = segment;
    segment = undefined;
    if (s === undefined || s.blocks === 0) return;
    const now = Date.now();
    if (s.blocks > maxBlockLines) busyUntil = now + segmentMs;
    log.info('imported new chain segment', {
      blocks: s.blocks,
      mined: s.mined,
      ...(s.side > 0 ? { sideChain: s.side } : {}),
      txs: s.txs,
      mgas: Math.round(mgas(s.gas) * 1000) / 1000,
      elapsedMs: now - s.startedAt,
      ...(s.head !== undefined ? { number: s.head.header.number.toString(), hash: shortHash(s.head.hash()) } : {}),
    });
  };

  const addToSegment = (event: BlockImportedEvent, mined: boolean, now: number) => {
    if (segment === undefined) {
      segment = { startedAt: now, blocks: 0, mined: 0, side: 0, txs: 0, gas: 0n };
      segmentTimer = setTimeout(flushSegment, segmentMs);
      segmentTimer.unref();
    }
    segment.blocks++;
    if (mined) segment.mined++;
    if (event.status === 'side') segment.side++;
    else segment.head = event.block;
    segment.txs += event.block.transactions.length;
    segment.gas += event.block.header.gasUsed;
  };

  const flushArrivals = () => {
    clearTimeout(settleTimer);
    settleTimer = undefined;
    const batch = arrivals;
    arrivals = [];
    const now = Date.now();
    recentLines = recentLines.filter((t) => now - t < segmentMs);
    for (const event of batch) {
      const key = bytesToHex(event.block.hash());
      const mined = minedHere.has(key);
      const sealMs = minedHere.get(key);
      minedHere.delete(key);
      const lineAllowed = segment === undefined && now >= busyUntil && recentLines.length < maxBlockLines;
      // A batch that alone exceeds the allowance is a burst: aggregate all of it rather than print its first lines.
      if (lineAllowed && batch.length <= maxBlockLines - recentLines.length) {
        blockLine(event, mined, sealMs);
        recentLines.push(now);
      } else addToSegment(event, mined, now);
    }
    // A block sealed but never announced (none today) must not keep its hash forever.
    if (minedHere.size > 10_000) minedHere.clear();
  };

  // Lines about blocks are info lines: below the logger's level (`--log-level warn`, as the benchmarks run) or while
  // quiet, every block would still be hex-keyed and counted only for lines that are dropped (~10 % of a bulk run).
  const muted = () => log.quiet || log.level === 'warn' || log.level === 'error';
  const onImported = (event: BlockImportedEvent) => {
    // Muted at arrival, not when the line is due: a block that came while the log was quiet is never announced.
    if (muted()) return;
    arrivals.push(event);
    if (settleTimer === undefined) {
      settleTimer = setTimeout(flushArrivals, settleMs);
      settleTimer.unref();
    }
  };
  const onSealed = (mined: MinedBlock) => {
    // Its arrival will be muted too (and a muted log never flushes, so the map would only grow).
    if (muted()) return;
    minedHere.set(bytesToHex(mined.block.hash()), mined.sealMs);
  };
  const onReorg = ({ dropped, added, commonAncestor }: ReorgEvent) => {
    const oldHead = dropped[0];
    const newHead = added[added.length - 1] ?? commonAncestor;
    log.info('chain reorg', {
      depth: dropped.length,
      added: added.length,
      ...(oldHead !== undefined
        ? { oldNumber: oldHead.header.number.toString(), oldHash: shortHash(oldHead.hash()) }
        : {}),
      newNumber: newHead.header.number.toString(),
      newHash: shortHash(newHead.hash()),
      ancestor: commonAncestor.header.number.toString(),
    });
  };

  let poolTimer: NodeJS.Timeout | undefined;
  let poolLoggedAt = 0;
  let poolLogged = { pending: 0, queued: 0 };
  const logPool = () => {
    clearTimeout(poolTimer);
    poolTimer = undefined;
    const now = { pending: engine.pool.pendingCount, queued: engine.pool.queuedCount };
    if (now.pending === poolLogged.pending && now.queued === poolLogged.queued) return;
    poolLogged = now;
    poolLoggedAt = Date.now();
    log.info('transaction pool', now);
  };
  const onPoolChange = () => {
    if (poolTimer !== undefined) return;
    // Not at the first transaction of a burst: a short pause lets the line carry the burst's size.
    poolTimer = setTimeout(logPool, Math.max(500, poolLoggedAt + poolMs - Date.now()));
    poolTimer.unref();
  };

  engine.chain.on('blockImported', onImported);
  engine.chain.on('reorg', onReorg);
  engine.miner.on('sealed', onSealed);
  engine.pool.on('tx:added', onPoolChange);
  engine.pool.on('tx:dropped', onPoolChange);

  return {
    close() {
      engine.chain.off('blockImported', onImported);
      engine.chain.off('reorg', onReorg);
      engine.miner.off('sealed', onSealed);
      engine.pool.off('tx:added', onPoolChange);
      engine.pool.off('tx:dropped', onPoolChange);
      flushArrivals();
      flushSegment();
      if (poolTimer !== undefined) logPool();
    },
  };
}
