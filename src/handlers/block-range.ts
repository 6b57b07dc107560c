/**
 * A fromBlock..toBlock range that cannot mean anything (eth_getLogs, eth_newFilter, trace_filter): -32602 with geth's
 * words first, so a client matching on geth's text still matches, then what was given, so a person sees the slip.
 * geth answers "invalid block range params" when fromBlock is after toBlock and "block range extends beyond current
 * head block" when the range reaches past the head (eth/filters/filter.go); a range that starts at or below the head
 * and ends past it is cut at the head here instead, as core-geth and this node always did.
 */
import type { BlockNumberOrTag } from '../generated/types.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';
import { toQuantity } from './hex.js';

/** One bound as the caller gave it, and the height it stands for now. */
export interface RangeBound {
  readonly given: BlockNumberOrTag | undefined;
  readonly height: bigint;
}

/** A tag (or an absent bound) is shown with the height it resolved to; a number as it is. */
function shown(name: string, bound: RangeBound): string {
  const height = toQuantity(bound.height);
  if (bound.given === undefined) return `${name} (absent: latest, ${height})`;
  return bound.given.startsWith('0x') ? `${name} ${height}` : `${name} "${bound.given}" (${height})`;
}

/** -32602 when fromBlock is after toBlock, or when the whole range lies past the head; otherwise nothing. */
export function checkBlockRange(method: string, from: RangeBound, to: RangeBound, head: bigint): void {
  if (from.height > to.height) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `invalid block range params: ${method} got ${shown('fromBlock', from)} after ${shown('toBlock', to)}; ` +
        'fromBlock must not be after toBlock',
      { fromBlock: toQuantity(from.height), toBlock: toQuantity(to.height) },
    );
  }
  if (from.height > head) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `block range extends beyond current head block: ${method} got ${shown('fromBlock', from)}, past the head ` +
        `${toQuantity(head)}; no block of the range exists yet`,
      { fromBlock: toQuantity(from.height), head: toQuantity(head) },
    );
  }
}
