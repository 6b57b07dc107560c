/** The mining group of eth_* handlers (eth_mining … miner_getStatus; one file per small group beside this one). */
import { miner_getStatus, miner_start, miner_stop } from './miner.js';
import { eth_coinbase, eth_hashrate, eth_mining } from './mining.js';
import { eth_getWork, eth_submitHashrate, eth_submitWork } from './work.js';

export const ethMiningHandlers = {
  eth_mining,
  eth_hashrate,
  eth_coinbase,
  eth_getWork,
  eth_submitWork,
  eth_submitHashrate,
  miner_start,
  miner_stop,
  miner_getStatus,
};
