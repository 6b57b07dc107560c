/** The logs group of eth_* handlers: log queries, polled filters, subscriptions, the pool's pending list. */
import { eth_getFilterChanges } from './getFilterChanges.js';
import { eth_getFilterLogs } from './getFilterLogs.js';
import { eth_getLogs } from './getLogs.js';
import { eth_newBlockFilter, eth_newFilter, eth_newPendingTransactionFilter } from './newFilter.js';
import { eth_pendingTransactions } from './pendingTransactions.js';
import { eth_subscribe, eth_unsubscribe } from './subscribe.js';
import { eth_uninstallFilter } from './uninstallFilter.js';

export const ethLogHandlers = {
  eth_getLogs,
  eth_newFilter,
  eth_newBlockFilter,
  eth_newPendingTransactionFilter,
  eth_getFilterChanges,
  eth_getFilterLogs,
  eth_uninstallFilter,
  eth_subscribe,
  eth_unsubscribe,
  eth_pendingTransactions,
};
