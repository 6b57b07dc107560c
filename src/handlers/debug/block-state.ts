/** The post-state of the block a retesteth dump names: a block hash, or a number in any TestQuantity form. */
import type { StateView } from '../../chain/index.js';
import type { TestBlockHashOrNumber } from '../../generated/types.js';
import { blockNotFound, engineOf, heldState } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex } from '../hex.js';
import { queryTooLarge } from '../limits.js';
import { quantityNumberParam, quantityParam } from '../test-quantity.js';

export async function stateOfBlock(
  ref: TestBlockHashOrNumber,
  ctx: HandlerContext,
  method: string,
): Promise<StateView> {
  const chain = engineOf(ctx).chain;
  const isHash = typeof ref === 'string' && /^0x[0-9a-fA-F]{64}$/.test(ref);
  const state = await heldState(chain.stateAt(isHash ? bytesFromHex(ref) : quantityParam(ref, method, 'block')));
  if (state === undefined) throw blockNotFound(String(ref));
  return state;
}

/** A 32-byte trie key from the caller's cursor (shorter input is left-padded, as retesteth's 0x00…01 start is). */
export function cursorKey(hex: string): Uint8Array {
  const bytes = bytesFromHex(hex.length % 2 === 1 ? `0x0${hex.slice(2)}` : hex);
  const key = new Uint8Array(32);
  key.set(bytes.subarray(Math.max(0, bytes.length - 32)), Math.max(0, 32 - bytes.length));
  return key;
}

/**
 * A range dump's `maxResults`: a page size that fits a JS number (else -32602), at most
 * `network.rpc.debug.max-range-results` (else -32602 naming the limit: a smaller page fits, the same one never does),
 * which keeps one answer from being as large as the state.
 */
export function maxResultsParam(value: number | string | bigint, ctx: HandlerContext, method: string): number {
  const requested = quantityNumberParam(value, method, 'maxResults');
  const cap = ctx.node.config.rpc.debug.maxRangeResults;
  if (requested > cap)
    throw queryTooLarge(`${method}: maxResults`, requested, cap, 'network.rpc.debug.max-range-results');
  return requested;
}
