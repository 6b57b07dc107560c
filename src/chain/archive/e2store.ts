/**
 * e2store, the container of era and era1 files: a sequence of entries `type(2) | length(4, LE) | reserved(2) |
 * data`. Read entry by entry from an open file, so a file of hundreds of megabytes is never held whole.
 */
import type { FileHandle } from 'node:fs/promises';

export const E2_HEADER_BYTES = 8;

export interface E2Entry {
  /** The two type bytes read as a little-endian number (era1's header entry, bytes 03 00, is 0x0003). */
  readonly type: number;
  /** Where the entry (its 8-byte header) starts in the file. */
  readonly offset: number;
  readonly data: Uint8Array;
}

export class E2StoreError extends Error {}

/** Bytes read from the file at a time: entries are small (a compressed header is ~500 bytes), reads are not. */
const READ_AHEAD = 1 << 20;

/** The entries of `file` from `offset` on, one at a time, read through a window of READ_AHEAD bytes. */
export async function* readEntries(file: FileHandle, size: number, offset = 0): AsyncGenerator<E2Entry> {
  let window = new Uint8Array(0);
  let windowAt = offset;
  /** Makes the window cover [at, at + length). */
  const cover = async (at: number, length: number) => {
    if (at >= windowAt && at + length <= windowAt + window.length) return;
    const want = Math.min(size - at, Math.max(length, READ_AHEAD));
    window = new Uint8Array(want);
    windowAt = at;
    await readFully(file, window, at);
  };
  while (offset < size) {
    if (offset + E2_HEADER_BYTES > size) throw new E2StoreError(`truncated entry header at byte ${offset}`);
    await cover(offset, E2_HEADER_BYTES);
    const h = offset - windowAt;
    const type = window[h] | (window[h + 1] << 8);
    const length = (window[h + 2] | (window[h + 3] << 8) | (window[h + 4] << 16) | (window[h + 5] << 24)) >>> 0;
    if (window[h + 6] !== 0 || window[h + 7] !== 0)
      throw new E2StoreError(`entry at byte ${offset}: reserved bytes are not zero`);
    const start = offset + E2_HEADER_BYTES;
    if (start + length > size) throw new E2StoreError(`entry at byte ${offset} runs past the end of the file`);
    await cover(start, length);
    const data = window.subarray(start - windowAt, start - windowAt + length);
    yield { type, offset, data };
    offset = start + length;
  }
}

async function readFully(file: FileHandle, into: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await file.read(into, done, into.length - done, position + done);
    if (bytesRead === 0) throw new E2StoreError(`unexpected end of file at byte ${position + done}`);
    done += bytesRead;
  }
}
