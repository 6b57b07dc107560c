/**
 * The outgoing messages of one WebSocket connection, framed into one buffer and written to its socket in
 * one write, in the order queued. A head change sends a client one notification per matching log; handing
 * each to `ws.send` cost two buffered socket writes per message (frame header, payload).
 *
 * When writes happen:
 * - responses (`enqueue`) leave on this tick, with whatever notifications were queued before them;
 * - notifications (`enqueueNotification`) leave through a `FlushScheduler` shared by all connections: at
 *   once when the node is quiet, and at most once per window while head changes come back to back (a sync,
 *   a burst of imports). On a loopback or LAN socket each write costs the node a system call and the whole
 *   TCP send path, which with 200 subscribers and ~17 ms per imported block was most of the fan-out's cost;
 *   coalescing the notifications of consecutive blocks into one write per connection divides that by the
 *   number of blocks per window, for a delay bounded by the window.
 *
 * The framing is the plain RFC 6455 §5.2 one for a server: a single unmasked, final text frame per message
 * (what the `ws` library sends for these messages; it does not expose its framing helper in its types).
 * With an extension negotiated (per-message compression) messages go through `ws.send` instead.
 */
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
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
    out[offset + 2] = length >>> 8;
    out[offset + 3] = length & 0xff;
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

/** Something the scheduler flushes. */
interface Flushable {
  flush(): void;
}

/**
 * Decides when queued notifications are written, for every connection at once, as background work that
 * yields to the node's own (block import):
 * - the first flush after a quiet spell starts on the next check phase of the event loop, once the I/O
 *   callbacks already due have run; one requested less than `windowMs` after the previous one ended waits
 *   until the window has passed, so back-to-back head changes share one write per connection;
 * - a flush writes at most `perTurn` connections, then continues on the next check phase: an import step
 *   whose I/O completed in the meantime runs first instead of waiting behind hundreds of socket writes.
 * Order is unaffected: each connection's messages stay in one queue and leave in one write.
 */
export class FlushScheduler {
  private readonly dirty = new Set<Flushable>();
  private pending: NodeJS.Immediate | NodeJS.Timeout | undefined;
  private lastFlush = -Infinity;
  private idleWaiters: (() => void)[] = [];
  /**
   * The longest a connection's oldest notification waited to be written, event-loop delays included: what
   * the coalescing costs in latency. Diagnostics, kept by the outboxes; reset it to measure a period.
   */
  longestWaitMs = 0;

  /** An outbox wrote messages of which the oldest had waited `ms`. */
  noteWait(ms: number): void {
    if (ms > this.longestWaitMs) this.longestWaitMs = ms;
  }

  /** `windowMs` 0 = no coalescing; `perTurn` = connections written per turn of the event loop. */
  constructor(
    readonly windowMs: number,
    readonly perTurn = 32,
  ) {}

  /** Flushes `target` with the others at the next scheduled flush. */
  schedule(target: Flushable): void {
    this.dirty.add(target);
    if (this.pending !== undefined) return;
    const wait = this.lastFlush + this.windowMs - performance.now();
    this.pending = wait <= 0 ? setImmediate(this.run) : setTimeout(this.run, Math.ceil(wait));
  }

  /** Resolves once nothing is waiting for a flush. */
  idle(): Promise<void> {
    if (this.pending === undefined) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private readonly run = (): void => {
    let budget = this.perTurn;
    // Targets queued while this flush is under way (more notifications) join it: it ends when none are left.
    for (const target of this.dirty) {
      this.dirty.delete(target);
      target.flush();
      if (--budget === 0) break;
    }
    if (this.dirty.size > 0) {
      this.pending = setImmediate(this.run);
      return;
    }
    this.pending = undefined;
    this.lastFlush = performance.now();
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  };
}

/**
 * The scheduler of the node's connections. A 25 ms window: back-to-back imports (~15-25 ms a block here)
 * share writes, while at the chain's tip (13 s between blocks) nothing is ever held back. 64 connections
 * (about a millisecond of socket writes) per turn of the event loop.
 */
export const notificationFlushes = new FlushScheduler(25, 64);

export class WebSocketOutbox implements Flushable {
  private messages: OutgoingMessage[] = [];
  private lengths: number[] = [];
  private queuedBytes = 0;
  private flushThisTick = false;
  /** When the oldest queued message was queued. */
  private oldestQueuedAt = 0;

  constructor(
    private readonly ws: WebSocket,
    private readonly scheduler: FlushScheduler = notificationFlushes,
  ) {}

  /** Bytes not yet written to the client: queued here, or in the socket and the library's queue. */
  get backlog(): number {
    return this.queuedBytes + this.ws.bufferedAmount;
  }

  /** Queues `message` (of `byteLength` bytes, see `byteLengthOf`) for a write on this tick: a response. */
  enqueue(message: OutgoingMessage, byteLength: number): void {
    this.push(message, byteLength);
    if (this.flushThisTick) return;
    this.flushThisTick = true;
    process.nextTick(() => this.flush());
  }

  /** Queues a notification for the scheduler's next flush (or an earlier response's). */
  enqueueNotification(message: OutgoingMessage, byteLength: number): void {
    if (this.messages.length === 0) this.scheduler.schedule(this);
    this.push(message, byteLength);
  }

  /** Writes what is queued; nothing once the connection is closing (its close frame may be out already). */
  flush(): void {
    const { messages, lengths } = this;
    this.flushThisTick = false;
    if (messages.length === 0) return;
    this.scheduler.noteWait(performance.now() - this.oldestQueuedAt);
    this.messages = [];
    this.lengths = [];
    this.queuedBytes = 0;
    if (this.ws.readyState !== WebSocket.OPEN) return;
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

  private push(message: OutgoingMessage, byteLength: number): void {
    if (this.messages.length === 0) this.oldestQueuedAt = performance.now();
    this.messages.push(message);
    this.lengths.push(byteLength);
    this.queuedBytes += byteLength;
  }
}
