/**
 * evm_mine_detailed / anvil_mine_detailed: evm_mine, answered with the blocks it mined as eth_getBlockByNumber gives
 * them with full transactions, each transaction with `output` (what its top call returned) and, when it failed with
 * Error(string), `revertReason`, as Anvil does. The blocks are replayed with callTracer's top frame for them: receipts
 * keep no return data.
 */
import type { Block as EngineBlock } from '@ethereumjs/block';
import { traceBlock, type CallFrameJson } from '../../chain/index.js';
import type { AnvilMinedBlock, EvmMineDetailedParams, EvmMineDetailedResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { blockJson } from '../eth/getBlock.js';
import { callTracerOpts, traceLimits } from '../trace/tracing.js';
import { tracing } from '../trace-answer.js';
import { controlsOf } from './controls.js';
import { mineOptionsOf, mining, requesterGone } from './mine.js';

/** Most blocks one evm_mine_detailed call mines: every block is held and answered in full with its traces. */
const MAX_DETAILED_BLOCKS = 1_000;
const DETAILED_CAP = { limit: MAX_DETAILED_BLOCKS, name: 'MAX_DETAILED_BLOCKS, src/handlers/anvil/mineDetailed.ts' };

async function mineDetailed(
  method: string,
  [options]: EvmMineDetailedParams,
  ctx: HandlerContext,
): Promise<EvmMineDetailedResult> {
  const controls = controlsOf(ctx, method);
  const { count, timestamp } = mineOptionsOf(options, method, DETAILED_CAP);
  let blocks: EngineBlock[] = [];
  await mining(method, async () => {
    blocks = await controls.mine(count, timestamp, undefined, true, requesterGone(ctx));
  });
  const mined: AnvilMinedBlock[] = [];
  for (const block of blocks) mined.push(await detailed(method, block, ctx));
  return mined;
}

async function detailed(method: string, block: EngineBlock, ctx: HandlerContext): Promise<AnvilMinedBlock> {
  const engine = controlsOf(ctx, method).engine;
  const json = await blockJson(engine, { block, hash: block.hash(), pending: false }, true);
  if (block.transactions.length === 0) return { ...json, transactions: [] } as AnvilMinedBlock;
  const opts = callTracerOpts(traceLimits(ctx), true);
  const traces = (await tracing(ctx, method, () => traceBlock(engine.chain, block.hash(), opts))) ?? [];
  const transactions = (json.transactions as object[]).map((tx, i) => {
    const top = traces[i]?.result as CallFrameJson | undefined;
    return {
      ...tx,
      output: top?.output ?? '0x',
      ...(top?.revertReason !== undefined ? { revertReason: top.revertReason } : {}),
    };
  });
  return { ...json, transactions } as AnvilMinedBlock;
}

export const evm_mine_detailed = (params: EvmMineDetailedParams, ctx: HandlerContext) =>
  mineDetailed('evm_mine_detailed', params, ctx);

export const anvil_mine_detailed = (params: EvmMineDetailedParams, ctx: HandlerContext) =>
  mineDetailed('anvil_mine_detailed', params, ctx);
