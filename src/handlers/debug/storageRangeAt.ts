import { RLP } from '@ethereumjs/rlp';
import { storageTrieOf, trieRange, fixedSlotOf } from '../../chain/index.js';
import type { DebugStorageRangeAtParams, DebugStorageRangeAtResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';
import { cursorKey, maxResultsParam, stateOfBlock } from './block-state.js';

const pad32 = (bytes: Uint8Array): Uint8Array => {
  const out = new Uint8Array(32);
  out.set(bytes.subarray(Math.max(0, bytes.length - 32)), Math.max(0, 32 - bytes.length));
  return out;
};

/** One page of an account's storage trie at the block's post-state, keyed by keccak256(slot); zero values do not exist in the trie. */
export async function debug_storageRangeAt(
  [block, , address, begin, maxResults]: DebugStorageRangeAtParams,
  ctx: HandlerContext,
): Promise<DebugStorageRangeAtResult> {
  const pageSize = maxResultsParam(maxResults, ctx, 'debug_storageRangeAt');
  const state = await stateOfBlock(block, ctx, 'debug_storageRangeAt');
  const trie = await storageTrieOf(state.stateManager, bytesFromHex(address));
  const page = await trieRange(trie, cursorKey(begin), pageSize);
  const storage: DebugStorageRangeAtResult['storage'] = {};
  for (const { key, value } of page.entries) {
    // The fixed slots (0 … 4095) are named; other slots (mapping entries) are listed with a null key.
    const slot = fixedSlotOf(key);
    storage[hexFromBytes(key)] = {
      key: slot === undefined ? null : hexFromBytes(slot),
      value: hexFromBytes(pad32(RLP.decode(value) as Uint8Array)),
    };
  }
  return {
    complete: page.next === undefined,
    storage,
    nextKey: page.next === undefined ? null : hexFromBytes(page.next),
  };
}
