/** The `LogSource` of the chain engine: reads through the Blockchain's caches. */
import type { BlockHeader } from '@ethereumjs/block';
import type { Blockchain } from '../blockchain/blockchain.js';
import type { BlockReceipts, LogBlockHeader, LogSource } from '../logs/types.js';

function headerOf(header: BlockHeader): LogBlockHeader {
  const { number, parentHash, timestamp, logsBloom } = header;
  return { hash: header.hash(), number, parentHash, timestamp, logsBloom };
}

export function chainLogSource(chain: Blockchain): LogSource {
  return {
    headNumber: () => chain.getHead().header.number,
    canonicalHash: (number) => chain.getCanonicalHash(number),
    canonicalHashNow: chain.canonicalHashNow,
    async header(hash) {
      const header = await chain.getHeader(hash);
      return header === undefined ? undefined : headerOf(header);
    },
    async blockReceipts(hash): Promise<BlockReceipts | undefined> {
      const [block, receipts] = await Promise.all([chain.getBlock(hash), chain.getReceipts(hash)]);
      if (block === undefined || receipts === undefined) return undefined;
      return { header: headerOf(block.header), transactionHashes: block.transactions.map((tx) => tx.hash()), receipts };
    },
  };
}
