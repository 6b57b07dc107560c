/**
 * Wires the RPC server together for a node and starts listening: dispatcher, Hono app on @hono/node-server
 * (HTTP or HTTPS), WebSocket, rate limiter shared by both transports.
 */
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handlers } from '../generated/handlers.js';
import { methods as registryMethods, type MethodSpec } from '../generated/registry.js';
import type { HandlerContext } from '../rpc/context.js';
import type { SvcNode } from '../node/node.js';
import type { DispatchObserver } from '../rpc/observer.js';
import type { MetricsSource } from './app.js';
import type { AuthConfig } from '../node/config.js';
import {
  anonymousRefusal,
  createAuthenticator,
  loadOrCreateJwtSecret,
  readApiKeys,
  type Authenticator,
} from './auth.js';
import type { Logger } from '../node/logger.js';
import { createCorsPolicy } from './cors.js';
import { createDispatcher, type Dispatcher } from '../rpc/dispatch.js';
import { HealthChecker } from './health.js';
import { attachFastPath } from './fast-http.js';
import { createJsonRpcHttp, writeRpcAnswer } from './http.js';
import { createMcpHttp } from './mcp-http.js';
import { RateLimiter } from './rate-limit.js';
import { defaultDocsDir } from './static-docs.js';
import { loadTlsOptions } from './tls.js';
import { attachWebSocket, type WebSocketEndpoint } from './ws.js';

export interface StartServerOptions {
  readonly handlers: Handlers<HandlerContext>;
  /** Defaults to the generated registry. */
  readonly methods?: { readonly [name: string]: MethodSpec };
  readonly docsDir?: string;
  /** Present when metrics are on (`network.rpc.metrics.enabled`); the server closes them when it closes. */
  readonly metrics?: ServerMetrics;
}

/** What the server asks of the metrics (src/metrics builds them): it hands them calls, WebSocket clients and scrapes. */
export interface ServerMetrics extends MetricsSource {
  readonly observer: DispatchObserver;
  attachWebSocket(stats: { readonly clientCount: number }): void;
  close(): void;
}

export interface RunningServer {
  readonly address: string;
  /** The real port (differs from the configured one when that was 0). */
  readonly port: number;
  /** Base URL of JSON-RPC over HTTP(S), e.g. `http://127.0.0.1:8546/`. */
  readonly url: string;
  /** WebSocket URL, when WebSocket is enabled. */
  readonly wsUrl?: string;
  readonly dispatcher: Dispatcher;
  close(): Promise<void>;
}

export async function startServer(node: SvcNode, options: StartServerOptions): Promise<RunningServer> {
  const { config, log } = node;
  const http = config.rpc.http;
  const secure = http.mode === 'https';
  const rpcLog = log.child({ component: 'rpc' });
  const { metrics } = options;

  const authenticator = config.rpc.auth.enabled ? openAuthenticator(config.rpc.auth, rpcLog) : undefined;
  const refuseAnonymous = anonymousRefusal(config.rpc.auth, config.network, authenticator);
  const dispatcher = createDispatcher({
    methods: options.methods ?? registryMethods,
    handlers: options.handlers,
    enabledNamespaces: node.enabledNamespaces,
    maxBatchSize: config.rpc.maxBatchSize,
    validateResults: config.rpc.validateResults,
    log: rpcLog,
    ...(metrics !== undefined ? { observer: metrics.observer } : {}),
    ...(refuseAnonymous !== undefined ? { refuseAnonymous } : {}),
  });
  const cors = createCorsPolicy(http.corsAllowedOrigins);
  const rateLimiter = http.rateLimit.enabled ? new RateLimiter(http.rateLimit) : undefined;
  const rpc = createJsonRpcHttp({
    dispatcher,
    context: { node, transport: 'http' },
    maxBodySize: http.maxBodySize,
    rateLimiter,
    authenticator,
  });
  const mcp = node.enabledNamespaces.has('mcp')
    ? createMcpHttp({ node, maxBodySize: http.maxBodySize, rateLimiter, authenticator, log: rpcLog })
    : undefined;
  const health = new HealthChecker(node);
  // Hono serves what the direct path below does not (browsers, health, metrics, docs, MCP). It and its Node adapter
  // load on the first such request: the adapter's module loads Node's fetch classes (undici) and node:http2, ~50 ms
  // of CPU that most nodes' starts (only plain JSON-RPC calls) never needed.
  let honoListener: Promise<(req: IncomingMessage, res: ServerResponse) => Promise<unknown>> | undefined;
  const viaHono = () =>
    (honoListener ??= Promise.all([import('@hono/node-server'), import('./app.js')]).then(
      ([{ getRequestListener }, { createApp }]) => {
        const app = createApp({
          rpc,
          mcp,
          health,
          cors,
          docsDir: options.docsDir ?? defaultDocsDir,
          secure,
          log: rpcLog,
          webSocket: config.rpc.ws.enabled,
          ...(metrics !== undefined ? { metrics } : {}),
        });
        // The JSON-RPC route always consumes (or deliberately drains) the request body itself, so the adapter's
        // per-request cleanup listeners are pure overhead on the hot path.
        return getRequestListener(app.fetch, { autoCleanupIncoming: false });
      },
    ));
  // Plain JSON-RPC calls (POST / without an Origin, so there is no CORS decision to make) go straight to the
  // JSON-RPC function; everything else (browsers, health, docs) goes through the Hono app.
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST' && req.url === '/' && req.headers.origin === undefined) {
      rpc(req).then(
        (answer) => writeRpcAnswer(res, answer),
        (err: unknown) => {
          rpcLog.error('unhandled error in JSON-RPC over HTTP', { error: err });
          if (!res.headersSent) res.writeHead(500);
          res.end();
        },
      );
      return;
    }
    viaHono().then(
      (hono) => hono(req, res),
      (err: unknown) => {
        rpcLog.error('unhandled error in HTTP route', { path: req.url, error: err });
        if (!res.headersSent) res.writeHead(500);
        res.end();
      },
    );
  };
  const server: Server = secure
    ? createHttpsServer(loadTlsOptions(http.certificate!), listener)
    : createHttpServer(listener);
  // Plain HTTP: the common request is answered straight from the socket, anything else is handed to node:http.
  const fastPath = secure
    ? undefined
    : attachFastPath(server, {
        rpc,
        maxBodySize: http.maxBodySize,
        onError: (err) => rpcLog.error('unhandled error in JSON-RPC over HTTP', { error: err }),
      });
  // Keep idle keep-alive connections longer than clients' own idle timeouts (undici: 4 s, browsers: 60 s), so a
  // client never reuses a socket the server is closing at that moment ("other side closed" under load).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  let ws: WebSocketEndpoint | undefined;
  if (config.rpc.ws.enabled) {
    ws = attachWebSocket(server, {
      node,
      dispatcher,
      cors,
      rateLimiter,
      secure,
      maxPayload: http.maxBodySize,
      maxBufferedBytes: config.rpc.ws.maxBufferedBytes,
      maxOutstandingRequests: config.rpc.ws.maxOutstandingRequests,
      pingIntervalMs: config.rpc.ws.pingIntervalMs,
      authenticator,
      log: rpcLog,
    });
    metrics?.attachWebSocket(ws);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(http.port, http.interface, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => rpcLog.error('server error', { error: err }));

  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    address,
    port,
    url: `${secure ? 'https' : 'http'}://${host}:${port}/`,
    wsUrl: ws ? `${secure ? 'wss' : 'ws'}://${host}:${port}/ws` : undefined,
    dispatcher,
    async close() {
      metrics?.close();
      await ws?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        fastPath?.closeAll();
      });
    },
  };
}

/** Reads (or creates, 0600) the JWT secret and the API keys; logs where they are, never what they hold. */
function openAuthenticator(auth: AuthConfig, log: Logger): Authenticator {
  const apiKeys = auth.apiKeysFile !== undefined ? readApiKeys(auth.apiKeysFile) : undefined;
  const { secret, created } = loadOrCreateJwtSecret(auth.jwtSecretFile);
  log.info(created ? 'authentication on: created a JWT secret' : 'authentication on: using the JWT secret', {
    jwtSecretFile: auth.jwtSecretFile,
    ...(auth.apiKeysFile !== undefined ? { apiKeysFile: auth.apiKeysFile } : {}),
    protected: auth.protected,
  });
  return createAuthenticator(auth, secret, apiKeys);
}
