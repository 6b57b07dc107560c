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
 * Frames are written as `ws-frames.ts` lays them out; notifications come pre-framed for all their
 * subscribers. With an extension negotiated (per-message compression) messages go through `ws.send` instead.
 */
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { copyRun, headerLength, payloadsOf, writeHeader, type NotificationRun } from './ws-frames.js';

/** A message as JSON text or its UTF-8 bytes, or a subscriber's run of pre-framed notifications. */
export type OutgoingMessage = string | Uint8Array | NotificationRun;

/** Size in bytes of a message's UTF-8 form (a run's with its frame headers). */
export function byteLengthOf(message: OutgoingMessage): number {
  if (typeof message === 'string') return Buffer.byteLength(message, 'utf8');
  return message instanceof Uint8Array ? message.length : message.frames.bytes.length;
}

/** Something the scheduler flushes. */
interface Flushable {
  flush(): void;
}

/** How a `FlushScheduler` spaces its flushes. */
export interface FlushPacing {
  /** The shortest time from the end of one flush to the start of the next; 0 = no coalescing. */
  readonly windowMs: number;
  /** Connections written per turn of the event loop. */
  readonly perTurn?: number;
  /**
   * The share of the thread's time the writes' fixed cost may take while head changes come back to back:
   * after a flush of N connections the next waits at least N × perWriteMs / busyShare ms (capped by
   * `maxWindowMs`). Unset = a fixed window.
   */
  readonly busyShare?: number;
  /** What one write costs whatever its size: a system call and the TCP send path. */
  readonly perWriteMs?: number;
  readonly maxWindowMs?: number;
}

/**
 * Decides when queued notifications are written, for every connection at once, as background work that
 * yields to the node's own (block import):
 * - the first flush after a quiet spell starts on the next check phase of the event loop, once the I/O
 *   callbacks already due have run; one requested sooner than the window after the previous one ended waits
 *   until the window has passed, so back-to-back head changes share one write per connection;
 * - the window grows with the number of connections the last flush wrote, so that the writes' fixed cost
 *   takes at most `busyShare` of the thread however many connections there are: a few subscribers are
 *   written within `windowMs`, a few hundred wait longer and share each write among more blocks. (Only the
 *   fixed cost: the bytes cost the same however they are grouped, so a window sized on a flush's whole
 *   cost would grow with the bytes it let pile up);
 * - a flush writes the connections waiting when it began, at most `perTurn` per turn of the event loop (it
 *   continues on the next check phase: an import step whose I/O completed in the meantime runs first instead
 *   of waiting behind hundreds of socket writes). What is queued meanwhile waits for the next flush.
 * Order is unaffected: each connection's messages stay in one queue and leave in one write.
 */
export class FlushScheduler {
  private readonly dirty = new Set<Flushable>();
  private pending: NodeJS.Immediate | NodeJS.Timeout | undefined;
  private lastFlush = -Infinity;
  /** The wait after the last flush: its cost over the busy share, within the bounds. */
  private window: number;
  /** The connections of the flush under way (it may span several turns), and the next one to write. */
  private current: Flushable[] = [];
  private next = 0;
  private idleWaiters: (() => void)[] = [];
  readonly windowMs: number;
  readonly perTurn: number;
  readonly maxWindowMs: number;
  private readonly busyShare: number | undefined;
  private readonly perWriteMs: number;
  /**
   * The longest a connection's oldest notification waited to be written, event-loop delays included: what
   * the coalescing costs in latency. Diagnostics, kept by the outboxes; reset it to measure a period.
   */
  longestWaitMs = 0;
  /** The longest window used so far (diagnostics). */
  longestWindowMs = 0;

  /** The wait the next flush keeps after the last one (diagnostics). */
  get currentWindowMs(): number {
    return this.window;
  }

  constructor(pacing: FlushPacing) {
    this.windowMs = pacing.windowMs;
    this.perTurn = pacing.perTurn ?? 32;
    this.busyShare = pacing.busyShare;
    this.perWriteMs = pacing.perWriteMs ?? 0.015;
    this.maxWindowMs = Math.max(pacing.maxWindowMs ?? pacing.windowMs, pacing.windowMs);
    this.window = pacing.windowMs;
  }

  /** An outbox wrote messages of which the oldest had waited `ms`. */
  noteWait(ms: number): void {
    if (ms > this.longestWaitMs) this.longestWaitMs = ms;
  }

  /** Flushes `target` with the others at the next scheduled flush. */
  schedule(target: Flushable): void {
    this.dirty.add(target);
    if (this.pending !== undefined) return;
    const wait = this.lastFlush + this.window - performance.now();
    this.pending = wait <= 0 ? setImmediate(this.run) : setTimeout(this.run, Math.ceil(wait));
  }

  /** Resolves once nothing is waiting for a flush. */
  idle(): Promise<void> {
    if (this.pending === undefined) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private readonly run = (): void => {
    // A flush writes the connections that were waiting when it began; those queued meanwhile (more
    // notifications, or a connection written already) wait for the next one, after the window.
    if (this.next === this.current.length) {
      this.current = [...this.dirty];
      this.dirty.clear();
      this.next = 0;
    }
    const end = Math.min(this.current.length, this.next + this.perTurn);
    while (this.next < end) this.current[this.next++].flush();
    if (this.next < this.current.length) {
      this.pending = setImmediate(this.run);
      return;
    }
    this.lastFlush = performance.now();
    if (this.busyShare !== undefined) {
      this.window = Math.min(
        this.maxWindowMs,
        Math.max(this.windowMs, (this.current.length * this.perWriteMs) / this.busyShare),
      );
      if (this.window > this.longestWindowMs) this.longestWindowMs = this.window;
    }
    this.current = [];
    this.next = 0;
    if (this.dirty.size > 0) {
      this.pending = setTimeout(this.run, Math.ceil(this.window));
      return;
    }
    this.pending = undefined;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  };
}

/**
 * The scheduler of the node's connections. Blocks at the chain's tip come 13 s apart, so nothing there is
 * ever held back; back-to-back imports (a sync, a burst of dev blocks, ~15 ms a block here) share writes.
 * The window is 25 ms, or longer where the writes' fixed cost (~15 µs each on loopback here) would take more
 * than 5 % of the thread: 60 ms for 200 connections, at most 250 ms. 64 connections (about a millisecond
 * of socket writes) per turn of the event loop.
 */
export const notificationFlushes = new FlushScheduler({
  windowMs: 25,
  perTurn: 64,
  busyShare: 0.05,
  perWriteMs: 0.015,
  maxWindowMs: 250,
});

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
      for (const message of messages) {
        if (typeof message === 'string' || message instanceof Uint8Array) this.ws.send(message, { binary: false });
        else for (const payload of payloadsOf(message)) this.ws.send(payload, { binary: false });
      }
      return;
    }
    let size = 0;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i];
      const framed = typeof message === 'string' || message instanceof Uint8Array;
      size += framed ? headerLength(lengths[i]) + lengths[i] : lengths[i];
    }
    const out = Buffer.allocUnsafe(size);
    let offset = 0;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i];
      if (typeof message === 'string') {
        offset = writeHeader(out, offset, lengths[i]);
        offset += out.write(message, offset, 'utf8');
      } else if (message instanceof Uint8Array) {
        offset = writeHeader(out, offset, lengths[i]);
        out.set(message, offset);
        offset += message.length;
      } else offset = copyRun(message, out, offset);
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
