/**
 * What every handler receives besides its params. HTTP requests share one context object (no per-request
 * allocation); each WebSocket connection gets its own, carrying the connection so that subscriptions can push
 * notifications and clean up when the client goes away.
 */
import type { SvcNode } from '../node/node.js';
import type { ConnectionSubscriptions } from './connection-subscriptions.js';

export type Transport = 'http' | 'ws';

export interface ClientConnection {
  /** Unique per process, for logs and subscription bookkeeping. */
  readonly id: number;
  /** Sends one JSON-RPC message (e.g. an `eth_subscription` notification) to this client. */
  send(message: unknown): void;
  /** Sends one message already serialised as JSON text. */
  sendText(json: string): void;
  /**
   * Sends subscription `subscriptionId` one `eth_subscription` notification per result (UTF-8 JSON), in
   * order. Pass the same `results` array to every subscriber that receives the same notifications: the
   * transport frames them once for all of them.
   */
  sendNotifications(subscriptionId: string, results: readonly Uint8Array[]): void;
  /** Runs `listener` once when the connection closes; at once when it already has. */
  onClose(listener: () => void): void;
  /** Its subscriptions (eth_subscribe): the connection cancels them when it closes. */
  readonly subscriptions: ConnectionSubscriptions;
  /** Whether the connection has closed (absent: the transport cannot tell). */
  readonly closed?: boolean;
}

export interface HandlerContext {
  readonly node: SvcNode;
  readonly transport: Transport;
  /** Present on WebSocket only. */
  readonly connection?: ClientConnection;
  /**
   * Present inside a JSON-RPC batch: work an answer would wait for (a dev send's automine block) is handed
   * here instead, and the batch answers once all of it is done, so the sends of one batch share blocks
   * rather than waiting for one block each.
   */
  readonly afterBatch?: (work: Promise<unknown>) => void;
  /**
   * With authentication on (src/server/auth.ts): whether this caller presented a valid credential. The dispatcher
   * refuses protected methods when it is `false`; absent = authentication off.
   */
  readonly authenticated?: boolean;
  /** HTTP: whether the request's client has gone (its socket closed). Absent: not an HTTP request. */
  readonly requestGone?: () => boolean;
}

/**
 * Whether the caller of this request has gone (its WebSocket or HTTP connection closed): long work asks between
 * steps and stops, since nobody is left to read its answer. False where that cannot be told.
 */
export function clientGone(ctx: HandlerContext): boolean {
  return ctx.connection?.closed === true || ctx.requestGone?.() === true;
}
