/** JSON-RPC over HTTP for the crash loop: single calls that throw on an error, and batches that keep every answer. */

import { call } from '../../test/helpers/rpc.js';

/** A single call that throws on an error (`RpcCallError`). */
export const rpc = call;

let nextId = 1;

async function post(url: string, body: unknown, timeoutMs: number): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return res.json();
}

type Answer = { id?: number; result?: unknown; error?: { code: number; message: string } };

export type BatchAnswer<T> = { ok: true; result: T } | { ok: false; error: string };

/** One JSON-RPC batch; answers in request order. */
export async function rpcBatch<T = any>(
  url: string,
  calls: readonly (readonly [string, unknown[]])[],
  timeoutMs = 60_000,
): Promise<BatchAnswer<T>[]> {
  if (calls.length === 0) return [];
  const first = nextId;
  nextId += calls.length;
  const answers = (await post(
    url,
    calls.map(([method, params], i) => ({ jsonrpc: '2.0', id: first + i, method, params })),
    timeoutMs,
  )) as Answer[];
  const byId = new Map(answers.map((a) => [a.id, a]));
  return calls.map(([method], i) => {
    const a = byId.get(first + i);
    if (a === undefined) return { ok: false, error: `${method}: no answer in the batch` };
    if (a.error) return { ok: false, error: `${method}: ${a.error.code} ${a.error.message}` };
    return { ok: true, result: a.result as T };
  });
}

/** Batches of at most `size` calls, one after another. */
export async function rpcChunked<T = any>(
  url: string,
  calls: readonly (readonly [string, unknown[]])[],
  size = 200,
): Promise<BatchAnswer<T>[]> {
  const out: BatchAnswer<T>[] = [];
  for (let i = 0; i < calls.length; i += size) out.push(...(await rpcBatch<T>(url, calls.slice(i, i + size))));
  return out;
}

export const toQuantity = (n: number | bigint): string => `0x${n.toString(16)}`;
