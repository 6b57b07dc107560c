/**
 * RFC 6455 §5.2 framing as a server writes it (a single unmasked, final text frame per message: what the `ws`
 * library sends for these messages; it does not expose its framing helper in its types), and subscription
 * notifications framed once for all their subscribers.
 *
 * A head change sends every subscriber of the same criteria the same results, one `eth_subscription`
 * notification each, differing only in the subscription id. `framedNotifications` lays those frames out
 * once per shared results array, with the id left blank; each subscriber's write is then one copy of the
 * frames plus its id patched in, instead of assembling every frame from pieces per connection.
 */

/** FIN bit + opcode 0x1 (text). */
const FINAL_TEXT_FRAME = 0x81;

export function headerLength(payloadLength: number): number {
  return payloadLength < 126 ? 2 : payloadLength < 65_536 ? 4 : 10;
}

/** Writes the frame header for a payload of `length` bytes at `offset`; returns the offset after it. */
export function writeHeader(out: Buffer, offset: number, length: number): number {
  out[offset] = FINAL_TEXT_FRAME;
  if (length < 126) {
    out[offset + 1] = length;
    return offset + 2;
  }
  if (length < 65_536) {
    out[offset + 1] = 126;
    out[offset + 2] = length >>> 8;
    out[offset + 3] = length & 0xff;
    return offset + 4;
  }
  out[offset + 1] = 127;
  out.writeBigUInt64BE(BigInt(length), offset + 2);
  return offset + 10;
}

const BEFORE_ID = Buffer.from('{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"', 'utf8');
const AFTER_ID = Buffer.from('","result":', 'utf8');
const END = Buffer.from('}}', 'utf8');

/** One frame per result, ids blank: where each frame's payload starts and ends, and where its id goes. */
export interface FramedNotifications {
  readonly bytes: Buffer;
  /** Offsets in `bytes` of each frame's subscription id. */
  readonly idOffsets: readonly number[];
  /** [start, end) of each frame's payload (the notification's JSON) in `bytes`. */
  readonly payloads: readonly (readonly [number, number])[];
}

/** A subscriber's share of some framed notifications: the frames with its id. */
export interface NotificationRun {
  readonly frames: FramedNotifications;
  /** The subscription id as ASCII, of the length the frames were laid out for. */
  readonly id: Buffer;
}

// Subscription ids are quantities, so their length varies a little: one layout per length in use.
const layouts = new WeakMap<readonly Uint8Array[], Map<number, FramedNotifications>>();

/** The frames of one notification per result (UTF-8 JSON each) for ids of `idLength` bytes, laid out once per `results` array. */
export function framedNotifications(results: readonly Uint8Array[], idLength: number): FramedNotifications {
  let byLength = layouts.get(results);
  if (byLength === undefined) layouts.set(results, (byLength = new Map()));
  let framed = byLength.get(idLength);
  if (framed === undefined) byLength.set(idLength, (framed = layOut(results, idLength)));
  return framed;
}

function layOut(results: readonly Uint8Array[], idLength: number): FramedNotifications {
  const fixed = BEFORE_ID.length + idLength + AFTER_ID.length + END.length;
  let size = 0;
  for (const result of results) size += headerLength(fixed + result.length) + fixed + result.length;
  const bytes = Buffer.alloc(size);
  const idOffsets: number[] = [];
  const payloads: [number, number][] = [];
  let offset = 0;
  for (const result of results) {
    const start = writeHeader(bytes, offset, fixed + result.length);
    offset = start + BEFORE_ID.copy(bytes, start);
    idOffsets.push(offset);
    offset += idLength;
    offset += AFTER_ID.copy(bytes, offset);
    bytes.set(result, offset);
    offset += result.length;
    offset += END.copy(bytes, offset);
    payloads.push([start, offset]);
  }
  return { bytes, idOffsets, payloads };
}

/** Copies `run`'s frames to `out` at `offset` with its id filled in; returns the offset after them. */
export function copyRun(run: NotificationRun, out: Buffer, offset: number): number {
  const { bytes, idOffsets } = run.frames;
  bytes.copy(out, offset);
  for (const at of idOffsets) run.id.copy(out, offset + at);
  return offset + bytes.length;
}

/** `run`'s notifications as separate JSON payloads with its id filled in (for a connection that needs `ws.send`). */
export function payloadsOf(run: NotificationRun): Buffer[] {
  const { bytes, idOffsets, payloads } = run.frames;
  return payloads.map(([start, end], i) => {
    const payload = Buffer.from(bytes.subarray(start, end));
    run.id.copy(payload, idOffsets[i] - start);
    return payload;
  });
}
