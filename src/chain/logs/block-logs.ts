/** Turns a block's receipts into positioned logs: `logIndex` counts across the whole block. */
import { matchesLog, type CompiledCriteria } from './match.js';
import type { BlockReceipts, Log } from './types.js';

/** Every log of the block, in block order; with `criteria`, only the matching ones (indexes stay block-wide). */
export function logsOfBlock(block: BlockReceipts, criteria?: CompiledCriteria, removed = false): Log[] {
  const { header, transactionHashes, receipts } = block;
  if (transactionHashes.length !== receipts.length) {
    throw new Error(`block ${header.number}: ${receipts.length} receipts for ${transactionHashes.length} transactions`);
  }
  const out: Log[] = [];
  let logIndex = 0;
  for (let txIndex = 0; txIndex < receipts.length; txIndex++) {
    for (const log of receipts[txIndex].logs) {
      if (criteria === undefined || matchesLog(criteria, log)) {
        out.push({
          address: log.address,
          topics: log.topics,
          data: log.data,
          blockNumber: header.number,
          blockHash: header.hash,
          blockTimestamp: header.timestamp,
          transactionHash: transactionHashes[txIndex],
          transactionIndex: txIndex,
          logIndex,
          removed,
        });
      }
      logIndex++;
    }
  }
  return out;
}
