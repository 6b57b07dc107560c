/** Otterscan's ots_* methods (and the erigon_getHeaderByNumber it probes with): read-only explorer queries. */
import type { OtsHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import {
  erigon_getHeaderByNumber,
  ots_getBlockDetails,
  ots_getBlockDetailsByHash,
  ots_getBlockTransactions,
} from './block-details.js';
import { ots_getContractCreator, ots_getTransactionBySenderAndNonce, ots_hasCode } from './lookups.js';
import { ots_searchTransactionsAfter, ots_searchTransactionsBefore } from './search.js';
import { ots_getInternalOperations, ots_getTransactionError, ots_traceTransaction } from './tx-trace.js';

/** Otterscan 2.x asks for at least this level (its MIN_API_LEVEL); Erigon and Anvil answer it too. */
const API_LEVEL = 8;

export const otsHandlers: OtsHandlers<HandlerContext> = {
  ots_getApiLevel: () => API_LEVEL,
  ots_hasCode,
  ots_getBlockDetails,
  ots_getBlockDetailsByHash,
  ots_getBlockTransactions,
  ots_getTransactionError,
  ots_getInternalOperations,
  ots_traceTransaction,
  ots_getContractCreator,
  ots_getTransactionBySenderAndNonce,
  ots_searchTransactionsBefore,
  ots_searchTransactionsAfter,
  erigon_getHeaderByNumber,
};
