/** The write, call and signing group of eth_* handlers (one file per method beside this one). */
import { eth_call } from './call.js';
import { eth_callMany } from './callMany.js';
import { eth_estimateGas } from './estimateGas.js';
import { eth_sendRawTransaction } from './sendRawTransaction.js';
import { eth_sendRawTransactionSync } from './sendRawTransactionSync.js';
import { eth_sendTransaction } from './sendTransaction.js';
import { eth_sign } from './sign.js';

export const ethWriteHandlers = {
  eth_call,
  eth_callMany,
  eth_estimateGas,
  eth_sendRawTransaction,
  eth_sendRawTransactionSync,
  eth_sendTransaction,
  eth_sign,
};
