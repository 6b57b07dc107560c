/**
 * Full sync: follows the heaviest peer. Finds the highest block both chains share, then downloads headers and
 * bodies in batches and imports each block through the engine's own import path (seal, header, body and state
 * checks; fork choice by total difficulty, so a heavier peer chain becomes ours by an ordinary reorg).
 * The next batch is fetched while the current one is imported.
 *
 * A peer that serves a block the engine rejects is reported as bad (the service disconnects and blacklists it);
 * a peer that times out or disconnects is simply left, and sync goes on with the next best one.
 */
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { Block, BlockHeader } from '@ethereumjs/block';
import { BlockImportError, ProgressLog } from '../chain/index.js';
import type { ChainPort } from './chain-port.js';
import type { EthSession } from './eth/session.js';
import type { RawBody, RawHeader } from './eth/messages.js';
import type { SyncEvent, SyncProgress } from './types.js';

export const HEADER_BATCH = 192;
export const BODY_BATCH = 128;
const ANCESTOR_BATCH = 128;

export interface SyncOptions {
  readonly chain: ChainPort;
  /** Ready sessions to choose from. */
  readonly sessions: () => readonly EthSession[];
  /** A peer served an invalid block or an inconsistent answer. */
  readonly onBadPeer: (session: EthSession, reason: string) => void;
  readonly log: {
    info(msg: string, f?: Record<string, unknown>): void;
    debug(msg: string, f?: Record<string, unknown>): void;
  };
  /** How often a catch-up logs a "sync progress" line (default 5 s). */
  readonly progressIntervalMs?: number;
}

class UselessPeer extends Error {}

const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const EMPTY_UNCLE_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';

export class Synchronizer {
  readonly #opts: SyncOptions;
  #running: Promise<void> | undefined;
  #again = false;
  #progress: SyncProgress | null = null;
  readonly #listeners = new Set<(e: SyncEvent) => void>();
  #closed = false;

  constructor(options: SyncOptions) {
    this.#opts = options;
  }

  progress(): SyncProgress | null {
    return this.#progress;
  }

  /** True while a sync run is downloading blocks (announcements of every imported block are held back then). */
  get active(): boolean {
    return this.#progress !== null;
  }

  onEvent(listener: (e: SyncEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#closed = true;
  }

  #held = false;

  /** While held (a snap sync runs), triggers wait; releasing runs one if any came. */
  hold(held: boolean): void {
    this.#held = held;
  }

  /** Progress of work done elsewhere while held (a snap sync), for the same status and events. */
  showProgress(progress: SyncProgress | null): void {
    this.setProgress(progress);
  }

  /** Something changed (a peer joined or announced a block): sync if any peer is ahead of us. */
  trigger(): void {
    if (this.#closed || this.#held) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.loop().finally(() => {
      this.#running = undefined;
    });
  }

  /** Resolves when no sync run is in progress. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  private async loop(): Promise<void> {
    do {
      this.#again = false;
      for (;;) {
        if (this.#closed) return;
        const peer = this.bestPeer();
        if (peer === undefined) break;
        const gained = await this.syncWith(peer).catch((err: unknown) => {
          this.#opts.log.debug('sync with peer stopped', { peer: peerName(peer), error: (err as Error).message });
          if (err instanceof UselessPeer) peer.score.useless();
          return false;
        });
        // A peer that claimed more than it delivered is not chosen again until it announces something new.
        if (!gained) peer.td = this.#opts.chain.getHeadTotalDifficulty();
      }
    } while (this.#again && !this.#closed);
    this.setProgress(null);
  }

  /** The ready peer with the most total difficulty above ours (or, failing TD news, the highest announced block). */
  private bestPeer(): EthSession | undefined {
    const chain = this.#opts.chain;
    const ourTd = chain.getHeadTotalDifficulty();
    const ourNumber = chain.getHead().header.number;
    let best: EthSession | undefined;
    for (const s of this.#opts.sessions()) {
      if (!s.ready) continue;
      const ahead =
        (s.td !== null && s.td > ourTd) ||
        (s.bestNumber !== null && s.bestNumber > ourNumber && (s.td === null || s.td > ourTd));
      if (!ahead) continue;
      if (best === undefined || (s.td ?? 0n) > (best.td ?? 0n)) best = s;
    }
    return best;
  }

  /** One run against `peer`; true if our head moved. */
  private async syncWith(peer: EthSession): Promise<boolean> {
    const chain = this.#opts.chain;
    const startHead = chain.getHead();
    const target = await this.targetHeader(peer);
    if (target === undefined) return false;
    const ancestor = await this.commonAncestor(peer, target.number);
    // Following the tip (a block or two behind) is routine; only a real catch-up is worth an info line.
    const catchUp = target.number - ancestor > 32n;
    const log = catchUp ? this.#opts.log.info.bind(this.#opts.log) : this.#opts.log.debug.bind(this.#opts.log);
    log('sync started', { peer: peerName(peer), from: ancestor.toString(), target: target.number.toString() });
    this.setProgress({
      startingBlock: startHead.header.number,
      currentBlock: chain.getHead().header.number,
      highestBlock: target.number,
    });
    // A catch-up also logs where it is, how fast it goes and when it should end, at a steady rate until it stops.
    const imported = () => {
      const head = chain.getHead().header.number;
      return head > ancestor ? Number(head - ancestor) : 0;
    };
    const progress = catchUp
      ? new ProgressLog({
          log: this.#opts.log,
          message: 'sync progress',
          unit: 'blocks',
          total: Number(target.number - ancestor),
          ...(this.#opts.progressIntervalMs !== undefined ? { intervalMs: this.#opts.progressIntervalMs } : {}),
          fields: () => ({
            peer: peerName(peer),
            head: chain.getHead().header.number.toString(),
            target: target.number.toString(),
          }),
        }).start()
      : undefined;
    try {
      let next = ancestor + 1n;
      let batch = next <= target.number ? this.fetchBatch(peer, next, target.number) : undefined;
      while (batch !== undefined) {
        const blocks = await batch;
        // The batch's seals (headers and uncles) on worker threads at once, instead of one by one as each imports.
        await chain.preverifySeals?.(blocks);
        next += BigInt(blocks.length);
        // Fetch ahead while this batch is imported.
        batch = next <= target.number && blocks.length > 0 ? this.fetchBatch(peer, next, target.number) : undefined;
        batch?.catch(() => undefined);
        for (const block of blocks) {
          await this.importFrom(peer, block);
          progress?.update(imported());
        }
        this.setProgress({
          startingBlock: startHead.header.number,
          currentBlock: chain.getHead().header.number,
          highestBlock: target.number,
        });
        if (blocks.length === 0) break;
      }
    } finally {
      progress?.stop();
    }
    const head = chain.getHead();
    log('sync reached target', {
      peer: peerName(peer),
      head: head.header.number.toString(),
      hash: bytesToHex(head.hash()),
    });
    return !equalsBytes(head.hash(), startHead.hash());
  }

  private async targetHeader(peer: EthSession): Promise<BlockHeader | undefined> {
    // Held here: an announcement may move the peer's best block while the request is out.
    const bestHash = peer.bestHash;
    if (bestHash === null) return undefined;
    const [raw] = await peer.getBlockHeaders({ origin: bestHash, amount: 1, skip: 0, reverse: false });
    if (raw === undefined) return undefined;
    const header = this.decodeHeader(peer, raw);
    if (!equalsBytes(header.hash(), bestHash))
      throw this.bad(peer, 'answered its best-block request with another header');
    if (peer.bestNumber === null || header.number > peer.bestNumber) peer.bestNumber = header.number;
    return header;
  }

  /** The highest block number at which the peer's canonical chain holds a block we have stored. */
  private async commonAncestor(peer: EthSession, peerHead: bigint): Promise<bigint> {
    const chain = this.#opts.chain;
    let top = chain.getHead().header.number < peerHead ? chain.getHead().header.number : peerHead;
    while (top > 0n) {
      const amount = top + 1n < BigInt(ANCESTOR_BATCH) ? Number(top + 1n) : ANCESTOR_BATCH;
      const raws = await peer.getBlockHeaders({ origin: top, amount, skip: 0, reverse: true });
      if (raws.length === 0) throw new UselessPeer('returned no headers below its head');
      for (const raw of raws) {
        const header = this.decodeHeader(peer, raw);
        if ((await chain.getHeader(header.hash())) !== undefined) return header.number;
      }
      top -= BigInt(raws.length);
    }
    return 0n; // the genesis, which the STATUS check proved we share
  }

  /** Headers from `from` (at most HEADER_BATCH, not past `last`) with their bodies, as blocks. */
  private async fetchBatch(peer: EthSession, from: bigint, last: bigint): Promise<Block[]> {
    const remaining = last - from + 1n;
    const amount = remaining < BigInt(HEADER_BATCH) ? Number(remaining) : HEADER_BATCH;
    const raws = await peer.getBlockHeaders({ origin: from, amount, skip: 0, reverse: false });
    const headers = raws.map((raw) => ({ raw, header: this.decodeHeader(peer, raw) }));
    for (let i = 0; i < headers.length; i++) {
      const { header } = headers[i]!;
      if (header.number !== from + BigInt(i))
        throw this.bad(peer, `sent header ${header.number} where ${from + BigInt(i)} was asked for`);
      if (i > 0 && !equalsBytes(header.parentHash, headers[i - 1]!.header.hash()))
        throw this.bad(peer, `sent headers that do not chain at ${header.number}`);
    }
    const bodies = new Map<number, RawBody>();
    const wanted = headers
      .map((h, i) => ({ i, h: h.header }))
      .filter(({ i, h }) => {
        if (bytesToHex(h.transactionsTrie) === EMPTY_TRIE_ROOT && bytesToHex(h.uncleHash) === EMPTY_UNCLE_HASH) {
          bodies.set(i, { txs: [], uncles: [] });
          return false;
        }
        return true;
      });
    while (wanted.length > 0) {
      const chunk = wanted.slice(0, BODY_BATCH);
      const got = await peer.getBlockBodies(chunk.map(({ h }) => h.hash()));
      if (got.length === 0) throw new UselessPeer('returned no block bodies');
      got.forEach((body, k) => {
        bodies.set(chunk[k]!.i, body);
      });
      wanted.splice(0, got.length);
    }
    return headers.map(({ raw }, i) => {
      const body = bodies.get(i)!;
      try {
        return this.#opts.chain.decodeBlockValues(raw, body.txs, body.uncles);
      } catch (err) {
        throw this.bad(peer, `sent an undecodable body for block ${from + BigInt(i)}: ${(err as Error).message}`);
      }
    });
  }

  /** Imports one block from `peer`; an invalid block marks the peer bad. */
  async importFrom(peer: EthSession, block: Block): Promise<void> {
    try {
      await this.#opts.chain.importBlock(block);
      peer.knownBlocks.add(bytesToHex(block.hash()));
    } catch (err) {
      if (err instanceof BlockImportError && err.failure !== 'unknown-parent')
        throw this.bad(peer, `sent invalid block ${block.header.number}: ${err.message}`);
      throw err;
    }
  }

  private decodeHeader(peer: EthSession, raw: RawHeader): BlockHeader {
    try {
      return this.#opts.chain.decodeHeaderValues(raw);
    } catch (err) {
      throw this.bad(peer, `sent an undecodable header: ${(err as Error).message}`);
    }
  }

  private bad(peer: EthSession, reason: string): Error {
    this.#opts.onBadPeer(peer, reason);
    return new UselessPeer(reason);
  }

  private setProgress(progress: SyncProgress | null): void {
    const was = this.#progress;
    this.#progress = progress;
    if (was === null && progress === null) return;
    const event: SyncEvent = progress === null ? { syncing: false } : { syncing: true, status: progress };
    for (const l of this.#listeners) l(event);
  }
}

export function peerName(s: EthSession): string {
  const id = s.link.remoteId;
  return id ? bytesToHex(id).slice(2, 18) : 'unknown';
}
