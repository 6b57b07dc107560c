/**
 * Sends fuzz cases over HTTP and WebSocket and judges each answer against the pass rule: every answer is
 * JSON-RPC (or a documented transport status carrying a JSON-RPC error), and none is -32603.
 */
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import WebSocket from 'ws';
import type { FuzzCase } from './cases.js';

/** HTTP statuses the operating guide documents for refusals ("HTTP endpoints"), besides 200 and 204. */
const TRANSPORT_STATUSES = new Set([403, 413, 415, 429]);
const INTERNAL_ERROR = -32603;

export interface Verdict {
  /** What came back, for the histogram: `result`, `error <code>`, `http <status>`, `ws close <code>`, `no answer expected`. */
  readonly outcomes: string[];
  /** Why the answer breaks the pass rule; undefined when it does not. */
  readonly failure?: string;
  /** Error codes -32603 found, with their messages (they carry the node's log request id). */
  readonly internalErrors: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Checks one JSON-RPC response object; returns why it is not one, or records its outcome. */
function judgeResponse(value: unknown, outcomes: string[], internal: string[]): string | undefined {
  if (!isObject(value)) return 'not a JSON object';
  if (value.jsonrpc !== '2.0') return 'no "jsonrpc": "2.0"';
  if (!('id' in value)) return 'no "id"';
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) return 'must have exactly one of "result" and "error"';
  if (hasResult) {
    outcomes.push('result');
    return undefined;
  }
  const error = value.error;
  if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string')
    return 'malformed "error" member';
  outcomes.push(`error ${String(error.code)}`);
  if (error.code === INTERNAL_ERROR) internal.push(error.message);
  return undefined;
}

/** A JSON-RPC answer body: one response, or (batch) a non-empty array of them. */
export function judgeBody(
  text: string,
  allowBatch: boolean,
  outcomes: string[],
  internal: string[],
): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `answer is not JSON: ${JSON.stringify(text.slice(0, 200))}`;
  }
  if (Array.isArray(parsed)) {
    if (!allowBatch) return 'a batch answer where a single one was due';
    if (parsed.length === 0) return 'empty batch answer';
    for (const item of parsed) {
      const why = judgeResponse(item, outcomes, internal);
      if (why) return `batch item: ${why}`;
    }
    return undefined;
  }
  return judgeResponse(parsed, outcomes, internal);
}

const finish = (outcomes: string[], internal: string[], failure?: string): Verdict => ({
  outcomes,
  internalErrors: internal,
  failure: failure ?? (internal.length > 0 ? `-32603: ${internal.join('; ')}` : undefined),
});

export class HttpSender {
  private readonly agent: Agent;

  constructor(
    private readonly url: URL,
    sockets: number,
    private readonly timeoutMs: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  send(c: FuzzCase): Promise<Verdict> {
    if (c.kind === 'cut-connection') return this.cut(c);
    return new Promise((resolve) => {
      const body = typeof c.body === 'string' ? Buffer.from(c.body) : c.body;
      const headers: Record<string, string | number> = { 'content-length': body.length };
      if (c.contentType !== null) headers['content-type'] = c.contentType;
      const req = httpRequest(
        this.url,
        { method: 'POST', agent: this.agent, headers, timeout: this.timeoutMs },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', (err) => resolve(finish([], [], `response error: ${err.message}`)));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString('utf8');
            const outcomes = [`http ${status}`];
            const internal: string[] = [];
            if (status === 204)
              return resolve(finish(outcomes, internal, text === '' ? undefined : 'HTTP 204 with a body'));
            if (status !== 200 && !TRANSPORT_STATUSES.has(status)) {
              return resolve(
                finish(outcomes, internal, `HTTP ${status} is not a documented status: ${text.slice(0, 200)}`),
              );
            }
            resolve(finish(outcomes, internal, judgeBody(text, status === 200, outcomes, internal)));
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', (err) => resolve(finish([], [], `request failed: ${err.message}`)));
      req.end(body);
    });
  }

  /** Declares a longer body than it sends, then closes: the node has nothing to answer and must carry on. */
  private cut(c: FuzzCase): Promise<Verdict> {
    return new Promise((resolve) => {
      const body = Buffer.from(c.body);
      const socket = connect(Number(this.url.port), this.url.hostname, () => {
        socket.write(
          `POST / HTTP/1.1\r\nHost: ${this.url.host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 100}\r\n\r\n`,
        );
        socket.write(body.subarray(0, Math.floor(body.length / 2)));
        setTimeout(() => socket.destroy(), 5);
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(finish(['no answer expected'], [])));
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

const isSubscriptionNotification = (v: unknown): boolean =>
  isObject(v) && v.jsonrpc === '2.0' && v.method === 'eth_subscription' && isObject(v.params) && !('id' in v);

/**
 * One WebSocket connection that sends a case followed by a sentinel request and reads until the sentinel's answer:
 * every message before it must be JSON-RPC. A case's answer may come after the sentinel's (async handlers); it is
 * then judged with the next case, which is what matters for the pass rule.
 */
export class WsSender {
  private socket: WebSocket | undefined;
  private sentinel = 0;
  private waiting: ((event: { message?: string; close?: number }) => void) | undefined;
  private readonly backlog: Array<{ message?: string; close?: number }> = [];

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  private async open(): Promise<WebSocket> {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) return this.socket;
    const socket = new WebSocket(this.url, { maxPayload: 256 * 1024 * 1024 });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    socket.on('error', () => undefined);
    this.backlog.length = 0;
    // Events of a socket already given up (timed out, terminated) must not be read as the new one's.
    socket.on('message', (data) => this.socket === socket && this.deliver({ message: data.toString() }));
    socket.on('close', (code) => this.socket === socket && this.deliver({ close: code }));
    this.socket = socket;
    return socket;
  }

  private deliver(event: { message?: string; close?: number }): void {
    const waiter = this.waiting;
    if (waiter) {
      this.waiting = undefined;
      waiter(event);
    } else this.backlog.push(event);
  }

  private next(): Promise<{ message?: string; close?: number; timeout?: true }> {
    const queued = this.backlog.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        resolve({ timeout: true });
      }, this.timeoutMs);
      this.waiting = (event) => {
        clearTimeout(timer);
        resolve(event);
      };
    });
  }

  /** The case sent before on this connection: a late answer judged with `c` may be its answer. */
  private previous: FuzzCase | undefined;

  async send(c: FuzzCase): Promise<Verdict> {
    const verdict = await this.exchange(c);
    const before = this.previous;
    this.previous = c;
    if (verdict.failure === undefined || before === undefined) return verdict;
    return {
      ...verdict,
      failure: `${verdict.failure} (the answer may be to the case before on this connection: #${before.index} ${before.kind} ${before.method})`,
    };
  }

  private async exchange(c: FuzzCase): Promise<Verdict> {
    let socket: WebSocket;
    try {
      socket = await this.open();
    } catch (err) {
      return finish([], [], `WebSocket connect failed: ${(err as Error).message}`);
    }
    const sentinelId = `fuzz-sentinel-${++this.sentinel}`;
    socket.send(c.body, { binary: false });
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: sentinelId, method: 'eth_chainId', params: [] }));
    const outcomes: string[] = [];
    const internal: string[] = [];
    for (;;) {
      const event = await this.next();
      if (event.timeout) {
        this.drop();
        return finish(outcomes, internal, `no answer to the sentinel within ${this.timeoutMs} ms`);
      }
      if (event.close !== undefined) {
        this.socket = undefined;
        outcomes.push(`ws close ${event.close}`);
        // The WebSocket protocol's own answers: 1007 for a text frame that is not UTF-8, 1009 for one over the size limit.
        const expected =
          (event.close === 1007 && Buffer.isBuffer(c.body)) || (event.close === 1009 && c.body.length > 1_000_000);
        return finish(outcomes, internal, expected ? undefined : `WebSocket closed with ${event.close}`);
      }
      const text = event.message!;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return finish(outcomes, internal, `WebSocket message is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
      }
      if (isObject(parsed) && parsed.id === sentinelId) {
        return finish(outcomes, internal, judgeResponse(parsed, [], internal));
      }
      if (isSubscriptionNotification(parsed)) continue;
      const why = judgeBody(text, true, outcomes, internal);
      if (why) return finish(outcomes, internal, why);
    }
  }

  private drop(): void {
    this.socket?.terminate();
    this.socket = undefined;
  }

  close(): void {
    this.drop();
  }
}
