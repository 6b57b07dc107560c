/**
 * Snappy's framing format (the "sNaPpY" stream that era1 entries hold): a stream identifier, then chunks of
 * `type(1) | length(3, LE) | data`. Compressed (0x00) and uncompressed (0x01) chunks start with the masked CRC-32C
 * of their uncompressed bytes, checked here, because a flipped bit in a history file must not reach the chain as
 * a "bad block". snappyjs does the raw block format only, so the framing is read here.
 */
import * as snappy from 'snappyjs';

const STREAM_ID = 0xff;
const COMPRESSED = 0x00;
const UNCOMPRESSED = 0x01;
const MAGIC = new TextEncoder().encode('sNaPpY');
/** The format's bound on one chunk's uncompressed bytes. */
const MAX_CHUNK = 65_536;

export class SnappyFrameError extends Error {}

/** The bytes a snappy frame stream holds; throws SnappyFrameError for a malformed or corrupted stream. */
export function unframeSnappy(input: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  let offset = 0;
  let sawId = false;
  while (offset < input.length) {
    if (offset + 4 > input.length) throw new SnappyFrameError('truncated chunk header');
    const type = input[offset];
    const length = input[offset + 1] | (input[offset + 2] << 8) | (input[offset + 3] << 16);
    const start = offset + 4;
    const end = start + length;
    if (end > input.length) throw new SnappyFrameError('truncated chunk');
    const body = input.subarray(start, end);
    offset = end;
    if (type === STREAM_ID) {
      if (length !== MAGIC.length || !MAGIC.every((b, i) => body[i] === b))
        throw new SnappyFrameError('bad stream identifier');
      sawId = true;
      continue;
    }
    if (!sawId) throw new SnappyFrameError('no stream identifier before the first chunk');
    if (type === COMPRESSED || type === UNCOMPRESSED) {
      if (length < 4) throw new SnappyFrameError('chunk shorter than its checksum');
      const data = type === COMPRESSED ? snappy.uncompress(body.subarray(4), MAX_CHUNK) : body.subarray(4);
      if (data.length > MAX_CHUNK) throw new SnappyFrameError('chunk over 65,536 bytes');
      const stored = (body[0] | (body[1] << 8) | (body[2] << 16) | (body[3] << 24)) >>> 0;
      if (stored !== maskedCrc32c(data)) throw new SnappyFrameError('checksum mismatch');
      parts.push(data);
      total += data.length;
    } else if (type <= 0x7f) {
      throw new SnappyFrameError(`reserved unskippable chunk type 0x${type.toString(16)}`);
    }
    // 0x80–0xfe: skippable chunks, padding (0xfe) among them.
  }
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32c(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = CRC32C_TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The framing format stores CRCs rotated and offset, so that a CRC over data holding CRCs stays useful. */
export function maskedCrc32c(data: Uint8Array): number {
  const crc = crc32c(data);
  return (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0;
}
