/**
 * Per-request resource caps that sit in front of handlers, in one place so each limit answers the same way:
 * -32005 with a message naming the limit, its value and its setting, and `data: { limit, requested }`.
 *
 * - eth_call / eth_estimateGas: a `gas` above `network.rpc.call.gas-cap`, and execution past
 *   `network.rpc.call.timeout` (the handlers give the message its deadline, the engine stops the EVM at it and
 *   throws `CallTimeoutError`, answered here).
 * - debug_accountRange / debug_storageRangeAt: a `maxResults` above `network.rpc.debug.max-range-results`, which
 *   would otherwise build one answer as large as the state.
 * Values the schema admits but no integer can be are left to the handler (it answers -32602 naming the param).
 */
import { CallTimeoutError } from '../chain/exec/call-deadline.js';
import type { Handlers } from '../generated/handlers.js';
import { ErrorCode, RpcError } from '../server/errors.js';
import type { HandlerContext } from './context.js';

type Fn = (params: unknown[], ctx: HandlerContext) => unknown;

export function limitExceeded(what: string, requested: bigint | number, limit: bigint | number, setting: string): RpcError {
  return new RpcError(ErrorCode.LimitExceeded, `${what} ${requested} is above the limit of ${limit} (${setting})`, {
    limit: Number(limit),
    requested: typeof requested === 'bigint' && requested > BigInt(Number.MAX_SAFE_INTEGER) ? `0x${requested.toString(16)}` : Number(requested),
  });
}

/** A quantity as hex (`0x…`), decimal string or JSON number; undefined when it is not a non-negative integer. */
function quantityOf(value: unknown): bigint | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  if (typeof value !== 'string') return undefined;
  if (/^0x[0-9a-fA-F]{1,64}$/.test(value) || /^[0-9]{1,78}$/.test(value)) return BigInt(value);
  return undefined;
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

function gasCapped(handler: Fn, method: string): Fn {
  return async (params, ctx) => {
    const request = params[0] as { gas?: unknown } | undefined;
    const gas = request?.gas === undefined ? undefined : quantityOf(request.gas);
    const cap = ctx.node.config.rpc.call.gasCap;
    if (gas !== undefined && gas > cap) throw limitExceeded(`${method}: gas`, gas, cap, 'network.rpc.call.gas-cap');
    try {
      return await handler(params, ctx);
    } catch (err) {
      if (err instanceof CallTimeoutError) throw callTimedOut(method, err.limitMs);
      throw err;
    }
  };
}

function rangeCapped(handler: Fn, method: string, index: number): Fn {
  return (params, ctx) => {
    const requested = quantityOf(params[index]);
    const cap = ctx.node.config.rpc.debug.maxRangeResults;
    // Only integers the handler could otherwise serve: larger ones get its own -32602.
    if (requested !== undefined && requested <= BigInt(Number.MAX_SAFE_INTEGER) && requested > BigInt(cap)) {
      throw limitExceeded(`${method}: maxResults`, requested, cap, 'network.rpc.debug.max-range-results');
    }
    return handler(params, ctx);
  };
}

/** The handler table with the caps in front of the methods they concern (same shape, for the dispatcher). */
export function withLimits(handlers: Handlers<HandlerContext>): Handlers<HandlerContext> {
  const eth = handlers.eth as unknown as Record<string, Fn>;
  const debug = handlers.debug as unknown as Record<string, Fn>;
  return {
    ...handlers,
    eth: {
      ...handlers.eth,
      eth_call: gasCapped(eth.eth_call!, 'eth_call'),
      eth_estimateGas: gasCapped(eth.eth_estimateGas!, 'eth_estimateGas'),
    } as Handlers<HandlerContext>['eth'],
    debug: {
      ...handlers.debug,
      debug_accountRange: rangeCapped(debug.debug_accountRange!, 'debug_accountRange', 3),
      debug_storageRangeAt: rangeCapped(debug.debug_storageRangeAt!, 'debug_storageRangeAt', 4),
    } as Handlers<HandlerContext>['debug'],
  };
}
