import type { DebugHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { debug_accountRange } from './accountRange.js';
import { debug_listPeersInfo } from './listPeersInfo.js';
import { debug_storageRangeAt } from './storageRangeAt.js';
import { debug_traceBlock, debug_traceBlockByHash, debug_traceBlockByNumber } from './traceBlock.js';
import { debug_traceCall } from './traceCall.js';
import { debug_traceTransaction } from './traceTransaction.js';

/** State dumps over the real state trie (retesteth's post-state checks), the peers' announced details, geth-style traces. */
export const debugHandlers: DebugHandlers<HandlerContext> = {
  debug_accountRange,
  debug_listPeersInfo,
  debug_storageRangeAt,
  debug_traceBlock,
  debug_traceBlockByHash,
  debug_traceBlockByNumber,
  debug_traceCall,
  debug_traceTransaction,
};
