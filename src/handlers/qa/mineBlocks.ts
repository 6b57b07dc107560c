import type { QaMineBlocksParams, QaMineBlocksResult } from '../../generated/types.js';
import { blockNotFound, engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { checkMineCount, requesterGone } from '../anvil/mine.js';
import { bytesFromHex } from '../hex.js';

/**
 * Mines `count` blocks now, on the head or on `parentHash`, with or without the pool's transactions, and
 * answers once they are imported (so a test can read them right after).
 */
export async function qa_mineBlocks(
  [count, withTransactions, parentHash]: QaMineBlocksParams,
  ctx: HandlerContext,
): Promise<QaMineBlocksResult> {
  const engine = ctx.node.engine;
  if (engine === undefined)
    return { responseType: 'MinerNotExist', message: 'this node runs no chain engine, hence no miner' };
  const blocks = typeof count === 'number' ? count : Number(BigInt(count));
  if (!Number.isSafeInteger(blocks))
    return { responseType: 'MiningError', message: `cannot mine ${String(count)} blocks` };
  checkMineCount(blocks, 'qa_mineBlocks');
  const parent = parentHash === undefined || parentHash === null ? undefined : bytesFromHex(parentHash);
  if (parent !== undefined && (await engineOf(ctx).chain.getHeader(parent)) === undefined)
    throw blockNotFound(parentHash!);
  // An order in progress on this engine: the product answers MinerIsWorking instead of queueing a second one.
  if (engine.memo.miningOrder) return { responseType: 'MinerIsWorking', message: null };
  engine.memo.miningOrder = true;
  try {
    await engine.miner.mineBlocks(blocks, {
      collect: false,
      cancelled: requesterGone(ctx),
      withTransactions: withTransactions ?? true,
      ...(parent !== undefined ? { parentHash: parent } : {}),
    });
    return { responseType: 'MiningOrdered', message: null };
  } catch (error) {
    return { responseType: 'MiningError', message: error instanceof Error ? error.message : String(error) };
  } finally {
    engine.memo.miningOrder = false;
  }
}
