/**
 * The Hono app: JSON-RPC on `POST /`, MCP on `/mcp`, the health endpoints, `/metrics` (when on) and the docs
 * portal, with CORS in front of all of them (a wrapper around `fetch`, so requests without an Origin pay nothing
 * for it). WebSocket upgrades do not pass through Hono (see ws.ts).
 */
import type { HttpBindings } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { withCors, type CorsPolicy, type FetchCallback } from './cors.js';
import type { HealthChecker, HealthReport } from './health.js';
import { jsonRpcHttpHandler, type JsonRpcHttp } from './http.js';
import type { Logger } from '../node/logger.js';
import { mcpDisabledResponse, type McpHttp } from './mcp-http.js';
import { readDocsFile } from './static-docs.js';

/** What `GET /metrics` serves (src/metrics); absent when metrics are off, and the route answers 404 with the flag. */
export interface MetricsSource {
  scrape(): Promise<{ readonly contentType: string; readonly body: string }>;
}

type Env = { Bindings: HttpBindings };

export interface AppOptions {
  /** `POST /` (shared with the server's direct path for requests without an Origin). */
  readonly rpc: JsonRpcHttp;
  /** `/mcp`, the MCP Streamable HTTP transport; absent when the `mcp` namespace is not enabled. */
  readonly mcp?: McpHttp;
  readonly health: HealthChecker;
  readonly cors: CorsPolicy;
  readonly docsDir: string;
  /** Whether the server speaks TLS (for the same-origin rule of CORS). */
  readonly secure: boolean;
  readonly log: Logger;
  readonly metrics?: MetricsSource;
  /** Whether `/ws` takes WebSocket upgrades (the upgrade itself is the server's, src/server/ws.ts). */
  readonly webSocket?: boolean;
}

export interface App {
  readonly fetch: FetchCallback;
}

const METRICS_OFF =
  'metrics are off on this node: start it with --metrics (network.rpc.metrics.enabled = true); on by default on dev only\n';

const WS_NOT_UPGRADE =
  '/ws is the JSON-RPC WebSocket endpoint: connect to it with a WebSocket client (ws:// or wss://); ' +
  'JSON-RPC over HTTP is POST /\n';

export function createApp(options: AppOptions): App {
  const { cors, health, docsDir, log, secure } = options;
  const app = new Hono<Env>();

  app.post('/', jsonRpcHttpHandler(options.rpc));

  const { mcp } = options;
  app.all('/mcp', (c) => (mcp ? mcp(c.req.raw, c.env.incoming) : mcpDisabledResponse()));

  const healthResponse = (c: Context<Env>, report: HealthReport) =>
    c.body(JSON.stringify(report.body, null, 2), report.httpStatus, { 'content-type': 'application/json' });
  app.get('/health', (c) => healthResponse(c, health.liveness()));
  app.get('/readiness', (c) => healthResponse(c, health.readiness()));
  app.get('/healthcheck', (c) => healthResponse(c, health.healthcheck()));

  const metrics = options.metrics;
  app.get('/metrics', async (c) => {
    // A scraper pointed at a node with metrics off gets a reason in its error log, not a bare 404.
    if (metrics === undefined) return c.text(METRICS_OFF, 404);
    const { contentType, body } = await metrics.scrape();
    return c.body(body, 200, { 'content-type': contentType });
  });

  // A plain GET of the WebSocket URL (a browser, curl) is not an upgrade: say what the URL is for, not 404.
  if (options.webSocket === true) app.get('/ws', (c) => c.text(WS_NOT_UPGRADE, 426, { upgrade: 'websocket' }));

  // `GET /` is the first URL a person opens: a browser goes to the portal, anything else gets a pointer to the
  // endpoints (JSON-RPC itself is `POST /`). The answer depends on Accept, so caches must key on it.
  app.get('/', (c) => {
    c.header('vary', 'accept');
    if (/\btext\/html\b/i.test(c.req.header('accept') ?? '')) return c.redirect('/docs/', 302);
    return c.json({
      name: 'svc-node',
      jsonrpc: 'POST /',
      websocket: '/ws',
      docs: '/docs/',
      gettingStarted: '/docs/guides/getting-started.html',
      ...(mcp ? { mcp: '/mcp' } : {}),
      health: '/health',
      ...(options.metrics !== undefined ? { metrics: '/metrics' } : {}),
      openrpc: 'rpc.discover',
    });
  });

  // Relative links in the portal resolve against /docs/, so /docs itself redirects there.
  app.get('/docs', (c) => c.redirect('/docs/', 301));
  app.get('/docs/*', async (c) => {
    const file = await readDocsFile(docsDir, c.req.path.slice('/docs/'.length) || 'index.html');
    if (!file) return c.text('Not Found', 404);
    return c.body(file.body as Uint8Array<ArrayBuffer>, 200, { 'content-type': file.contentType });
  });

  app.onError((err, c) => {
    log.error('unhandled error in HTTP route', { path: c.req.path, error: err });
    return c.text('Internal Server Error', 500);
  });

  return { fetch: withCors(app.fetch, cors, secure) };
}
