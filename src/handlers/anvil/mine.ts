import type {
  AnvilGetAutomineResult,
  AnvilMineOptions,
  AnvilMineParams,
  AnvilMineResult,
  EvmMineParams,
  EvmMineResult,
  EvmSetAutomineParams,
  EvmSetAutomineResult,
  EvmSetBlockGasLimitParams,
  EvmSetBlockGasLimitResult,
  EvmSetIntervalMiningParams,
  EvmSetIntervalMiningResult,
} from '../../generated/types.js';
import { clientGone, type HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import { queryTooLarge } from '../limits.js';
import { quantityNumberParam, quantityParam } from '../test-quantity.js';
import { controlsOf } from './controls.js';

/**
 * Most blocks one call mines (anvil_mine, hardhat_mine, evm_mine, qa_mineBlocks, test_mineBlocks). The run gives
 * other requests a turn between blocks and bulk chunks (chain/miner/on-demand.ts) and stops when its client goes;
 * the cap keeps the call itself answered within a client's usual timeout: 10,000 empty blocks took ~20 s on a loaded
 * 2-core machine (~500 blocks/s), a million would take half an hour. More blocks: several calls; more time: the
 * interval param.
 */
export const MAX_MINE_BLOCKS = 10_000;

/** A block-count cap and the constant that holds it (named in the refusal). */
export interface MineCap {
  readonly limit: number;
  readonly name: string;
}

const MINE_CAP: MineCap = { limit: MAX_MINE_BLOCKS, name: 'MAX_MINE_BLOCKS, src/handlers/anvil/mine.ts' };

/** A count above the cap as -32602, naming the constant. */
export function checkMineCount(n: number | bigint, method: string, cap = MINE_CAP): void {
  if (n > cap.limit) throw queryTooLarge(`${method}: block count`, n, cap.limit, cap.name);
}

export function blockCount(value: number | string | undefined, method: string, cap = MINE_CAP): number {
  if (value === undefined) return 1;
  const n = quantityNumberParam(value, method, 'count');
  checkMineCount(n, method, cap);
  return n;
}

/** What a mining loop asks between blocks: true once the request's client has gone (WebSocket or HTTP). */
export function requesterGone(ctx: HandlerContext): () => boolean {
  return () => clientGone(ctx);
}

/** Refuses a first timestamp at or before the head's (the clock's RangeError) as -32602. */
export async function mining(method: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (err instanceof RangeError) throw invalidParams(`invalid params for ${method}: ${err.message}`);
    throw err;
  }
}

/** One block (or options.blocks) now; a timestamp (the param, or options.timestamp) is the first block's. */
export async function evm_mine([options]: EvmMineParams, ctx: HandlerContext): Promise<EvmMineResult> {
  const controls = controlsOf(ctx, 'evm_mine');
  const { count, timestamp } = mineOptionsOf(options, 'evm_mine');
  await mining('evm_mine', () => controls.mine(count, timestamp, undefined, false, requesterGone(ctx)));
  return '0x0';
}

/** evm_mine's options: a timestamp alone, or `{ timestamp, blocks }`. */
export function mineOptionsOf(
  options: AnvilMineOptions | undefined,
  method: string,
  cap = MINE_CAP,
): { count: number; timestamp: bigint | undefined } {
  const asObject = typeof options === 'object' && options !== null ? options : undefined;
  const rawTimestamp = typeof options === 'object' ? options?.timestamp : options;
  const timestamp = rawTimestamp === undefined ? undefined : quantityParam(rawTimestamp, method, 'timestamp');
  return { count: blockCount(asObject?.blocks, method, cap), timestamp };
}

/** `count` blocks (default 1), `interval` seconds apart (default: one second, the least). */
export async function anvil_mine([count, interval]: AnvilMineParams, ctx: HandlerContext): Promise<AnvilMineResult> {
  const controls = controlsOf(ctx, 'anvil_mine');
  const n = blockCount(count, 'anvil_mine');
  const spacing = interval === undefined ? undefined : quantityParam(interval, 'anvil_mine', 'interval');
  await mining('anvil_mine', () => controls.mine(n, undefined, spacing, false, requesterGone(ctx)));
  return null;
}

export async function evm_setAutomine(
  [enabled]: EvmSetAutomineParams,
  ctx: HandlerContext,
): Promise<EvmSetAutomineResult> {
  await controlsOf(ctx, 'evm_setAutomine').setAutomine(enabled);
  return null;
}

export function anvil_getAutomine(_params: [], ctx: HandlerContext): AnvilGetAutomineResult {
  return controlsOf(ctx, 'anvil_getAutomine').automine;
}

export async function evm_setIntervalMining(
  [seconds]: EvmSetIntervalMiningParams,
  ctx: HandlerContext,
): Promise<EvmSetIntervalMiningResult> {
  const s = quantityNumberParam(seconds, 'evm_setIntervalMining', 'seconds');
  await controlsOf(ctx, 'evm_setIntervalMining').setIntervalMining(s);
  return null;
}

/** The gas limit blocks move toward, a header-rule step per block (see the method's description). */
export function evm_setBlockGasLimit(
  [gasLimit]: EvmSetBlockGasLimitParams,
  ctx: HandlerContext,
): EvmSetBlockGasLimitResult {
  controlsOf(ctx, 'evm_setBlockGasLimit');
  const target = quantityParam(gasLimit, 'evm_setBlockGasLimit', 'gasLimit');
  if (target < 5000n || target >= 1n << 63n)
    throw invalidParams('invalid params for evm_setBlockGasLimit: gasLimit must be from 5000 to 2^63 - 1');
  engineOf(ctx).miner.setGasLimitTarget(target);
  return true;
}
