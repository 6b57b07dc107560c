/** The eth_* methods beyond the original catalog that wallets and tools ask first: fee history and the tip. */
import { eth_feeHistory } from './feeHistory.js';
import { eth_maxPriorityFeePerGas } from './maxPriorityFeePerGas.js';

export const ethExtraHandlers = {
  eth_feeHistory,
  eth_maxPriorityFeePerGas,
};
