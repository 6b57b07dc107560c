/**
 * RLP block streams as geth's `import`/`export` use them: blocks' RLP one after another, nothing between them,
 * gzip-compressed when the file name ends in `.gz` (or, when reading, when the file starts with gzip's magic).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';
import { fileProblem } from '../base/file-problem.js';

/** What ENOENT means when a file is written: the directory it goes in is not there. */
const MISSING_DIR = 'its directory does not exist';

export class RlpStreamError extends Error {}

/** Whether the file starts with gzip's two magic bytes. */
export async function isGzip(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await file.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await file.close();
  }
}

/**
 * The most bytes one block's RLP may declare. A real ETC block is far smaller (an 8M-gas block holds at most ~2 MiB
 * of calldata; 32 MiB would take a block of ~128M gas of zero bytes), and without a cap a corrupt or hostile length
 * prefix makes the reader wait for, and buffer, up to 4 GiB before it can say anything.
 */
export const MAX_BLOCK_BYTES = 32 * 1024 * 1024;

/**
 * The total length (prefix + payload) of the RLP list starting at `prefix`'s first byte, or undefined while the
 * prefix is incomplete (`prefix` holds up to 9 bytes, fewer near the end of what has arrived).
 */
function itemLength(prefix: Uint8Array, where: () => string): number | undefined {
  const first = prefix[0];
  if (first < 0xc0)
    throw new RlpStreamError(`${where()}: byte ${first.toString(16)} does not start an RLP list (a block)`);
  if (first <= 0xf7) return 1 + first - 0xc0;
  const lenBytes = first - 0xf7;
  if (prefix.length < 1 + lenBytes) return undefined;
  let length = 0;
  for (let i = 1; i <= lenBytes; i++) length = length * 256 + prefix[i];
  return 1 + lenBytes + length;
}

/**
 * The bytes read but not yet handed out, kept as the chunks they arrived in with a running length: an item is
 * copied out once, when all of it has arrived (an item inside one chunk is not copied at all), so reading is linear
 * in the stream's size however large an item is.
 */
class ChunkQueue {
  private readonly chunks: Uint8Array[] = [];
  /** Bytes of chunks[0] already handed out. */
  private head = 0;
  /** Bytes held after `head`. */
  length = 0;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** Up to `n` bytes from the front, without taking them. */
  peek(n: number): Uint8Array {
    const first = this.chunks[0];
    if (first !== undefined && first.length - this.head >= n) return first.subarray(this.head, this.head + n);
    return this.copy(Math.min(n, this.length), false);
  }

  /** Exactly `n` bytes from the front (n <= length). */
  take(n: number): Uint8Array {
    const first = this.chunks[0];
    if (first.length - this.head >= n) {
      const out = first.subarray(this.head, this.head + n);
      this.advance(n);
      return out;
    }
    return this.copy(n, true);
  }

  private copy(n: number, consume: boolean): Uint8Array {
    const out = new Uint8Array(n);
    let filled = 0;
    for (let i = 0; filled < n; i++) {
      const part = this.chunks[i].subarray(i === 0 ? this.head : 0);
      const want = Math.min(part.length, n - filled);
      out.set(part.subarray(0, want), filled);
      filled += want;
    }
    if (consume) this.advance(n);
    return out;
  }

  private advance(n: number): void {
    this.length -= n;
    let left = n;
    while (left > 0) {
      const rest = this.chunks[0].length - this.head;
      if (left < rest) {
        this.head += left;
        return;
      }
      left -= rest;
      this.chunks.shift();
      this.head = 0;
    }
  }
}

/**
 * Each block's RLP from an RLP stream file, in order. A block whose length prefix declares more than
 * `maxBlockBytes` is refused as soon as its prefix is read, by its index and offset in the (uncompressed) stream.
 */
export async function* readRlpBlocks(path: string, maxBlockBytes = MAX_BLOCK_BYTES): AsyncGenerator<Uint8Array> {
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  const source = (await isGzip(path)) ? raw.pipe(createGunzip()) : raw;
  const pending = new ChunkQueue();
  let offset = 0;
  let index = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      pending.push(chunk);
      while (pending.length > 0) {
        const where = () => `${path}: block ${index} (at byte ${offset} of the stream)`;
        const length = itemLength(pending.peek(9), where);
        if (length === undefined) break;
        if (length > maxBlockBytes) {
          throw new RlpStreamError(
            `${where()} declares ${length} bytes, over the cap of ` +
              `${maxBlockBytes} bytes on one block (MAX_BLOCK_BYTES, src/chain/archive/rlp-blocks.ts): the file is corrupt`,
          );
        }
        if (pending.length < length) break;
        yield pending.take(length);
        offset += length;
        index++;
      }
    }
  } catch (err) {
    if (err instanceof RlpStreamError) throw err;
    throw new RlpStreamError(`${path}: ${(err as Error).message}`);
  } finally {
    raw.destroy();
  }
  if (pending.length > 0) throw new RlpStreamError(`${path} ends inside a block (${pending.length} bytes left over)`);
}

/** A writer of an RLP stream file; gzip when `path` ends in `.gz`. */
export class RlpBlockWriter {
  /** The first error of the file or the gzip stream: an unlistened stream error would end the process. */
  private failure: Error | undefined;

  private constructor(
    private readonly path: string,
    private readonly file: NodeJS.WritableStream,
    private readonly sink: NodeJS.WritableStream,
  ) {
    const keep = (err: Error) => {
      this.failure ??= err;
    };
    file.on('error', keep);
    if (sink !== file) sink.on('error', keep);
  }

  /** Opens (creates or truncates) `path` first, so a path that cannot be written is one sentence, not a crash. */
  static async create(path: string): Promise<RlpBlockWriter> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(path, 'w');
    } catch (err) {
      throw new RlpStreamError(`cannot write ${path}: ${fileProblem(err, MISSING_DIR)}`);
    }
    const file = handle.createWriteStream();
    if (!path.endsWith('.gz')) return new RlpBlockWriter(path, file, file);
    const gzip = createGzip();
    gzip.pipe(file);
    return new RlpBlockWriter(path, file, gzip);
  }

  async write(rlp: Uint8Array): Promise<void> {
    this.check();
    if (!this.sink.write(rlp)) await once(this.sink, 'drain');
    this.check();
  }

  async close(): Promise<void> {
    const done = once(this.file, 'close');
    this.sink.end();
    await done.catch(() => undefined);
    this.check();
  }

  private check(): void {
    if (this.failure !== undefined)
      throw new RlpStreamError(`cannot write ${this.path}: ${fileProblem(this.failure, MISSING_DIR)}`);
  }
}
