import type { TxpoolHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { txpool_content, txpool_contentFrom } from './content.js';
import { txpool_inspect, txpool_status } from './inspect.js';

/** geth's txpool namespace over the engine's pool (src/chain/txpool). */
export const txpoolHandlers: TxpoolHandlers<HandlerContext> = {
  txpool_content,
  txpool_contentFrom,
  txpool_inspect,
  txpool_status,
};
