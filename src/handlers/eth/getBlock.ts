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
  findBlockByHash,
  lastCheckpointOf,
  receiptsOf,
  totalDifficultyOf,
  type ResolvedBlock,
} from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatBlock } from '../format/index.js';
import { fromForkHistory, upstreamHistory } from '../fork-history.js';

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
  return formatBlock(resolved.block, td, fullTransactions ? { full: true, senders } : { full: false }, lastCheckpoint);
}

export async function eth_getBlockByHash(
  [blockHash, full]: EthGetBlockByHashParams,
  ctx: HandlerContext,
): Promise<EthGetBlockByHashResult> {
  const engine = engineOf(ctx);
  const resolved = await findBlockByHash(engine, blockHash);
  // A fork's history and its header-only base block are the upstream's (fork-history.ts).
  const base = engine.chain.forkBase;
  if (base !== undefined && (resolved === undefined || resolved.block.header.number === base))
    return upstreamHistory<Block>(ctx, 'eth_getBlockByHash', [blockHash, full], (b) => b.number);
  return resolved === undefined ? null : blockJson(engine, resolved, full);
}

export async function eth_getBlockByNumber(
  [block, full]: EthGetBlockByNumberParams,
  ctx: HandlerContext,
): Promise<EthGetBlockByNumberResult> {
  const engine = engineOf(ctx);
  const history = await fromForkHistory<Block>(ctx, block, 'eth_getBlockByNumber', [block, full]);
  if (history !== undefined) return history.answer;
  const resolved = await findBlock(engine, block);
  return resolved === undefined ? null : blockJson(engine, resolved, full);
}
