/**
 * JSON-RPC over WebSocket at `/ws`, sharing the HTTP port (the `ws` library in noServer mode on the node server's
 * `upgrade` event) and the same dispatcher. Each connection gets its own handler context so subscriptions can
 * push notifications to it. The same CORS policy and per-IP rate limit apply (the limit per message).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { SvcNode } from '../node/node.js';
import { ConnectionSubscriptions } from '../rpc/connection-subscriptions.js';
import type { ClientConnection, HandlerContext } from '../rpc/context.js';
import type { CorsPolicy } from './cors.js';
import { WWW_AUTHENTICATE, type Authenticator } from './auth.js';
import type { Dispatcher } from '../rpc/dispatch.js';
import { ErrorCode, unauthorizedError } from '../rpc/errors.js';
import { JsonChunks } from '../rpc/raw-json.js';
import type { Logger } from '../node/logger.js';
import { clientIp, type RateLimiter } from './rate-limit.js';
import { framedNotifications } from './ws-frames.js';
import { byteLengthOf, WebSocketOutbox } from './ws-outbox.js';

export interface WebSocketOptions {
  readonly node: SvcNode;
  readonly dispatcher: Dispatcher;
  readonly cors: CorsPolicy;
  readonly maxPayload: number;
  readonly secure: boolean;
  readonly rateLimiter?: RateLimiter;
  readonly log: Logger;
  readonly path?: string;
  /** Unsent bytes one client may fall behind (responses and notifications) before it is disconnected. Default 16 MiB. */
  readonly maxBufferedBytes?: number;
  /** Requests (a batch counts once) one connection may have in flight; more are answered -32005. Default 256. */
  readonly maxOutstandingRequests?: number;
  /**
   * Every this many ms each client is pinged; one that has not answered the previous ping by then (it stopped
   * reading, or its host vanished without closing) is disconnected. 0 = no pings. Default 30 s (geth's too).
   */
  readonly pingIntervalMs?: number;
  /** Authentication on: the upgrade needs a valid credential (a WebSocket has no per-message headers). */
  readonly authenticator?: Authenticator;
}

/** Close code for a client that does not read fast enough: 1008 "policy violation" (RFC 6455 §7.4.1). */
export const SLOW_CONSUMER_CLOSE_CODE = 1008;

export interface WebSocketEndpoint {
  readonly clientCount: number;
  close(): Promise<void>;
}

let nextConnectionId = 1;

function refuseUpgrade(socket: Duplex, status: number, reason: string, body = '', extraHeaders = ''): void {
  const type = body === '' ? '' : 'Content-Type: application/json\r\n';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n${type}${extraHeaders}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** -32005 for every request of a message refused because the connection has too many in flight. */
function tooManyOutstanding(text: string, limit: number): unknown {
  const error = {
    code: ErrorCode.LimitExceeded,
    message: `too many requests in flight on this connection: at most ${limit} (network.rpc.ws.max-outstanding-requests)`,
    data: { limit },
  };
  return answerEach(text, error);
}

/** -32005 for every request in a body refused by the rate limiter, keeping their ids. */
function rateLimited(text: string, backoffSeconds: number): unknown {
  const error = { code: ErrorCode.LimitExceeded, message: 'request rate exceeded', data: { backoffSeconds } };
  return answerEach(text, error);
}

/** The same error for every request of a message, keeping their ids. */
function answerEach(text: string, error: unknown): unknown {
  const idOf = (r: unknown) => (r !== null && typeof r === 'object' && 'id' in r ? (r as { id: unknown }).id : null);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { jsonrpc: '2.0', id: null, error };
  }
  return Array.isArray(body) && body.length > 0
    ? body.map((r) => ({ jsonrpc: '2.0', id: idOf(r), error }))
    : { jsonrpc: '2.0', id: idOf(body), error };
}

export function attachWebSocket(server: Server, options: WebSocketOptions): WebSocketEndpoint {
  const { node, dispatcher, cors, log, rateLimiter, authenticator } = options;
  const maxOutstanding = options.maxOutstandingRequests ?? 256;
  const path = options.path ?? '/ws';
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload });
  // Clients that answered the last ping (or connected since): a pong proves the client reads what it is sent.
  const alive = new WeakSet<WebSocket>();
  const connections = new WeakMap<WebSocket, { readonly connection: number; readonly ip: string }>();
  const pingIntervalMs = options.pingIntervalMs ?? 30_000;
  const heartbeat =
    pingIntervalMs > 0
      ? setInterval(() => {
          for (const client of wss.clients) {
            if (!alive.has(client)) {
              // It has not answered our previous ping for a whole interval: its subscriptions and unsent bytes
              // go now instead of waiting for a TCP time-out or the buffered-bytes cap.
              log.info('websocket client not answering pings, disconnecting', {
                ...connections.get(client),
                reason: `no pong within ${pingIntervalMs} ms (network.rpc.ws.ping-interval)`,
              });
              client.terminate();
              continue;
            }
            alive.delete(client);
            if (client.readyState === WebSocket.OPEN) client.ping();
          }
        }, pingIntervalMs)
      : undefined;
  heartbeat?.unref();

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = req.url ?? '/';
    const pathname = url.split('?', 1)[0];
    if (pathname !== path) return refuseUpgrade(socket, 404, 'Not Found');
    const origin = req.headers.origin;
    if (origin !== undefined && cors.check(origin, req.headers.host, options.secure) === false) {
      return refuseUpgrade(socket, 403, 'Forbidden');
    }
    if (authenticator) {
      const outcome = authenticator.authenticate(req.headers);
      if (outcome.status !== 'authenticated') {
        const reason = outcome.status === 'refused' ? outcome.reason : 'a WebSocket connection requires authentication';
        const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: unauthorizedError(reason) });
        return refuseUpgrade(socket, 401, 'Unauthorized', body, `WWW-Authenticate: ${WWW_AUTHENTICATE}\r\n`);
      }
    }
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, req));
  });

  function onConnection(ws: WebSocket, req: IncomingMessage): void {
    const ip = clientIp(req.headers['x-forwarded-for'], req.socket.remoteAddress);
    const closeListeners: Array<() => void> = [];
    let closed = false;
    const maxBuffered = options.maxBufferedBytes ?? 16 * 1024 * 1024;
    const outbox = new WebSocketOutbox(ws);
    // Every outgoing message goes through here: a client that stops reading makes the backlog grow (the socket's
    // unsent bytes); past the bound it is disconnected instead of growing the node's memory. Responses leave on
    // the tick they are made; notifications may wait for the next shared flush (see ws-outbox.ts).
    const admit = (bytes: number): boolean => {
      if (ws.readyState !== WebSocket.OPEN) return false;
      if (outbox.backlog + bytes <= maxBuffered) return true;
      log.warn('websocket client too slow, disconnecting', {
        connection: connection.id,
        ip,
        bufferedBytes: outbox.backlog,
        reason: `more than ${maxBuffered} bytes waiting to be sent (network.rpc.ws.max-buffered-bytes)`,
      });
      // What is already queued is written first, then the close frame, so a client that resumes reading learns
      // why; one that never does is cut off at the next heartbeat but one (no pong), or by the ws library's close
      // timeout (30 s) with pings off. Nothing more is queued.
      outbox.flush();
      ws.close(SLOW_CONSUMER_CLOSE_CODE, `slow consumer: more than ${maxBuffered} bytes waiting to be sent`);
      return false;
    };
    const sendText = (json: string | Uint8Array | JsonChunks): void => {
      const text = json instanceof JsonChunks ? json.toBuffer() : json;
      const bytes = byteLengthOf(text);
      if (admit(bytes)) outbox.enqueue(text, bytes);
    };
    const sendNotifications = (subscriptionId: string, results: readonly Uint8Array[]): void => {
      const id = Buffer.from(subscriptionId, 'latin1');
      const run = { frames: framedNotifications(results, id.length), id };
      const bytes = byteLengthOf(run);
      if (admit(bytes)) outbox.enqueueNotification(run, bytes);
    };
    const subscriptions = new ConnectionSubscriptions();
    const connection: ClientConnection = {
      id: nextConnectionId++,
      subscriptions,
      send(message) {
        sendText(JSON.stringify(message));
      },
      sendText,
      sendNotifications,
      get closed() {
        return closed;
      },
      onClose(listener) {
        // A handler may finish after its client has gone (eth_subscribe resolving after the socket closed):
        // it still gets its cleanup, at once.
        if (closed) listener();
        else closeListeners.push(listener);
      },
    };
    // A subscription lives exactly as long as its socket.
    connection.onClose(() => subscriptions.close());
    // Authentication on: only authenticated clients get this far (checked at the upgrade).
    const ctx: HandlerContext = authenticator
      ? { node, transport: 'ws', connection, authenticated: true }
      : { node, transport: 'ws', connection };
    // Messages dispatched and not yet answered: a client that pipelines without waiting cannot queue unbounded work.
    let outstanding = 0;
    log.debug('websocket connected', { connection: connection.id, ip });

    alive.add(ws);
    connections.set(ws, { connection: connection.id, ip });
    ws.on('pong', () => alive.add(ws));
    ws.on('message', (data: RawData) => {
      const text = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data).toString('utf8');
      if (rateLimiter) {
        const decision = rateLimiter.check(ip);
        if (!decision.allowed) return connection.send(rateLimited(text, decision.backoffSeconds));
      }
      if (outstanding >= maxOutstanding) return connection.send(tooManyOutstanding(text, maxOutstanding));
      const output = dispatcher.handleText(text, ctx);
      if (!(output instanceof Promise)) {
        if (output !== undefined) sendText(dispatcher.serialize(output));
        return;
      }
      outstanding++;
      output.then(
        (answer) => {
          outstanding--;
          if (answer !== undefined) sendText(dispatcher.serialize(answer));
        },
        (err: unknown) => {
          outstanding--;
          log.error('websocket dispatch failed', { connection: connection.id, error: err });
        },
      );
    });
    ws.on('error', (err) => log.debug('websocket error', { connection: connection.id, error: err.message }));
    ws.once('close', () => {
      closed = true;
      log.debug('websocket closed', { connection: connection.id });
      for (const listener of closeListeners.splice(0)) {
        try {
          listener();
        } catch (err) {
          log.error('websocket close listener failed', { connection: connection.id, error: err });
        }
      }
    });
  }

  return {
    get clientCount() {
      return wss.clients.size;
    },
    close() {
      if (heartbeat !== undefined) clearInterval(heartbeat);
      for (const client of wss.clients) client.terminate();
      return new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
