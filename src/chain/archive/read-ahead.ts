/**
 * The history import's read-ahead: a bounded window of blocks read from the file ahead of execution, whose seals
 * (and transaction senders) are being checked on worker threads while earlier blocks execute. The file is read in
 * the background (I/O and unframing); blocks are decoded on the importing thread when it asks for the next one, in
 * chunks, and each chunk's seals go to the seal workers at once, so the workers have queued work while the main
 * thread executes. A block is handed out only once its chunk's seal verdicts are in (the importer then uses them;
 * a block without one is checked at its import). The window is owned by one import: `close` stops the reading and
 * drops what it holds, the verdicts of blocks that will not be imported included.
 */
import type { Block } from '@ethereumjs/block';

export interface ReadAheadOptions<S> {
  /** The file's blocks in order (its `return` is called on close). */
  readonly source: AsyncGenerator<S>;
  /** A source block to a block (on the importing thread, timed as decoding); throws to fail the import. */
  readonly decode: (source: S) => Block;
  /** Starts the checks of these blocks (seals, senders); the block is handed out once it settles. */
  readonly check: (blocks: readonly Block[]) => Promise<void>;
  /** Drops what `check` left for blocks that will not be imported. */
  readonly forget: (blocks: readonly Block[]) => void;
  /** Blocks read or decoded and not handed out, at most (default 512). */
  readonly window?: number;
  /** Blocks per check (default 64); the first chunks are smaller, so execution starts soon. */
  readonly chunk?: number;
}

/** Main-thread time of the read-ahead's consumer, in ms: decoding, and waiting for checks or for the file. */
export interface ReadAheadTimes {
  decodeMs: number;
  sealWaitMs: number;
  readWaitMs: number;
}

interface Chunk {
  readonly blocks: Block[];
  checked: Promise<void>;
  settled: boolean;
  taken: number;
}

const FIRST_CHUNK = 8;

export class ReadAhead<S> {
  readonly times: ReadAheadTimes = { decodeMs: 0, sealWaitMs: 0, readWaitMs: 0 };
  private readonly window: number;
  private readonly chunkSize: number;
  private nextChunkSize = FIRST_CHUNK;
  /** Read from the file, not decoded yet. */
  private readonly raw: S[] = [];
  private readonly chunks: Chunk[] = [];
  /** Decoded and not yet in a chunk. */
  private pending: Block[] = [];
  private ended = false;
  /** The file's or a block's failure: thrown once the blocks before it are handed out. */
  private failure: { readonly error: unknown } | undefined;
  private closed = false;
  /** A block could not be decoded: nothing after it is read or decoded. */
  private halted = false;
  /** The consumer waits for checks: the reader decodes and submits what it reads (the workers get more work). */
  private waitingForChecks = false;
  private wakeReader: (() => void) | undefined;
  private wakeConsumer: (() => void) | undefined;
  private readonly reading: Promise<void>;

  constructor(private readonly opts: ReadAheadOptions<S>) {
    this.window = Math.max(1, opts.window ?? 512);
    this.chunkSize = Math.max(1, opts.chunk ?? 64);
    this.reading = this.read();
  }

  /** Blocks read or decoded and not handed out. */
  get held(): number {
    return this.raw.length + this.pending.length + this.chunks.reduce((n, c) => n + c.blocks.length - c.taken, 0);
  }

  /** The next block, once its checks are done; undefined at the end of the file. */
  async next(): Promise<Block | undefined> {
    for (;;) {
      this.topUp();
      const head = this.chunks[0];
      if (head !== undefined) {
        if (!head.settled) {
          // Meanwhile the reader decodes what it reads and starts its checks (timed as decoding, not waiting).
          const waiting = performance.now();
          const decoded = this.times.decodeMs;
          this.waitingForChecks = true;
          await head.checked;
          this.waitingForChecks = false;
          this.times.sealWaitMs += performance.now() - waiting - (this.times.decodeMs - decoded);
        }
        const block = head.blocks[head.taken++];
        if (head.taken === head.blocks.length) this.chunks.shift();
        this.wakeReader?.();
        return block;
      }
      if (this.failure !== undefined) throw this.failure.error;
      if (this.ended) return undefined;
      const waiting = performance.now();
      await new Promise<void>((resolve) => {
        this.wakeConsumer = resolve;
      });
      this.times.readWaitMs += performance.now() - waiting;
    }
  }

  /**
   * Stops reading and drops every block held; the verdicts of blocks whose checks are still under way are dropped
   * when those checks end (the workers cannot be interrupted mid-batch).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wakeReader?.();
    this.raw.length = 0;
    this.pending = [];
    for (const chunk of this.chunks.splice(0)) {
      const left = chunk.blocks.slice(chunk.taken);
      if (chunk.settled) this.opts.forget(left);
      else void chunk.checked.then(() => this.opts.forget(left));
    }
    await this.reading;
  }

  /** Decodes what was read and starts the checks of each full chunk, and of the rest when nothing else waits. */
  private topUp(): void {
    while (this.raw.length > 0 && !this.halted) {
      const source = this.raw.shift() as S;
      const started = performance.now();
      try {
        this.pending.push(this.opts.decode(source));
      } catch (error) {
        // Nothing after a block that cannot be decoded is imported; the blocks before it are.
        this.failure = { error };
        this.halted = true;
        this.raw.length = 0;
      }
      this.times.decodeMs += performance.now() - started;
      if (this.pending.length >= this.nextChunkSize) this.submit();
    }
    if (this.pending.length > 0 && (this.chunks.length === 0 || this.ended || this.failure !== undefined))
      this.submit();
  }

  private submit(): void {
    const chunk: Chunk = { blocks: this.pending, checked: Promise.resolve(), settled: false, taken: 0 };
    this.pending = [];
    this.nextChunkSize = Math.min(this.chunkSize, this.nextChunkSize * 2);
    const settle = () => {
      chunk.settled = true;
    };
    // A check that could not run leaves no verdicts: each seal is then checked at the block's import.
    chunk.checked = this.opts.check(chunk.blocks).then(settle, settle);
    this.chunks.push(chunk);
  }

  private async read(): Promise<void> {
    const { source } = this.opts;
    try {
      while (!this.closed && !this.halted) {
        if (this.held >= this.window) {
          await new Promise<void>((resolve) => {
            this.wakeReader = resolve;
          });
          this.wakeReader = undefined;
          continue;
        }
        const item = await source.next();
        if (item.done) break;
        if (this.closed || this.halted) break;
        this.raw.push(item.value);
        if (this.waitingForChecks) this.topUp();
        this.wakeConsumer?.();
        this.wakeConsumer = undefined;
      }
    } catch (error) {
      this.failure ??= { error };
    } finally {
      this.ended = true;
      this.wakeConsumer?.();
      this.wakeConsumer = undefined;
      await source.return(undefined).catch(() => undefined);
    }
  }
}
