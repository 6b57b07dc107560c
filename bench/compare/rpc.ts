/**
 * The harness's own JSON-RPC calls (set-up, checks, sequential timings). Load itself comes from autocannon in a
 * separate process (load-generator.ts); this client only prepares and verifies.
 */

/** A method the target does not serve (yet): reported as "n/a" instead of failing the run. */
export class MethodUnavailable extends Error {
  override name = 'MethodUnavailable';
  constructor(
    readonly method: string,
    readonly reason: string,
  ) {
    super(`${method}: ${reason}`);
  }
}

export class RpcFailure extends Error {
  override name = 'RpcFailure';
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method} failed (${code}): ${message}`);
  }
}

// -32004 is svc-node's "not yet available"; -32601 is what every node answers for a method it does not have.
const unavailableCodes = new Set([-32004, -32601]);

interface RpcReply {
  result?: unknown;
  error?: { code: number; message: string };
}

export class RpcClient {
  private nextId = 1;
  constructor(readonly url: string) {}

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const reply = (await this.post({ jsonrpc: '2.0', id: this.nextId++, method, params })) as RpcReply;
    return unwrap<T>(method, reply);
  }

  /** Sends one JSON-RPC batch and returns each result in order (throws on the first error). */
  async batch(calls: ReadonlyArray<{ method: string; params: unknown[] }>): Promise<unknown[]> {
    const first = this.nextId;
    const body = calls.map((c) => ({ jsonrpc: '2.0', id: this.nextId++, method: c.method, params: c.params }));
    const replies = (await this.post(body)) as Array<RpcReply & { id: number }>;
    if (!Array.isArray(replies)) throw new Error(`batch answered with ${JSON.stringify(replies).slice(0, 200)}`);
    const byId = new Map(replies.map((r) => [r.id, r]));
    return calls.map((c, i) => unwrap(c.method, byId.get(first + i) ?? {}));
  }

  /** POSTs a raw body and returns the parsed JSON (also used to check autocannon bodies before a run). */
  async post(body: unknown): Promise<unknown> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`${this.url} answered HTTP ${res.status} with a non-JSON body: ${text.slice(0, 200)}`);
    }
  }
}

function unwrap<T>(method: string, reply: RpcReply): T {
  if (reply.error) {
    if (unavailableCodes.has(reply.error.code)) throw new MethodUnavailable(method, reply.error.message);
    throw new RpcFailure(method, reply.error.code, reply.error.message);
  }
  if (!('result' in reply)) throw new Error(`${method}: reply without result: ${JSON.stringify(reply).slice(0, 200)}`);
  return reply.result as T;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls eth_blockNumber every 20 ms until the node answers; throws if its process exits first. */
export async function waitUntilAnswering(rpc: RpcClient, child: { readonly exitCode: number | null }): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error('the node exited');
    try {
      await rpc.call('eth_blockNumber');
      return;
    } catch {
      await sleep(20);
    }
  }
}

export const toHex = (n: number | bigint) => `0x${n.toString(16)}`;
