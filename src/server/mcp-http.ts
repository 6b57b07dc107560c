/**
 * `/mcp`: the MCP Streamable HTTP transport, so agents connect with a standard MCP client instead of knowing this
 * node's JSON-RPC method names. Built with the official SDK's transport class over the same tools, resources and
 * prompts as the JSON-RPC `mcp` methods (src/mcp).
 *
 * Stateless: every POST gets a fresh SDK server and transport, answered with one JSON body. Nothing is kept per
 * client (no session ids to track or expire), which suits a node: the tools are read-only and quick, and the
 * server never pushes notifications, so there is no event stream to offer (GET and DELETE answer 405, which MCP
 * clients accept as "no stream"). The route sits behind the same CORS policy as the rest of the app (a browser
 * page from another origin gets 403 unless listed), and counts against the same per-IP rate limit and body limit
 * as `POST /`.
 */
import type { IncomingMessage } from 'node:http';
import type { SvcNode } from '../node/node.js';
import { WWW_AUTHENTICATE, type Authenticator } from './auth.js';
import { ErrorCode, unauthorizedError } from '../rpc/errors.js';
import type { Logger } from '../node/logger.js';
import { type RateLimiter, clientIp } from './rate-limit.js';

/**
 * The SDK (with zod and ajv, some 300 modules) is loaded by the first `/mcp` request, not at start-up: a node that
 * never serves MCP never pays for it, and the first JSON-RPC answer comes sooner.
 */
let sdk:
  | Promise<{
      Transport: typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js').WebStandardStreamableHTTPServerTransport;
      createMcpSdkServer: typeof import('./mcp-sdk.js').createMcpSdkServer;
    }>
  | undefined;
const loadSdk = () =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('./mcp-sdk.js'),
  ]).then(([transport, server]) => ({
    Transport: transport.WebStandardStreamableHTTPServerTransport,
    createMcpSdkServer: server.createMcpSdkServer,
  })));

export interface McpHttpOptions {
  readonly node: SvcNode;
  readonly maxBodySize: number;
  readonly rateLimiter?: RateLimiter;
  readonly log: Logger;
  /** Authentication on: a bad credential is refused; none at all too when the `mcp` namespace is protected. */
  readonly authenticator?: Authenticator;
}

/** One `/mcp` request, any HTTP method. */
export type McpHttp = (request: Request, incoming: IncomingMessage) => Promise<Response>;

function jsonRpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  data?: unknown,
): Response {
  const error = data === undefined ? { code, message } : { code, message, data };
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

const STATELESS =
  'Method not allowed: this MCP server is stateless (no session, no server-sent event stream); send JSON-RPC messages with POST.';

export function createMcpHttp(options: McpHttpOptions): McpHttp {
  const { node, maxBodySize, rateLimiter, log, authenticator } = options;
  // MCP tools are the mcp namespace's methods: the route is protected when that namespace (or "*") is.
  const routeProtected = authenticator?.isProtected({ namespace: 'mcp', name: 'tools/call' }) ?? false;
  return async (request, incoming) => {
    if (authenticator) {
      const outcome = authenticator.authenticate(incoming.headers);
      if (outcome.status === 'refused' || (outcome.status === 'anonymous' && routeProtected)) {
        const { code, message, data } = unauthorizedError(
          outcome.status === 'refused' ? outcome.reason : '/mcp requires authentication',
        );
        return jsonRpcError(401, code, message, { 'www-authenticate': WWW_AUTHENTICATE }, data);
      }
    }
    if (request.method !== 'POST') return jsonRpcError(405, ErrorCode.ServerError, STATELESS, { allow: 'POST' });
    if (rateLimiter) {
      const decision = rateLimiter.check(clientIp(incoming.headers['x-forwarded-for'], incoming.socket.remoteAddress));
      if (!decision.allowed) {
        return jsonRpcError(
          429,
          ErrorCode.LimitExceeded,
          'request rate exceeded',
          { 'retry-after': String(decision.backoffSeconds) },
          {
            backoffSeconds: decision.backoffSeconds,
          },
        );
      }
    }
    const { Transport, createMcpSdkServer } = await loadSdk();
    const server = createMcpSdkServer(node, log);
    const transport = new Transport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: maxBodySize,
    });
    // The transport answers malformed requests itself (400/406/413/415 with a JSON-RPC error); log them quietly.
    transport.onerror = (error) => log.debug('mcp request refused', { error: error.message });
    try {
      await server.connect(transport);
      // In JSON mode this resolves once every answer of the request is in the body.
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  };
}

/** What `/mcp` answers when the `mcp` namespace is not enabled: the route exists, so say how to turn it on. */
export function mcpDisabledResponse(): Response {
  return jsonRpcError(
    404,
    ErrorCode.MethodNotFound,
    'MCP is not enabled on this node: add mcp to network.rpc.apis (--apis); it is on by default on dev only.',
  );
}
