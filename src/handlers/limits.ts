/**
 * The answers of the per-request resource caps, each naming the limit, its value and its setting. A query too large
 * to serve (a page or range above its cap) is -32602 (`queryTooLarge`): a smaller one fits and the same one never
 * does, while viem and Foundry retry -32005 as a rate limit. -32005 (`limitExceeded`, `callTimedOut`) stays for
 * what can pass later: execution past `network.rpc.call.timeout` (the engine stops the EVM at the message's deadline
 * and throws `CallTimeoutError`). Caps that answer -32602: eth_getLogs (eth/log-filter.ts), trace_filter
 * (trace/filter.ts), debug_accountRange / debug_storageRangeAt's `maxResults` (debug/block-state.ts),
 * svc_getAccountTransactions' range, and the trace caps on size (struct-log entries, answer bytes; `traceCapCode`).
 * A `gas` above `network.rpc.call.gas-cap` is no error: it runs with the cap.
 */
import type { TraceCap } from '../chain/index.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';

/** `data: { limit, requested }`; a requested value past JS numbers goes as hex. */
export function limitExceeded(
  what: string,
  requested: bigint | number,
  limit: bigint | number,
  setting: string,
): RpcError {
  return new RpcError(ErrorCode.LimitExceeded, `${what} ${requested} is above the limit of ${limit} (${setting})`, {
    limit: Number(limit),
    requested:
      typeof requested === 'bigint' && requested > BigInt(Number.MAX_SAFE_INTEGER)
        ? `0x${requested.toString(16)}`
        : Number(requested),
  });
}

/**
 * A query whose size is over a limit (trace_filter's range or count): -32602 with the same message and data as
 * `limitExceeded`. Not -32005: viem and Foundry retry that code as a rate limit, and the same query never fits; a
 * narrower one does.
 */
export function queryTooLarge(
  what: string,
  requested: bigint | number,
  limit: bigint | number,
  setting: string,
): RpcError {
  const refused = limitExceeded(what, requested, limit, setting);
  return new RpcError(ErrorCode.InvalidParams, refused.message, refused.data);
}

/** `5s`, `1.5s`, `250 ms`: a limit in milliseconds as the setting is usually written. */
function durationText(ms: number): string {
  return ms >= 1000 && ms % 100 === 0 ? `${ms / 1000}s` : `${ms} ms`;
}

export function callTimedOut(method: string, limitMs: number): RpcError {
  return new RpcError(
    ErrorCode.LimitExceeded,
    `${method}: execution aborted after the time limit of ${durationText(limitMs)} (network.rpc.call.timeout)`,
    { limit: limitMs },
  );
}

/**
 * A call refused because `exec.max-queued` calls already wait for an execution worker: -32005, which clients retry
 * with backoff, and a hint of when (the queue drains in well under a second unless the node is overloaded).
 */
export function callQueueFull(method: string, limit: number): RpcError {
  return new RpcError(
    ErrorCode.LimitExceeded,
    `${method}: ${limit} calls are already waiting for an execution worker (exec.max-queued); retry in a moment`,
    { limit, backoffSeconds: 1 },
  );
}

/**
 * The code of a trace stopped by a cap (debug/trace-config.ts, trace/tracing.ts). The struct-log and answer-size caps
 * are deterministic, the same trace always reaches them: -32602. Only the time cap may pass on a quieter node: -32005.
 */
export function traceCapCode(cap: TraceCap): number {
  return cap === 'timeout' ? ErrorCode.LimitExceeded : ErrorCode.InvalidParams;
}
