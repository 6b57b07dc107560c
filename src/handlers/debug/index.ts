import type { DebugHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { debug_accountRange } from './accountRange.js';
import { debugRawHandlers } from './getRaw.js';
import { debug_listPeersInfo } from './listPeersInfo.js';
import { debug_storageRangeAt } from './storageRangeAt.js';

/** State dumps over the real state trie (retesteth's post-state checks) and the peers' announced details. */
export const debugHandlers: DebugHandlers<HandlerContext> = {
  debug_accountRange,
  debug_listPeersInfo,
  debug_storageRangeAt,
  ...debugRawHandlers,
};
