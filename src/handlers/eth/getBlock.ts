/** eth_getBlockByHash and eth_getBlockByNumber: one block, with transaction hashes or full transactions. */
import type { ChainEngine } from '../../chain/index.js';
import type {
  Block,
  EthGetBlockByHashParams,
  EthGetBlockByHashResult,
  EthGetBlockByNumberParams,
  EthGetBlockByNumberResult,
} from '../../generated/types.js';
import {
  engineOf,
  findBlock,
  lastCheckpointOf,
  receiptsOf,
  totalDifficultyOf,
  type ResolvedBlock,
} from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatBlock } from '../format/index.js';
import { readsOf } from '../fork-history.js';

/** Full transactions take their senders from the receipts (stored with the block), not from signature recovery. */
export async function blockJson(
  engine: ChainEngine,
  resolved: ResolvedBlock,
  fullTransactions: boolean,
): Promise<Block> {
  const [td, lastCheckpoint, senders] = await Promise.all([
    totalDifficultyOf(engine, resolved),
    lastCheckpointOf(engine, resolved),
    fullTransactions && resolved.block.transactions.length > 0
      ? receiptsOf(engine, resolved).then((receipts) => receipts.map((r) => r.from))
      : [],
  ]);
  return formatBlock(
    engine.memo,
    resolved.block,
    td,
    fullTransactions ? { full: true, senders } : { full: false },
    lastCheckpoint,
  );
}

export async function eth_getBlockByHash(
  [blockHash, full]: EthGetBlockByHashParams,
  ctx: HandlerContext,
): Promise<EthGetBlockByHashResult> {
  const engine = engineOf(ctx);
  // A fork's history and its header-only base block are the upstream's (fork-history.ts).
  return readsOf(ctx).blockByHash(blockHash, full, (resolved) => blockJson(engine, resolved, full));
}

export async function eth_getBlockByNumber(
  [block, full]: EthGetBlockByNumberParams,
  ctx: HandlerContext,
): Promise<EthGetBlockByNumberResult> {
  const engine = engineOf(ctx);
  return readsOf(ctx).atBlock<Block>(block, 'eth_getBlockByNumber', [block, full], async () => {
    const resolved = await findBlock(engine, block);
    return resolved === undefined ? null : blockJson(engine, resolved, full);
  });
}
