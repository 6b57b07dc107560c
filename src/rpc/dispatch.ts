/**
 * JSON-RPC 2.0 dispatch, independent of the transport: text or a parsed body in, a response (or nothing, for
 * notifications) out. HTTP and WebSocket both call it. Order of checks for one request: shape (-32600: not an
 * object, or no "jsonrpc"), version (-32006: "jsonrpc" present but not "2.0"), method known and enabled (-32601,
 * with a "did you mean" for a near miss), transport (-32601), available (-32004), params (-32602, worded by
 * param-errors.ts), then the handler; anything a handler throws that is not an `RpcError` is a fault (-32603, logged).
 */
import type { Handlers } from '../generated/handlers.js';
import type { MethodSpec, Namespace } from '../generated/registry.js';
import type { HandlerContext, Transport } from './context.js';
import { ErrorCode, RpcError, methodNotSupported } from './errors.js';
import type { Logger } from '../node/logger.js';
import { forkUpstreamErrorIn } from '../node/fork/errors.js';
import { UNKNOWN_METHOD, type DispatchObserver } from './observer.js';
import { arityError, paramError } from './param-errors.js';
import { didYouMean, suggestMethods } from './method-suggestion.js';
import { unservedReason } from './unserved-methods.js';
import { type JsonChunks, RawJson, batchBody, responseBody } from './raw-json.js';

export type JsonRpcId = unknown;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
  | { jsonrpc: '2.0'; id: JsonRpcId; error: JsonRpcErrorObject };

export type DispatchOutput = JsonRpcResponse | JsonRpcResponse[] | undefined;

type HandlerFn = (params: unknown[], ctx: HandlerContext) => unknown;

interface Route {
  readonly spec: MethodSpec;
  readonly handler?: HandlerFn;
  readonly enabled: boolean;
}

export interface DispatcherOptions {
  /** The registry's `methods`. */
  readonly methods: { readonly [name: string]: MethodSpec };
  readonly handlers: Handlers<HandlerContext>;
  readonly enabledNamespaces: ReadonlySet<Namespace>;
  readonly maxBatchSize: number;
  /** Check results against their schemas (dev/test); a mismatch is a fault. */
  readonly validateResults: boolean;
  readonly log: Logger;
  /** Told about every call of a method (metrics); absent, the dispatcher does not even read the clock. */
  readonly observer?: DispatchObserver;
  /**
   * The answer (-40100, saying what to send or set) to a caller without a credential for a method only authenticated
   * callers may call; undefined for a method open to all. Asked when the context does not say `authenticated: true`
   * (authentication off, or on and no credential given).
   */
  readonly refuseAnonymous?: (spec: MethodSpec) => JsonRpcErrorObject | undefined;
}

/** A value, or a promise of it when some handler involved is async (callers `await` only then). */
export type Maybe<T> = T | Promise<T>;

export interface Dispatcher {
  /** Parses `text` (a -32700 answer when it is not JSON) and dispatches it. */
  handleText(text: string, ctx: HandlerContext): Maybe<DispatchOutput>;
  /** Dispatches an already parsed body: a request object or a batch array. */
  handle(body: unknown, ctx: HandlerContext): Maybe<DispatchOutput>;
  /**
   * JSON of a response, as text, or as UTF-8 bytes when a result came as bytes (a struct-logger trace: RawJson;
   * a single answer's in pieces, to be released once written); a result JSON cannot encode (e.g. a bigint) becomes
   * a logged -32603.
   */
  serialize(output: JsonRpcResponse | JsonRpcResponse[]): string | Buffer | JsonChunks;
}

const errorResponse = (id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

const invalidRequest = (id: JsonRpcId, why: string) =>
  errorResponse(id, ErrorCode.InvalidRequest, `Invalid request: ${why}`);

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { log, maxBatchSize, validateResults, observer, refuseAnonymous } = options;
  const routes = buildRoutes(options);
  const enabledNames = [...routes].filter(([, route]) => route.enabled).map(([name]) => name);
  let faultCounter = 0;

  /** Logs a real fault under a fresh id and returns the only thing the client learns about it. */
  const fault = (id: JsonRpcId, method: string, err: unknown): JsonRpcResponse => {
    const requestId = `${process.pid.toString(36)}-${(++faultCounter).toString(36)}`;
    log.error('internal error while handling a request', { requestId, method, error: err });
    return errorResponse(id, ErrorCode.InternalError, `Internal error (request id ${requestId})`);
  };

  /** Synchronous unless the handler is async: a sync handler's answer costs no promise or microtask. */
  function handleOne(request: unknown, ctx: HandlerContext): Maybe<JsonRpcResponse | undefined> {
    if (request === null || typeof request !== 'object' || Array.isArray(request)) {
      return invalidRequest(null, 'expected a JSON-RPC request object');
    }
    const req = request as Record<string, unknown>;
    const isNotification = !('id' in req);
    const id = isNotification ? null : req.id;
    // Any JSON id is echoed (as geth does), but one nested too deep cannot be: JSON.stringify would overflow the
    // stack writing the answer (found by the fuzzer: a 50,000-deep id crashed the node over WebSocket).
    if (nestsDeeperThan(id, MAX_ID_DEPTH)) return invalidRequest(null, `"id" nests deeper than ${MAX_ID_DEPTH} levels`);
    // An object without "jsonrpc" is not a request at all (e.g. {"foo":1} in a batch); -32006 is for a request
    // that names another version.
    if (!('jsonrpc' in req)) return invalidRequest(id, 'expected a JSON-RPC request object with "jsonrpc": "2.0"');
    if (req.jsonrpc !== '2.0') {
      return errorResponse(id, ErrorCode.VersionNotSupported, 'Unsupported JSON-RPC version: "jsonrpc" must be "2.0"');
    }
    const method = req.method;
    if (typeof method !== 'string') return invalidRequest(id, '"method" must be a string');
    const rawParams = req.params;
    let params: unknown[];
    if (rawParams === undefined) params = [];
    else if (Array.isArray(rawParams)) params = rawParams;
    else if (rawParams !== null && typeof rawParams === 'object') {
      return isNotification
        ? undefined
        : errorResponse(
            id,
            ErrorCode.InvalidParams,
            'invalid params: this node takes parameters by position; send "params" as an array',
          );
    } else return invalidRequest(id, '"params" must be an array');

    const outcome = observer === undefined ? run(method, params, ctx, id) : observed(observer, method, params, ctx, id);
    if (!isNotification) return outcome;
    return outcome instanceof Promise ? outcome.then(() => undefined) : undefined;
  }

  /**
   * `run`, timed and reported to the observer (a separate path, so that without one nothing is added). The sync
   * path allocates no closure: one per call measured about 0.5 µs on eth_chainId (bench/metrics-overhead.ts).
   */
  function observed(
    obs: DispatchObserver,
    method: string,
    params: unknown[],
    ctx: HandlerContext,
    id: JsonRpcId,
  ): Maybe<JsonRpcResponse> {
    const started = performance.now();
    const outcome = run(method, params, ctx, id);
    if (outcome instanceof Promise)
      return outcome.then((response) => report(obs, method, ctx.transport, started, response));
    return report(obs, method, ctx.transport, started, outcome);
  }

  function report(
    obs: DispatchObserver,
    method: string,
    transport: Transport,
    started: number,
    response: JsonRpcResponse,
  ): JsonRpcResponse {
    const error = (response as { error?: JsonRpcErrorObject }).error;
    obs.observe(
      routes.has(method) ? method : UNKNOWN_METHOD,
      transport,
      (performance.now() - started) / 1000,
      error === undefined ? undefined : error.code,
    );
    return response;
  }

  function run(method: string, params: unknown[], ctx: HandlerContext, id: JsonRpcId): Maybe<JsonRpcResponse> {
    const route = routes.get(method);
    if (route === undefined) return unknownMethod(id, method);
    const { spec } = route;
    if (!route.enabled) {
      return errorResponse(
        id,
        ErrorCode.MethodNotFound,
        `the method ${method} does not exist/is not available: the ${spec.namespace} namespace is not enabled on ` +
          `this node (add it to network.rpc.apis, --apis)`,
      );
    }
    if (ctx.authenticated !== true && refuseAnonymous !== undefined) {
      const refusal = refuseAnonymous(spec);
      if (refusal !== undefined) return { jsonrpc: '2.0', id, error: refusal };
    }
    if (spec.transport === 'ws' && ctx.transport !== 'ws') {
      return errorResponse(
        id,
        ErrorCode.MethodNotFound,
        `the method ${method} is only available over WebSocket (connect to /ws)`,
      );
    }
    if (spec.unavailable !== undefined || route.handler === undefined) {
      return { jsonrpc: '2.0', id, error: methodNotSupported(method, spec.unavailable).toJSON() };
    }
    // Inside the try too: checking and wording hostile params must never throw past the transports.
    let result: unknown;
    try {
      const paramError = checkParams(spec, params);
      if (paramError) return { jsonrpc: '2.0', id, error: paramError.toJSON() };
      result = route.handler(params, ctx);
    } catch (err) {
      return failure(id, method, err);
    }
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => success(spec, id, value),
        (err: unknown) => failure(id, method, err),
      );
    }
    return success(spec, id, result);
  }

  /**
   * geth's text, plus the served method the name is one slip away from; a near miss of a method whose namespace is
   * off says so, since the right spelling would still be refused.
   */
  function unknownMethod(id: JsonRpcId, method: string): JsonRpcResponse {
    const base = `the method ${method} does not exist/is not available`;
    const why = unservedReason(method);
    if (why !== undefined)
      return errorResponse(id, ErrorCode.MethodNotFound, `${base}: svc-node does not serve it; ${why}`);
    const enabled = suggestMethods(method, enabledNames);
    if (enabled.length > 0) return errorResponse(id, ErrorCode.MethodNotFound, base + didYouMean(enabled));
    const [disabled] = suggestMethods(method, routes.keys());
    if (disabled === undefined) return errorResponse(id, ErrorCode.MethodNotFound, base);
    const { namespace } = routes.get(disabled)!.spec;
    return errorResponse(
      id,
      ErrorCode.MethodNotFound,
      `${base}; did you mean ${disabled}? (the ${namespace} namespace is not enabled on this node: add it to ` +
        'network.rpc.apis, --apis)',
    );
  }

  function success(spec: MethodSpec, id: JsonRpcId, value: unknown): JsonRpcResponse {
    const result = value === undefined ? null : value;
    if (validateResults) {
      const reason = spec.checkResult(result instanceof RawJson ? JSON.parse(result.text) : result);
      if (reason !== undefined) {
        return fault(id, spec.name, new Error(`result of ${spec.name} does not match its schema: ${reason}`));
      }
    }
    return { jsonrpc: '2.0', id, result };
  }

  function failure(id: JsonRpcId, method: string, err: unknown): JsonRpcResponse {
    if (err instanceof RpcError) return { jsonrpc: '2.0', id, error: err.toJSON() };
    // A fork's upstream failing is no fault of this node: the caller learns what failed, and gets no value.
    const upstream = forkUpstreamErrorIn(err);
    if (upstream !== undefined)
      return { jsonrpc: '2.0', id, error: { code: ErrorCode.ServerError, message: upstream.message } };
    return fault(id, method, err);
  }

  function handle(body: unknown, ctx: HandlerContext): Maybe<DispatchOutput> {
    if (!Array.isArray(body)) return handleOne(body, ctx);
    if (body.length === 0) return invalidRequest(null, 'empty batch');
    if (body.length > maxBatchSize) {
      return invalidRequest(
        null,
        `batch too large: ${body.length} requests, at most ${maxBatchSize} allowed (network.rpc.max-batch-size)`,
      );
    }
    return handleBatch(body, ctx);
  }

  /** Sequential on purpose: a batch of writes (e.g. transactions with consecutive nonces) keeps its order. */
  async function handleBatch(batch: unknown[], ctx: HandlerContext): Promise<DispatchOutput> {
    const responses: JsonRpcResponse[] = [];
    const deferred: Promise<unknown>[] = [];
    const batchCtx: HandlerContext = { ...ctx, afterBatch: (work) => deferred.push(work) };
    for (const request of batch) {
      let response = handleOne(request, batchCtx);
      if (response instanceof Promise) response = await response;
      if (response !== undefined) responses.push(response);
    }
    await Promise.allSettled(deferred);
    return responses.length === 0 ? undefined : responses;
  }

  return {
    handle,
    handleText(text, ctx) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return errorResponse(null, ErrorCode.ParseError, 'Parse error: the request body is not valid JSON');
      }
      return handle(body, ctx);
    },
    serialize(output) {
      try {
        if (!Array.isArray(output)) return responseBody(output);
        if (!output.some((r) => 'result' in r && r.result instanceof RawJson)) return JSON.stringify(output);
        return batchBody(output.map(responseBody));
      } catch {
        // Rare: find the responses that cannot be encoded and replace only those.
        const one = (r: JsonRpcResponse): JsonRpcResponse => {
          try {
            JSON.stringify(r);
            return r;
          } catch (e) {
            // Serializing must never throw (an exception here escapes the transports); ids are checked on the
            // way in, but an id that still cannot be written is replaced by null rather than echoed.
            const answer = fault(r.id, 'result serialization', e);
            try {
              JSON.stringify(answer);
              return answer;
            } catch {
              return { ...answer, id: null };
            }
          }
        };
        return JSON.stringify(Array.isArray(output) ? output.map(one) : one(output));
      }
    },
  };
}

function buildRoutes(options: DispatcherOptions): Map<string, Route> {
  const table = options.handlers as unknown as Record<string, Record<string, HandlerFn> | undefined>;
  const routes = new Map<string, Route>();
  for (const spec of Object.values(options.methods)) {
    const handler = table[spec.namespace]?.[spec.name];
    if (spec.unavailable === undefined && typeof handler !== 'function') {
      throw new Error(`method ${spec.name} is available in the registry but has no handler`);
    }
    routes.set(spec.name, {
      spec,
      handler: typeof handler === 'function' ? handler : undefined,
      enabled: options.enabledNamespaces.has(spec.namespace),
    });
  }
  return routes;
}

/** How deep a request id may nest (objects and arrays) and still be echoed. */
export const MAX_ID_DEPTH = 64;

/** Whether `value` nests objects/arrays deeper than `limit`; iterative, so a hostile depth cannot overflow it. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (const child of Object.values(node as object)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Arity, then each param against its compiled validator. Trailing optional params may be omitted; an explicit
 * `null` for an optional param whose schema rejects null counts as omitted (what geth does).
 */
export function checkParams(spec: MethodSpec, params: unknown[]): RpcError | undefined {
  if (params.length < spec.requiredParams || params.length > spec.params.length) {
    return arityError(spec, params.length);
  }
  for (let i = 0; i < params.length; i++) {
    const param = spec.params[i]!;
    const value = params[i];
    if (value === undefined) continue;
    const problem = param.check(value);
    if (problem === undefined) continue;
    if (value === null && !param.required) {
      params[i] = undefined;
      continue;
    }
    return paramError(param, i, problem);
  }
  return undefined;
}
