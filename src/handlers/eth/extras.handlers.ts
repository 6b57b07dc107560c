/** The eth_* methods beyond the original catalog that wallets and tools ask first: fee history, the tip, headers. */
import { eth_feeHistory } from './feeHistory.js';
import { eth_getHeaderByHash, eth_getHeaderByNumber } from './getHeader.js';
import { eth_maxPriorityFeePerGas } from './maxPriorityFeePerGas.js';

export const ethExtraHandlers = {
  eth_feeHistory,
  eth_maxPriorityFeePerGas,
  eth_getHeaderByNumber,
  eth_getHeaderByHash,
};
