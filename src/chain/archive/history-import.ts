/**
 * `svc-node import`: history files (era1, RLP streams) through the chain's normal import path, block by block
 * (seal, header, body, execution, state root, receipts root), so an imported block is held to the same rules as one
 * from a peer. A bounded read-ahead (read-ahead.ts) reads and decodes blocks ahead of execution and has their seals
 * and transaction senders checked on worker threads meanwhile; every seal has its verdict before its block is
 * stored (one without a verdict is checked at import). Blocks the chain
 * already holds are skipped, so a stopped import re-run continues where it stopped; a stop request is honoured
 * between blocks, where the database is always at a consistent head (each block is one atomic batch).
 */
import type { Block } from '@ethereumjs/block';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { Blockchain } from '../blockchain/blockchain.js';
import { BlockImportError } from '../import/import-error.js';
import { ProgressLog, type ProgressLogger } from '../base/progress-log.js';
import { importTimesSince, type ImportTimesSnapshot } from '../import/import-times.js';
import { AheadSenders } from './ahead-senders.js';
import { type HistoryFile, openHistoryFile, type SourceBlock } from './block-sources.js';
import { Era1CheckError } from './era1.js';
import { ReadAhead, type ReadAheadOptions } from './read-ahead.js';

export interface HistoryImportOptions {
  readonly chain: Blockchain;
  readonly files: readonly string[];
  readonly log: ProgressLogger;
  /** Aborted: stop after the block being imported. */
  readonly signal?: AbortSignal;
  /** ms between progress lines (default 5 s). */
  readonly progressIntervalMs?: number;
  /** The read-ahead's window and chunk (blocks); defaults in read-ahead.ts. */
  readonly readAhead?: Pick<ReadAheadOptions<unknown>, 'window' | 'chunk'>;
  /** Told each file's read-ahead as it starts (tests watch it being released). */
  readonly onReadAhead?: (ahead: { readonly held: number }) => void;
  /** Every file opened (an era1's frame and index; its accumulator is checked as it is read): the import starts next. */
  readonly onFilesChecked?: () => void;
}

/**
 * Where the importing thread's time went, in ms of wall time: decoding (on this thread), waiting for seal (and
 * sender) checks of the read-ahead, waiting for the file, and the import steps; `otherMs` is the rest (the file's
 * reading and unframing, progress lines, the event loop's idle turns between them).
 */
export interface HistoryImportTimes extends Omit<ImportTimesSnapshot, 'blocks'> {
  readonly decodeMs: number;
  readonly sealWaitMs: number;
  readonly readWaitMs: number;
  readonly otherMs: number;
}

export interface HistoryImportOutcome {
  readonly imported: number;
  /** Blocks the chain already held. */
  readonly skipped: number;
  readonly gasUsed: bigint;
  readonly seconds: number;
  /** True when a stop request ended the import early. */
  readonly stopped: boolean;
  readonly head: Block;
  readonly times: HistoryImportTimes;
}

/** A history file's block that the chain refused (its number, hash and reason), or a file that cannot be read. */
export class HistoryImportError extends Error {}

export async function importHistory(opts: HistoryImportOptions): Promise<HistoryImportOutcome> {
  const { chain, log } = opts;
  const opened: HistoryFile[] = [];
  let run: ImportRun | undefined;
  try {
    for (const path of opts.files) opened.push(await openOrExplain(path, chain));
    opts.onFilesChecked?.();
    run = new ImportRun(
      chain,
      opts,
      opened.reduce((sum, f) => sum + f.count, 0),
    );
    for (const file of opened) {
      log.info('importing history file', { file: file.path, format: file.format, blocks: file.count });
      if (!(await run.importFile(file))) break;
    }
    return run.outcome();
  } finally {
    await run?.stop();
    for (const f of opened) await f.close().catch(() => undefined);
  }
}

async function openOrExplain(path: string, chain: Blockchain): Promise<HistoryFile> {
  try {
    return await openHistoryFile(path, chain);
  } catch (err) {
    throw new HistoryImportError((err as Error).message);
  }
}

class ImportRun {
  private imported = 0;
  private skipped = 0;
  private gasUsed = 0n;
  private gasAtTick = 0n;
  private tickAt = performance.now();
  private stopped = false;
  private lastNumber = 0n;
  /** The last block read from the current file (its total difficulty is checked at the file's end). */
  private last: SourceBlock | undefined;
  private readonly progress: ProgressLog;
  private readonly started = performance.now();
  private readonly timesAtStart: ImportTimesSnapshot;
  private readonly readAheads: ReadAhead<SourceBlock>[] = [];
  private readonly senders = new AheadSenders();

  constructor(
    private readonly chain: Blockchain,
    private readonly opts: HistoryImportOptions,
    total: number,
  ) {
    this.timesAtStart = chain.importTimes();
    this.progress = new ProgressLog({
      log: opts.log,
      message: 'import progress',
      total,
      unit: 'blocks',
      intervalMs: opts.progressIntervalMs ?? 5_000,
      fields: () => ({ number: this.lastNumber.toString(), mgasPerSecond: this.mgasSinceTick() }),
    }).start();
  }

  /** False when the import stopped (a stop request) and later files must not start. */
  async importFile(file: HistoryFile): Promise<boolean> {
    const chain = this.chain;
    const ahead = new ReadAhead({
      source: this.unknownBlocks(file),
      decode: (source: SourceBlock) => this.decode(source, file),
      check: (blocks) => Promise.all([chain.preverifySeals(blocks), this.senders.recoverAhead(blocks)]).then(() => {}),
      forget: (blocks) => chain.forgetSeals(blocks),
      ...(this.opts.readAhead ?? {}),
    });
    this.readAheads.push(ahead);
    this.opts.onReadAhead?.(ahead);
    const headBefore = chain.getHead().header.number;
    try {
      for (;;) {
        if (this.opts.signal?.aborted) {
          this.stopped = true;
          return false;
        }
        const block = await ahead.next().catch((err) => this.undoFile(err, headBefore));
        if (block === undefined) break;
        await this.importOne(block, file.path);
      }
      if (this.last?.totalDifficulty !== undefined) await this.checkTotalDifficulty(file, this.last);
      return true;
    } finally {
      await ahead.close();
    }
  }

  /**
   * An era1 file's accumulator is known wrong only once all its headers are read, after its blocks were imported
   * (the check rides on the import's own read of the file): its blocks leave the canonical chain before the failure
   * is told, so a wrong file never leaves a head behind.
   */
  private async undoFile(err: unknown, headBefore: bigint): Promise<never> {
    if (!(err instanceof Era1CheckError)) throw err;
    const head = this.chain.getHead().header.number;
    if (head <= headBefore) throw new HistoryImportError(err.message);
    await this.chain.rewindTo(headBefore);
    throw new HistoryImportError(
      `${err.message}; its blocks ${headBefore + 1n}–${head} were taken back off the chain (head ${headBefore})`,
    );
  }

  /** The file's blocks the chain does not hold yet (from the head's child where the file has an index). */
  private async *unknownBlocks(file: HistoryFile): AsyncGenerator<SourceBlock> {
    this.last = undefined;
    const from = this.chain.getHead().header.number + 1n;
    if (file.startNumber !== undefined && from > file.startNumber) {
      // Blocks up to the head are not even read: an indexed file starts at the head's child.
      const end = file.startNumber + BigInt(file.count);
      this.skipped += Number((from < end ? from : end) - file.startNumber);
      this.progress.update(this.imported + this.skipped);
    }
    for await (const source of file.blocks(from)) {
      if (await this.isKnown(source)) {
        this.skipped++;
        this.progress.update(this.imported + this.skipped);
        continue;
      }
      this.last = source;
      yield source;
    }
  }

  private decode(source: SourceBlock, file: HistoryFile): Block {
    try {
      return source.decode();
    } catch (err) {
      throw new HistoryImportError(
        `${file.path}: block ${source.number} ${bytesToHex(source.hash)} cannot be decoded: ${(err as Error).message}`,
      );
    }
  }

  private async isKnown(source: SourceBlock): Promise<boolean> {
    // Nothing above the head is canonical: a fresh import reads no canonical hash per block.
    if (source.number > this.chain.getHead().header.number) return false;
    const canonical = await this.chain.getCanonicalHash(source.number);
    return canonical !== undefined && equalsBytes(canonical, source.hash);
  }

  private async importOne(block: Block, path: string): Promise<void> {
    try {
      await this.chain.importBlock(block, { fromHistory: true });
    } catch (err) {
      if (!(err instanceof BlockImportError)) throw err;
      throw new HistoryImportError(err.failure === 'unknown-parent' ? this.whyNoParent(block, path) : err.message);
    }
    this.imported++;
    this.gasUsed += block.header.gasUsed;
    this.lastNumber = block.header.number;
    this.progress.update(this.imported + this.skipped);
    // The first block waited for its Ethash cache (~30 s on a cold datadir): the ETA's pace starts after it.
    if (this.imported === 1) this.progress.markPaceStart();
  }

  /**
   * "unknown parent" tells an operator nothing: either the file starts past this chain's head (an earlier file is
   * missing) or it holds another chain (another network, or dev's other seal mode), which its genesis shows at once.
   */
  private whyNoParent(block: Block, path: string): string {
    const { number, parentHash } = block.header;
    const at = `${path}: block ${number} ${bytesToHex(block.hash())}`;
    const otherChain = 'the file holds another chain (another --network, or the dev chain of the other --seal mode)';
    if (number === 0n)
      return `${at} is not this chain's genesis ${bytesToHex(this.chain.getGenesis().hash())}: ${otherChain}`;
    const head = this.chain.getHead().header.number;
    if (number > head + 1n)
      return `${at}: its parent, block ${number - 1n}, is not stored (this chain's head is ${head}): import the blocks before it first`;
    return `${at}: its parent ${bytesToHex(parentHash)} is not this chain's block ${number - 1n}: ${otherChain}`;
  }

  /** The file's total difficulty for its last block, against the chain's (a wrong total is a wrong chain). */
  private async checkTotalDifficulty(file: HistoryFile, last: SourceBlock): Promise<void> {
    const td = await this.chain.getTotalDifficulty(last.hash);
    if (td !== undefined && td !== last.totalDifficulty) {
      throw new HistoryImportError(
        `${file.path}: block ${last.number} ${bytesToHex(last.hash)}: total difficulty ${td} on the chain, ` +
          `${last.totalDifficulty} in the file`,
      );
    }
  }

  private mgasSinceTick(): number {
    const now = performance.now();
    const seconds = (now - this.tickAt) / 1000;
    const mgas = Number(this.gasUsed - this.gasAtTick) / 1e6;
    this.tickAt = now;
    this.gasAtTick = this.gasUsed;
    return seconds > 0 ? Math.round((mgas / seconds) * 100) / 100 : 0;
  }

  async stop(): Promise<void> {
    this.progress.stop();
    await this.senders.close();
  }

  outcome(): HistoryImportOutcome {
    const wallMs = performance.now() - this.started;
    const steps = importTimesSince(this.timesAtStart, this.chain.importTimes());
    const sum = (key: 'decodeMs' | 'sealWaitMs' | 'readWaitMs') =>
      this.readAheads.reduce((ms, a) => ms + a.times[key], 0);
    const times = {
      decodeMs: sum('decodeMs'),
      sealWaitMs: sum('sealWaitMs'),
      readWaitMs: sum('readWaitMs'),
      validateMs: steps.validateMs,
      executeMs: steps.executeMs,
      storeMs: steps.storeMs,
    };
    const otherMs = wallMs - Object.values(times).reduce((a, b) => a + b, 0);
    return {
      times: { ...times, otherMs },
      imported: this.imported,
      skipped: this.skipped,
      gasUsed: this.gasUsed,
      seconds: (performance.now() - this.started) / 1000,
      stopped: this.stopped,
      head: this.chain.getHead(),
    };
  }
}
