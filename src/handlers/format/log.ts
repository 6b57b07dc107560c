/** The execution-apis Log object, from the engine's positioned log (logIndex already counts across the block). */
import type { Log as EngineLog } from '../../chain/index.js';
import type { Log } from '../../generated/types.js';
import { hexFromBytes, toQuantity } from '../hex.js';

export function formatLog(log: EngineLog): Log {
  return {
    removed: log.removed,
    logIndex: toQuantity(log.logIndex),
    transactionIndex: toQuantity(log.transactionIndex),
    transactionHash: hexFromBytes(log.transactionHash),
    blockHash: hexFromBytes(log.blockHash),
    blockNumber: toQuantity(log.blockNumber),
    blockTimestamp: toQuantity(log.blockTimestamp),
    address: hexFromBytes(log.address),
    data: hexFromBytes(log.data),
    topics: log.topics.map(hexFromBytes),
  };
}
