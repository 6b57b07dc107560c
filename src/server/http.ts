/**
 * `POST /`: JSON-RPC over HTTP. This is the hot path, so it reads the body straight from Node's request stream
 * (not through a WHATWG Request) and answers with a string body (or the bytes of a result that came as bytes, a
 * struct-logger trace), which @hono/node-server writes without building a WHATWG Response. JSON-RPC errors travel with HTTP 200; only transport faults change the status.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { HandlerContext } from '../rpc/context.js';
import { WWW_AUTHENTICATE, type Authenticator } from './auth.js';
import type { DispatchOutput, Dispatcher, JsonRpcResponse, Maybe } from '../rpc/dispatch.js';
import { ErrorCode, unauthorizedError } from '../rpc/errors.js';
import { JsonChunks } from '../rpc/raw-json.js';
import { type RateLimiter, clientIp } from './rate-limit.js';

export interface JsonRpcHttpOptions {
  readonly dispatcher: Dispatcher;
  /** Shared by every HTTP request. */
  readonly context: HandlerContext;
  readonly maxBodySize: number;
  readonly rateLimiter?: RateLimiter;
  /** Authentication on: checks each request's credential (src/server/auth.ts). */
  readonly authenticator?: Authenticator;
}

type Env = { Bindings: HttpBindings };

/** What geth accepts; anything else (or no Content-Type) is 415. */
const acceptedContentTypes = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest']);

export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const semi = header.indexOf(';');
  return acceptedContentTypes.has((semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase());
}

/** What the JSON-RPC route answers, independent of the HTTP framework that writes it. */
export interface RpcHttpAnswer {
  readonly status: number;
  /** JSON text, or its UTF-8 bytes (in pieces: JsonChunks). */
  readonly body: string | Buffer | JsonChunks | null;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A transport-level refusal, still in JSON-RPC form so clients can read it. */
function transportError(
  status: number,
  code: number,
  message: string,
  data?: unknown,
  headers?: Record<string, string>,
): RpcHttpAnswer {
  const error = data === undefined ? { code, message } : { code, message, data };
  return { status, body: JSON.stringify({ jsonrpc: '2.0', id: null, error }), headers };
}

const tooLarge = Symbol('too large');
const clientGone = Symbol('client gone');

/**
 * Collects the body up to `limit` bytes; beyond it, stops buffering and reports `tooLarge`. A client that goes
 * away mid-body (Node's "aborted") is `clientGone`: an ordinary event, not a fault of the node.
 */
function readBody(incoming: IncomingMessage, limit: number): Promise<string | typeof tooLarge | typeof clientGone> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        incoming.off('data', onData);
        incoming.resume(); // discard the rest; the response is sent at once
        resolve(tooLarge);
        return;
      }
      chunks.push(chunk);
    };
    incoming.on('data', onData);
    incoming.once('end', () => {
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
    incoming.once('error', () => resolve(clientGone));
  });
}

/** `POST /` as a function of Node's request, or of a request the fast path (fast-http.ts) has read whole. */
export interface JsonRpcHttp {
  (incoming: IncomingMessage): Promise<RpcHttpAnswer>;
  /** The same route for a request whose body is already read: synchronous when the method is. */
  readonly read: (headers: IncomingHttpHeaders, socket: RequestSocket, body: string) => Maybe<RpcHttpAnswer>;
}

/** What the route asks of a request's connection: the client's address, and whether it has gone. */
interface RequestSocket {
  readonly remoteAddress?: string | undefined;
  readonly destroyed: boolean;
}

/** `POST /`: content type, rate limit, body limit, authentication, then the dispatcher. */
export function createJsonRpcHttp(options: JsonRpcHttpOptions): JsonRpcHttp {
  const { dispatcher, context, maxBodySize, rateLimiter, authenticator } = options;
  const tooLargeMessage = `Request body too large: at most ${maxBodySize} bytes (network.rpc.http.max-body-size)`;
  // Two shared contexts rather than one per request: the hot path stays allocation-free with auth on too.
  const anonymousContext: HandlerContext = { ...context, authenticated: false };
  const authenticatedContext: HandlerContext = { ...context, authenticated: true };

  /** The checks made before the body is read: the refusal, or the context the request runs in. */
  const admit = (headers: IncomingHttpHeaders, socket: RequestSocket): RpcHttpAnswer | HandlerContext => {
    if (!isJsonContentType(headers['content-type'])) {
      return transportError(415, ErrorCode.InvalidRequest, 'Unsupported content type: send application/json');
    }
    if (rateLimiter) {
      const decision = rateLimiter.check(clientIp(headers['x-forwarded-for'], socket.remoteAddress));
      if (!decision.allowed) {
        return transportError(
          429,
          ErrorCode.LimitExceeded,
          'request rate exceeded',
          { backoffSeconds: decision.backoffSeconds },
          { 'retry-after': String(decision.backoffSeconds) },
        );
      }
    }
    const declared = headers['content-length'];
    if (declared !== undefined && Number(declared) > maxBodySize) {
      return transportError(413, ErrorCode.InvalidRequest, tooLargeMessage);
    }
    if (authenticator === undefined) return context;
    const outcome = authenticator.authenticate(headers);
    if (outcome.status === 'refused') {
      const { code, message, data } = unauthorizedError(outcome.reason);
      return transportError(401, code, message, data, wwwAuthenticate);
    }
    return outcome.status === 'authenticated' ? authenticatedContext : anonymousContext;
  };

  const answerOf = (output: DispatchOutput, ctx: HandlerContext): RpcHttpAnswer => {
    if (output === undefined) return noContent;
    // A protected method called without a credential: the JSON-RPC answer stands (a batch keeps its other
    // answers), and the status tells HTTP clients and proxies to authenticate.
    if (ctx === anonymousContext && hasUnauthorized(output)) {
      return { status: 401, body: dispatcher.serialize(output), headers: wwwAuthenticate };
    }
    return { status: 200, body: dispatcher.serialize(output) };
  };

  const dispatch = (text: string, ctx: HandlerContext, socket: RequestSocket): Maybe<RpcHttpAnswer> => {
    // Per request, so long work (anvil_mine) can tell its client has gone: one small object beside the parsed body.
    const requestCtx: HandlerContext = { ...ctx, requestGone: () => socket.destroyed };
    const output = dispatcher.handleText(text, requestCtx);
    return output instanceof Promise ? output.then((o) => answerOf(o, ctx)) : answerOf(output, ctx);
  };

  const fromStream = async (incoming: IncomingMessage): Promise<RpcHttpAnswer> => {
    const admitted = admit(incoming.headers, incoming.socket);
    if (isAnswer(admitted)) {
      if (admitted.status === 401) incoming.resume(); // the body is not read; let the socket drain for keep-alive
      return admitted;
    }
    const text = await readBody(incoming, maxBodySize);
    if (text === tooLarge) return transportError(413, ErrorCode.InvalidRequest, tooLargeMessage);
    // Nobody is left to read an answer; the status only keeps the writer's contract.
    if (text === clientGone) return { status: 400, body: null };
    return dispatch(text, admitted, incoming.socket);
  };

  const read = (headers: IncomingHttpHeaders, socket: RequestSocket, body: string): Maybe<RpcHttpAnswer> => {
    const admitted = admit(headers, socket);
    return isAnswer(admitted) ? admitted : dispatch(body, admitted, socket);
  };

  return Object.assign(fromStream, { read });
}

const noContent: RpcHttpAnswer = { status: 204, body: null };

function isAnswer(admitted: RpcHttpAnswer | HandlerContext): admitted is RpcHttpAnswer {
  return (admitted as Partial<RpcHttpAnswer>).status !== undefined;
}

const wwwAuthenticate = { 'www-authenticate': WWW_AUTHENTICATE };

function hasUnauthorized(output: JsonRpcResponse | JsonRpcResponse[]): boolean {
  const refused = (r: JsonRpcResponse) => 'error' in r && r.error.code === ErrorCode.Unauthorized;
  return Array.isArray(output) ? output.some(refused) : refused(output);
}

/** The Hono route for `POST /` (requests with an Origin header come this way, behind CORS). */
export function jsonRpcHttpHandler(rpc: JsonRpcHttp) {
  return async (c: Context<Env>): Promise<Response> => {
    const answer = await rpc(c.env.incoming);
    const headers = answer.body === null ? answer.headers : { 'content-type': 'application/json', ...answer.headers };
    const body = answer.body instanceof JsonChunks ? answer.body.toBuffer() : answer.body;
    return new Response(body, { status: answer.status, headers: headers as Record<string, string> | undefined });
  };
}

/**
 * Writes an answer straight to Node's response. The server sends plain `POST /` calls (no Origin, so no CORS
 * decision to make) this way, skipping the WHATWG Request/Response round trip of the framework adapter: that
 * round trip was the largest cost left on the hottest path.
 */
export function writeRpcAnswer(res: ServerResponse, answer: RpcHttpAnswer): void {
  if (answer.body === null) {
    res.writeHead(answer.status, answer.headers as Record<string, string> | undefined);
    res.end();
    return;
  }
  const { body } = answer;
  res.writeHead(answer.status, {
    'content-type': 'application/json',
    'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    ...answer.headers,
  });
  if (!(body instanceof JsonChunks)) {
    res.end(body);
    return;
  }
  // The pieces go out in one write with the headers; their buffer is handed back once written (a response that
  // never finishes keeps it: the writer's next answer takes a fresh one).
  res.cork();
  for (let i = 0; i < body.chunks.length - 1; i++) res.write(body.chunks[i]);
  res.end(body.chunks[body.chunks.length - 1], () => body.done());
  res.uncork();
}
