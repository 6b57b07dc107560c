import { preimageBookOf, accountTrieOf, trieRange } from '../../chain/index.js';
import type { DebugAccountRangeParams, DebugAccountRangeResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes } from '../hex.js';
import { cursorKey, maxResultsParam, stateOfBlock } from './block-state.js';

const ZERO_KEY = `0x${'00'.repeat(32)}` as const;

/**
 * One page of the accounts in the block's state trie, in trie (keccak256(address)) order. The txIndex is
 * ignored: the state is the block's post-state. An account whose address the node never saw maps to null.
 */
export async function debug_accountRange(
  [block, , startKey, maxResults]: DebugAccountRangeParams,
  ctx: HandlerContext,
): Promise<DebugAccountRangeResult> {
  const pageSize = maxResultsParam(maxResults, ctx, 'debug_accountRange');
  const state = await stateOfBlock(block, ctx, 'debug_accountRange');
  const book = await preimageBookOf(engineOf(ctx));
  const page = await trieRange(accountTrieOf(state.stateManager), cursorKey(startKey), pageSize);
  const addressMap: Record<string, string | null> = {};
  for (const { key } of page.entries) {
    const address = book.addressOf(key);
    addressMap[hexFromBytes(key)] = address === undefined ? null : hexFromBytes(address);
  }
  return {
    addressMap,
    nextKey: page.next === undefined ? ZERO_KEY : hexFromBytes(page.next),
  } as DebugAccountRangeResult;
}
