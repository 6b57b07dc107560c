/**
 * client.ts: the typed SDK (`svc-node-client`, clients/typescript/, which `svc-node/client` re-exports; the node's own
 * tests use the copy in src/generated/). The runtime part is fixed text; only the method table and the typed member
 * list come from the document. Self-contained: it imports nothing but types.ts, and nothing of Node's, so it runs in
 * browsers too.
 */
import type { Model, MethodModel } from './document.js';
import { oneLine } from './emit-handlers.js';
import { paramsTupleName, propertyKey, quote } from './naming.js';

interface ErrorObject {
  code: number;
  message: string;
}

/** A method's documented errors (`$ref`s into components/errors, or inline objects), in document order. */
function errorsOf(model: Model, method: MethodModel): ErrorObject[] {
  const raw = model.doc.methods.find((m) => m.name === method.name)?.errors;
  if (!Array.isArray(raw)) return [];
  const components = (model.doc.components?.errors ?? {}) as Record<string, ErrorObject>;
  return raw.map((entry: { $ref?: string } & Partial<ErrorObject>) => {
    if (typeof entry.$ref !== 'string') return entry as ErrorObject;
    const found = components[entry.$ref.replace('#/components/errors/', '')];
    if (!found) throw new Error(`${method.name}: unresolved error ${entry.$ref}`);
    return found;
  });
}

/** The member's JSDoc: summary, each param, the result and the errors the document lists. */
function memberDoc(model: Model, m: MethodModel): string[] {
  const lines = [
    oneLine(`\`${m.name}\`${m.summary ? `: ${m.summary}` : ''}${m.transport === 'ws' ? ' (WebSocket only)' : ''}`),
  ];
  if (m.unavailable) lines.push(oneLine(`Not available: ${m.unavailable}`));
  const tags: string[] = [];
  for (const p of m.params) tags.push(oneLine(`@param ${p.required ? p.name : `[${p.name}]`} ${p.description ?? ''}`));
  const result = model.doc.methods.find((d) => d.name === m.name)?.result;
  const resultText = result?.description ?? result?.summary;
  tags.push(oneLine(`@returns ${result?.name ?? 'result'}${resultText ? `: ${resultText}` : ''}`));
  for (const e of errorsOf(model, m)) tags.push(oneLine(`@throws {RpcClientError} ${e.code} ${e.message}`));
  return ['  /**', ...[...lines, '', ...tags].map((l) => (l ? `   * ${l}` : '   *')), '   */'];
}

export function emitClient(model: Model, header: string): string {
  const members = model.methods.flatMap((m) => [
    ...memberDoc(model, m),
    `  ${m.clientName}(...params: T.${paramsTupleName(m.pascal)}): Promise<T.${m.result.typeName}>;`,
  ]);
  const table = model.methods.map((m) => `  ${propertyKey(m.clientName)}: ${quote(m.name)},`);
  return `${header}
import type * as T from './types.js';

/** One typed member per RPC method; the name is the method name with \`/\` and \`.\` replaced by \`_\`. */
export interface RpcMethodsClient {
${members.join('\n')}
}

/** Client member name → JSON-RPC method name. */
const METHOD_NAMES: { readonly [member: string]: string } = {
${table.join('\n')}
};

${RUNTIME}`;
}

const RUNTIME = `export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: number;
  readonly method: string;
  readonly params: readonly unknown[];
}

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface JsonRpcResponse {
  readonly jsonrpc: '2.0';
  readonly id: number | string | null;
  readonly result?: unknown;
  readonly error?: JsonRpcErrorObject;
}

/** Moves JSON-RPC messages. The client assigns ids, matches responses and turns errors into RpcClientError. */
export interface Transport {
  request(message: JsonRpcRequest): Promise<JsonRpcResponse>;
  requestBatch(messages: readonly JsonRpcRequest[]): Promise<readonly JsonRpcResponse[]>;
  close?(): void | Promise<void>;
}

/** A JSON-RPC error answered by the node (transport failures are plain Errors). */
export class RpcClientError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcClientError';
  }
}

/** A request recorded by a batch builder; \`R\` only carries the result type. */
export interface BatchCall<R> {
  readonly method: string;
  readonly params: readonly unknown[];
  /** Never set: a phantom that lets \`batch\` infer each entry's result type. */
  readonly resultType?: R;
}

export type BatchBuilder = {
  readonly [K in keyof RpcMethodsClient]: (
    ...params: Parameters<RpcMethodsClient[K]>
  ) => BatchCall<Awaited<ReturnType<RpcMethodsClient[K]>>>;
};

/** Each entry is the method's result, or the RpcClientError the node answered for that entry. */
export type BatchResults<C extends readonly BatchCall<unknown>[]> = {
  -readonly [I in keyof C]: C[I] extends BatchCall<infer R> ? R | RpcClientError : never;
};

export interface RpcClient extends RpcMethodsClient {
  /** Escape hatch: any method by name. Typed for known methods. */
  request<M extends keyof T.RpcMethods>(method: M, params: T.RpcMethods[M]['params']): Promise<T.RpcMethods[M]['result']>;
  request(method: string, params?: readonly unknown[]): Promise<unknown>;
  /** Sends several calls as one JSON-RPC batch: \`client.batch((b) => [b.eth_chainId(), b.web3_clientVersion()])\`. */
  batch<const C extends readonly BatchCall<unknown>[]>(build: (b: BatchBuilder) => C): Promise<BatchResults<C>>;
  close(): Promise<void>;
}

/** Trailing optional params left undefined are not sent, so the node applies its defaults. */
function trimParams(params: readonly unknown[]): unknown[] {
  const trimmed = [...params];
  while (trimmed.length > 0 && trimmed[trimmed.length - 1] === undefined) trimmed.pop();
  return trimmed;
}

function toError(error: JsonRpcErrorObject): RpcClientError {
  return new RpcClientError(error.code, error.message, error.data);
}

export function createClient(transport: Transport): RpcClient {
  let nextId = 1;
  const message = (method: string, params: readonly unknown[]): JsonRpcRequest => ({
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: trimParams(params),
  });

  async function request(method: string, params: readonly unknown[] = []): Promise<unknown> {
    const response = await transport.request(message(method, params));
    if (response.error) throw toError(response.error);
    return response.result;
  }

  async function batch(build: (b: BatchBuilder) => readonly BatchCall<unknown>[]): Promise<unknown[]> {
    const builder: Record<string, (...params: unknown[]) => BatchCall<unknown>> = {};
    for (const [member, method] of Object.entries(METHOD_NAMES)) builder[member] = (...params) => ({ method, params });
    const calls = build(builder as unknown as BatchBuilder);
    if (calls.length === 0) return [];
    const messages = calls.map((call) => message(call.method, call.params));
    const responses = new Map((await transport.requestBatch(messages)).map((r) => [r.id, r]));
    return messages.map((sent) => {
      const response = responses.get(sent.id);
      if (!response) return new RpcClientError(-32603, \`the batch response has no entry for id \${sent.id}\`);
      return response.error ? toError(response.error) : response.result;
    });
  }

  const client: Record<string, unknown> = {
    request,
    batch,
    close: async () => {
      await transport.close?.();
    },
  };
  for (const [member, method] of Object.entries(METHOD_NAMES)) client[member] = (...params: unknown[]) => request(method, params);
  return client as unknown as RpcClient;
}

type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string },
) => Promise<{ status: number; statusText: string; text(): Promise<string> }>;

export interface HttpTransportOptions {
  /** Defaults to the global fetch (Node 18+, browsers). */
  readonly fetch?: FetchLike;
  readonly headers?: Readonly<Record<string, string>>;
}

/** JSON-RPC over HTTP POST. */
export function httpTransport(url: string, options: HttpTransportOptions = {}): Transport {
  const fetchImpl = options.fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
  if (!fetchImpl) throw new Error('httpTransport: no global fetch; pass options.fetch');
  const headers = { 'content-type': 'application/json', ...options.headers };

  async function post(body: unknown): Promise<unknown> {
    const response = await fetchImpl!(url, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(\`HTTP \${response.status} \${response.statusText}: the body is not JSON\`);
    }
  }

  return {
    request: async (message) => (await post(message)) as JsonRpcResponse,
    requestBatch: async (messages) => {
      const reply = await post(messages);
      if (Array.isArray(reply)) return reply as JsonRpcResponse[];
      // The node answers a batch it rejects as a whole (e.g. too large) with one error object.
      const error = (reply as JsonRpcResponse).error;
      throw error ? toError(error) : new Error('the batch reply is not an array');
    },
  };
}

/** The part of the WebSocket API the transport uses: satisfied by browsers, Node 22+ and the \`ws\` package. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: any) => void): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface WebSocketTransportOptions {
  /** Node 20 has no global WebSocket: pass one, e.g. \`import { WebSocket } from 'ws'\`. */
  readonly WebSocket?: WebSocketConstructor;
}

/** A server-sent JSON-RPC notification, such as \`eth_subscription\`. */
export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: unknown;
}

export interface WebSocketTransport extends Transport {
  /**
   * Calls \`listener\` with each \`eth_subscription\` result for \`subscriptionId\` (from \`eth_subscribe\`);
   * returns a function that stops listening (it does not call \`eth_unsubscribe\`). Notifications that arrive
   * before anyone subscribes (often in the same packet as the eth_subscribe answer) are kept and delivered then.
   */
  subscribe(subscriptionId: string, listener: (result: unknown) => void): () => void;
  /** Every notification, whatever its method. */
  onNotification(listener: (notification: JsonRpcNotification) => void): () => void;
  close(): Promise<void>;
}

const WS_OPEN = 1;
/** Bounds on notifications kept for subscription ids nobody listens to (yet). */
const EARLY_IDS = 64;
const EARLY_PER_ID = 256;

/** JSON-RPC over one WebSocket; requests wait for the connection to open. */
export function webSocketTransport(url: string, options: WebSocketTransportOptions = {}): WebSocketTransport {
  const Socket = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!Socket) throw new Error('webSocketTransport: no global WebSocket; pass options.WebSocket (e.g. from the ws package)');
  const socket = new Socket(url);
  const pending = new Map<number | string, { resolve: (r: JsonRpcResponse) => void; reject: (e: Error) => void }>();
  const subscriptions = new Map<string, Set<(result: unknown) => void>>();
  const notificationListeners = new Set<(notification: JsonRpcNotification) => void>();
  const early = new Map<string, unknown[]>();
  let closedError: Error | undefined;

  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve());
    socket.addEventListener('error', () => reject(new Error(\`WebSocket \${url}: connection failed\`)));
  });
  opened.catch(() => {}); // surfaced through the requests that wait on it

  const rejectPending = (error: Error): void => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  socket.addEventListener('close', () => {
    closedError = new Error(\`WebSocket \${url}: closed\`);
    rejectPending(closedError);
  });
  socket.addEventListener('message', (event: { data: unknown }) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(event.data));
    } catch {
      return; // not JSON-RPC: nothing can be waiting for it
    }
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) dispatch(item as JsonRpcResponse & JsonRpcNotification);
  });

  function dispatch(message: JsonRpcResponse & JsonRpcNotification): void {
    if (message.id === undefined && typeof message.method === 'string') {
      for (const listener of notificationListeners) listener(message);
      const params = message.params as { subscription?: unknown; result?: unknown } | undefined;
      if (message.method === 'eth_subscription' && typeof params?.subscription === 'string') {
        const listeners = subscriptions.get(params.subscription);
        if (listeners) for (const listener of listeners) listener(params.result);
        else keepEarly(params.subscription, params.result);
      }
      return;
    }
    if (message.id === null) {
      // The node could not tell which request failed (e.g. unparsable): fail everything rather than hang.
      rejectPending(message.error ? toError(message.error) : new Error('response without id'));
      return;
    }
    const waiter = pending.get(message.id);
    if (waiter) {
      pending.delete(message.id);
      waiter.resolve(message);
    }
  }

  function keepEarly(subscriptionId: string, result: unknown): void {
    let kept = early.get(subscriptionId);
    if (!kept) {
      if (early.size >= EARLY_IDS) early.delete(early.keys().next().value!);
      early.set(subscriptionId, (kept = []));
    }
    kept.push(result);
    if (kept.length > EARLY_PER_ID) kept.shift();
  }

  async function send(messages: readonly JsonRpcRequest[], payload: unknown): Promise<JsonRpcResponse[]> {
    await opened;
    if (closedError || socket.readyState !== WS_OPEN) throw closedError ?? new Error(\`WebSocket \${url}: not open\`);
    const replies = messages.map(
      (m) => new Promise<JsonRpcResponse>((resolve, reject) => pending.set(m.id, { resolve, reject })),
    );
    socket.send(JSON.stringify(payload));
    return Promise.all(replies);
  }

  const addTo = <V>(set: Set<V>, value: V): (() => void) => {
    set.add(value);
    return () => set.delete(value);
  };

  return {
    request: async (message) => (await send([message], message))[0],
    requestBatch: (messages) => send(messages, messages),
    subscribe(subscriptionId, listener) {
      let listeners = subscriptions.get(subscriptionId);
      if (!listeners) subscriptions.set(subscriptionId, (listeners = new Set()));
      const remove = addTo(listeners, listener);
      const kept = early.get(subscriptionId);
      early.delete(subscriptionId);
      if (kept) queueMicrotask(() => kept.forEach((result) => listener(result)));
      return () => {
        remove();
        if (listeners.size === 0) subscriptions.delete(subscriptionId);
      };
    },
    onNotification: (listener) => addTo(notificationListeners, listener),
    close: async () => {
      if (socket.readyState === WS_OPEN) {
        const closed = new Promise<void>((resolve) => socket.addEventListener('close', () => resolve()));
        socket.close();
        await closed;
      } else socket.close();
    },
  };
}
`;
