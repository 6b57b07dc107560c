/**
 * JSON shapes of blocks, uncles, transactions, receipts and logs, shared by every handler that returns them
 * (reads, logs, filters, subscriptions). Engine objects in, execution-apis objects out; nothing here reads
 * the chain.
 */
export { formatBlock, formatUncle, type BlockTransactions } from './block.js';
export { formatCheckpoint } from './checkpoint.js';
export { formatLog } from './log.js';
export { logJson, logsJson } from './log-json.js';
export { firstLogIndexOf, formatBlockReceipts, formatReceipt } from './receipt.js';
export { formatTransaction, type TxPosition } from './transaction.js';
