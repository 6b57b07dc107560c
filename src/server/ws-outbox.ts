/**
 * The outgoing messages of one WebSocket connection, written to its socket once per tick. A head change
 * sends a client one notification per matching log; handing each to `ws.send` cost two buffered socket
 * writes per message (frame header, payload) and, per block, a writev of thousands of small chunks.
 * Here the messages of one tick are framed into one buffer and leave in one write, in the order queued.
 *
 * The framing is the plain RFC 6455 §5.2 one for a server: a single unmasked, final text frame per message
 * (what the `ws` library sends for these messages; it does not expose its framing helper in its types).
 * With an extension negotiated (per-message compression) messages go through `ws.send` instead.
 */
import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';

/** A message as JSON text, or as consecutive pieces of UTF-8 JSON (payloads encoded once for many clients). */
export type OutgoingMessage = string | readonly Uint8Array[];

/** FIN bit + opcode 0x1 (text). */
const FINAL_TEXT_FRAME = 0x81;

function headerLength(payloadLength: number): number {
  return payloadLength < 126 ? 2 : payloadLength < 65_536 ? 4 : 10;
}

/** Writes the frame header for a payload of `length` bytes at `offset`; returns the offset after it. */
function writeHeader(out: Buffer, offset: number, length: number): number {
  out[offset] = FINAL_TEXT_FRAME;
  if (length < 126) {
    out[offset + 1] = length;
    return offset + 2;
  }
  if (length < 65_536) {
    out[offset + 1] = 126;
    out.writeUInt16BE(length, offset + 2);
    return offset + 4;
  }
  out[offset + 1] = 127;
  out.writeBigUInt64BE(BigInt(length), offset + 2);
  return offset + 10;
}

/** Size in bytes of a message's UTF-8 form. */
export function byteLengthOf(message: OutgoingMessage): number {
  if (typeof message === 'string') return Buffer.byteLength(message, 'utf8');
  let length = 0;
  for (const piece of message) length += piece.length;
  return length;
}

export class WebSocketOutbox {
  private messages: OutgoingMessage[] = [];
  private lengths: number[] = [];
  private queuedBytes = 0;

  constructor(private readonly ws: WebSocket) {}

  /** Bytes not yet written to the client: queued here, or in the socket and the library's queue. */
  get backlog(): number {
    return this.queuedBytes + this.ws.bufferedAmount;
  }

  /** Queues `message` (of `byteLength` bytes, see `byteLengthOf`) for this tick's write. */
  enqueue(message: OutgoingMessage, byteLength: number): void {
    if (this.messages.length === 0) process.nextTick(() => this.flush());
    this.messages.push(message);
    this.lengths.push(byteLength);
    this.queuedBytes += byteLength;
  }

  /** Writes what is queued; nothing once the connection is closing (its close frame may be out already). */
  flush(): void {
    const { messages, lengths } = this;
    this.messages = [];
    this.lengths = [];
    this.queuedBytes = 0;
    if (messages.length === 0 || this.ws.readyState !== WebSocket.OPEN) return;
    const socket = (this.ws as unknown as { _socket?: Duplex })._socket;
    if (socket === undefined || this.ws.extensions !== '') {
      for (const message of messages) this.ws.send(typeof message === 'string' ? message : Buffer.concat(message), { binary: false });
      return;
    }
    let size = 0;
    for (const length of lengths) size += headerLength(length) + length;
    const out = Buffer.allocUnsafe(size);
    let offset = 0;
    for (let i = 0; i < messages.length; i++) {
      offset = writeHeader(out, offset, lengths[i]);
      const message = messages[i];
      if (typeof message === 'string') offset += out.write(message, offset, 'utf8');
      else
        for (const piece of message) {
          out.set(piece, offset);
          offset += piece.length;
        }
    }
    socket.write(out);
  }
}
