/** The read group of eth_* handlers: blocks, uncles, transactions, receipts, account state and node facts. */
import { eth_accounts } from './accounts.js';
import { eth_blockNumber } from './blockNumber.js';
import { eth_gasPrice } from './gasPrice.js';
import { eth_getBalance } from './getBalance.js';
import { eth_getBlockByHash, eth_getBlockByNumber } from './getBlock.js';
import {
  eth_getBlockTransactionCountByHash,
  eth_getBlockTransactionCountByNumber,
} from './getBlockTransactionCount.js';
import { eth_getCode } from './getCode.js';
import { eth_getProof } from './getProof.js';
import {
  eth_getRawTransactionByBlockHashAndIndex,
  eth_getRawTransactionByBlockNumberAndIndex,
  eth_getRawTransactionByHash,
} from './getRawTransaction.js';
import { eth_getStorageAt, eth_getStorageRoot } from './getStorage.js';
import {
  eth_getTransactionByBlockHashAndIndex,
  eth_getTransactionByBlockNumberAndIndex,
  eth_getTransactionByHash,
} from './getTransaction.js';
import { eth_getTransactionCount } from './getTransactionCount.js';
import { eth_getBlockReceipts, eth_getTransactionReceipt } from './getTransactionReceipt.js';
import {
  eth_getUncleByBlockHashAndIndex,
  eth_getUncleByBlockNumberAndIndex,
  eth_getUncleCountByBlockHash,
  eth_getUncleCountByBlockNumber,
} from './getUncle.js';
import { eth_protocolVersion } from './protocolVersion.js';
import { eth_syncing } from './syncing.js';

export const ethReadHandlers = {
  eth_accounts,
  eth_blockNumber,
  eth_gasPrice,
  eth_getBalance,
  eth_getBlockByHash,
  eth_getBlockByNumber,
  eth_getBlockReceipts,
  eth_getBlockTransactionCountByHash,
  eth_getBlockTransactionCountByNumber,
  eth_getCode,
  eth_getProof,
  eth_getRawTransactionByBlockHashAndIndex,
  eth_getRawTransactionByBlockNumberAndIndex,
  eth_getRawTransactionByHash,
  eth_getStorageAt,
  eth_getStorageRoot,
  eth_getTransactionByBlockHashAndIndex,
  eth_getTransactionByBlockNumberAndIndex,
  eth_getTransactionByHash,
  eth_getTransactionCount,
  eth_getTransactionReceipt,
  eth_getUncleByBlockHashAndIndex,
  eth_getUncleByBlockNumberAndIndex,
  eth_getUncleCountByBlockHash,
  eth_getUncleCountByBlockNumber,
  eth_protocolVersion,
  eth_syncing,
};
