/** The eth_* methods beyond the original catalog that wallets and tools ask first: fee history, the tip, headers,
 * typed-data and transaction signing by node-held accounts. */
import { eth_createAccessList } from './createAccessList.js';
import { eth_feeHistory } from './feeHistory.js';
import { eth_getHeaderByHash, eth_getHeaderByNumber } from './getHeader.js';
import { eth_maxPriorityFeePerGas } from './maxPriorityFeePerGas.js';
import { eth_signTransaction } from './signTransaction.js';
import { eth_signTypedData_v4 } from './signTypedData.js';
import { eth_simulateV1 } from './simulateV1.js';

export const ethExtraHandlers = {
  eth_feeHistory,
  eth_maxPriorityFeePerGas,
  eth_getHeaderByNumber,
  eth_getHeaderByHash,
  eth_signTypedData_v4,
  eth_signTransaction,
  eth_createAccessList,
  eth_simulateV1,
};
