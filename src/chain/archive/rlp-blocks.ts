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

/** The total length (prefix + payload) of the RLP list starting at `at`, or undefined if the prefix is incomplete. */
function itemLength(buf: Uint8Array, at: number, available: number): number | undefined {
  const prefix = buf[at];
  if (prefix < 0xc0) throw new RlpStreamError(`byte ${prefix.toString(16)} does not start an RLP list (a block)`);
  if (prefix <= 0xf7) return 1 + prefix - 0xc0;
  const lenBytes = prefix - 0xf7;
  if (available < 1 + lenBytes) return undefined;
  let length = 0;
  for (let i = 1; i <= lenBytes; i++) length = length * 256 + buf[at + i];
  return 1 + lenBytes + length;
}

/** Each block's RLP from an RLP stream file, in order. */
export async function* readRlpBlocks(path: string): AsyncGenerator<Uint8Array> {
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  const source = (await isGzip(path)) ? raw.pipe(createGunzip()) : raw;
  let pending: Uint8Array = new Uint8Array(0);
  let consumed = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      pending = pending.length === consumed ? chunk : concat(pending.subarray(consumed), chunk);
      consumed = 0;
      while (consumed < pending.length) {
        const length = itemLength(pending, consumed, pending.length - consumed);
        if (length === undefined || consumed + length > pending.length) break;
        yield pending.subarray(consumed, consumed + length);
        consumed += length;
      }
    }
  } catch (err) {
    if (err instanceof RlpStreamError) throw err;
    throw new RlpStreamError(`${path}: ${(err as Error).message}`);
  } finally {
    raw.destroy();
  }
  if (consumed < pending.length)
    throw new RlpStreamError(`${path} ends inside a block (${pending.length - consumed} bytes left over)`);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
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
