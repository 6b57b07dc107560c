/** Small raw JSON-RPC clients for the tests: exact control over bytes, headers and status codes. */
import WebSocket from 'ws';

export interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed body, or undefined when empty / not JSON. */
  readonly body: any;
}

export async function post(
  url: string,
  body: unknown,
  init: { headers?: Record<string, string>; raw?: boolean } = {},
): Promise<RawResponse> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.raw ? (body as string) : JSON.stringify(body),
  });
  return readResponse(res);
}

export async function readResponse(res: Response): Promise<RawResponse> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** `{jsonrpc, id, method, params}` */
export const request = (method: string, params?: unknown[], id: unknown = 1) =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };

/** A WebSocket that answers one request at a time: send text, await the next message. */
export class WsClient {
  private readonly queue: string[] = [];
  private readonly waiters: Array<(text: string) => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const text = data.toString();
      const waiter = this.waiters.shift();
      if (waiter) waiter(text);
      else this.queue.push(text);
    });
  }

  static open(url: string, options?: WebSocket.ClientOptions): Promise<WsClient> {
    const socket = new WebSocket(url, options);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
    });
  }

  next(timeoutMs = 5_000): Promise<any> {
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(JSON.parse(queued));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no WebSocket message')), timeoutMs);
      this.waiters.push((text) => {
        clearTimeout(timer);
        resolve(JSON.parse(text));
      });
    });
  }

  send(body: unknown, raw = false): void {
    this.socket.send(raw ? (body as string) : JSON.stringify(body));
  }

  async call(body: unknown, raw = false): Promise<any> {
    this.send(body, raw);
    return this.next();
  }

  close(): void {
    this.socket.close();
  }
}

/** A JSON-RPC error answer, thrown by the scripts' clients (conformance runner, crash loop) with its code. */
export class RpcCallError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method}: ${code} ${message}`);
    this.name = 'RpcCallError';
  }
}

/** One JSON-RPC call over HTTP (given up after `timeoutMs`); a JSON-RPC error is thrown as an `RpcCallError`. */
export async function call<T = any>(
  url: string,
  method: string,
  params: unknown[] = [],
  timeoutMs = 60_000,
): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw new RpcCallError(method, body.error.code, body.error.message);
  return body.result as T;
}

/**
 * The results of `reads`, in order, asked in JSON-RPC batches of `perBatch` (one POST per batch instead of one per
 * read: far less CPU on both sides when a test reads hundreds of values); any error answer throws, as `call` does.
 */
export async function callBatch(
  url: string,
  reads: ReadonlyArray<readonly [method: string, params: readonly unknown[]]>,
  perBatch = 500,
): Promise<unknown[]> {
  const results: unknown[] = [];
  for (let start = 0; start < reads.length; start += perBatch) {
    const batch = reads.slice(start, start + perBatch).map(([method, params], i) => request(method, [...params], i));
    const res = await post(url, batch);
    if (!Array.isArray(res.body)) throw new Error(`batch answered ${res.status}: ${res.text.slice(0, 300)}`);
    const answers = res.body as Array<{ id: number; result?: unknown; error?: { code: number; message: string } }>;
    if (answers.length !== batch.length) throw new Error(`${answers.length} answers to a batch of ${batch.length}`);
    for (const a of answers.sort((x, y) => x.id - y.id)) {
      if (a.error) throw new RpcCallError(batch[a.id]!.method, a.error.code, a.error.message);
      results.push(a.result);
    }
  }
  return results;
}
