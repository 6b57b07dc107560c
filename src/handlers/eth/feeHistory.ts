/**
 * eth_feeHistory as core-geth answers it on a chain without EIP-1559 (eth/gasprice/feehistory.go): every base fee is
 * 0 (the blocks have none, and neither will the next), gasUsedRatio is each block's gasUsed / gasLimit, and a reward
 * row holds, per requested percentile, the effective tip of the transaction at which that share of the block's gas
 * was used, transactions sorted by tip. Without a base fee the effective tip of a legacy or EIP-2930 transaction is
 * its whole gas price, so on Ethereum Classic the rewards are gas prices. The blob fields are zeros, as core-geth's.
 */
import type { Block } from '@ethereumjs/block';
import type { ChainEngine } from '../../chain/index.js';
import type { EthFeeHistoryParams, EthFeeHistoryResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { ErrorCode, RpcError, invalidParams } from '../../rpc/errors.js';
import { engineOf, findBlock, receiptsOf } from '../block-ref.js';
import { fromQuantity, toQuantity } from '../hex.js';

/** geth's default `--rpc.feehistory.maxblockhistory` (and maxheaderhistory): longer requests are shortened to it. */
export const FEE_HISTORY_MAX_BLOCKS = 1024n;

type Quantity = `0x${string}`;

export async function eth_feeHistory(
  [blockCount, newestBlock, rewardPercentiles]: EthFeeHistoryParams,
  ctx: HandlerContext,
): Promise<EthFeeHistoryResult> {
  const engine = engineOf(ctx);
  const percentiles = rewardPercentiles ?? [];
  checkAscending(percentiles);
  const requested = typeof blockCount === 'number' ? BigInt(blockCount) : fromQuantity(blockCount);
  const last = await lastBlockNumber(engine, newestBlock);
  let count = requested < FEE_HISTORY_MAX_BLOCKS ? requested : FEE_HISTORY_MAX_BLOCKS;
  if (count > last + 1n) count = last + 1n;
  if (count === 0n) return { oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [] };

  const oldest = last + 1n - count;
  const gasUsedRatio: number[] = [];
  const reward: Quantity[][] = [];
  for (let number = oldest; number <= last; number++) {
    const block = await engine.chain.getBlock(number);
    // A block this node does not hold (below a snap sync's start) ends the range, as a missing block ends geth's.
    if (block === undefined) break;
    gasUsedRatio.push(ratio(block));
    if (percentiles.length > 0) reward.push(await rewardRow(engine, block, percentiles));
  }
  if (gasUsedRatio.length === 0) return { oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [] };
  const zeros = (n: number): Quantity[] => Array.from({ length: n }, () => '0x0');
  return {
    oldestBlock: toQuantity(oldest),
    ...(percentiles.length > 0 ? { reward } : {}),
    // One more than the blocks: the last entry is the base fee of the block after the newest, also 0 on ETC.
    baseFeePerGas: zeros(gasUsedRatio.length + 1),
    gasUsedRatio,
    baseFeePerBlobGas: zeros(gasUsedRatio.length + 1),
    blobGasUsedRatio: gasUsedRatio.map(() => 0),
  };
}

const ratio = (block: Block): number => Number(block.header.gasUsed) / Number(block.header.gasLimit);

/** The newest block's number: `pending` reads as `latest` (the pending block has no gas used yet). */
async function lastBlockNumber(engine: ChainEngine, newest: EthFeeHistoryParams[1]): Promise<bigint> {
  const head = engine.chain.getHead().header.number;
  if (newest === 'latest' || newest === 'pending') return head;
  const found = await findBlock(engine, newest);
  if (found === undefined) {
    const requested = fromQuantity(newest);
    throw new RpcError(ErrorCode.ServerError, `request beyond head block: requested ${requested}, head ${head}`);
  }
  return found.block.header.number;
}

/** geth refuses percentiles outside 0..100 and percentiles that are not strictly ascending. */
function checkAscending(percentiles: readonly number[]): void {
  for (const p of percentiles) {
    if (!(p >= 0 && p <= 100)) throw invalidParams(`invalid reward percentile: ${p} (each must be from 0 to 100)`);
  }
  for (let i = 1; i < percentiles.length; i++) {
    if (percentiles[i] <= percentiles[i - 1]) {
      throw invalidParams(
        `invalid reward percentile: #${i - 1}:${percentiles[i - 1]} >= #${i}:${percentiles[i]} (they must ascend)`,
      );
    }
  }
}

/** Per percentile p: the tip of the first transaction (cheapest first) by which p% of the block's gas was used. */
async function rewardRow(engine: ChainEngine, block: Block, percentiles: readonly number[]): Promise<Quantity[]> {
  if (block.transactions.length === 0) return percentiles.map(() => '0x0');
  const receipts = await receiptsOf(engine, { block, hash: block.hash(), pending: false });
  const byTip = block.transactions
    .map((tx, i) => ({ tip: (tx as { gasPrice: bigint }).gasPrice, gasUsed: receipts[i].gasUsed }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  const blockGas = Number(block.header.gasUsed);
  let index = 0;
  let sum = byTip[0].gasUsed;
  return percentiles.map((p) => {
    const threshold = BigInt(Math.floor((blockGas * p) / 100));
    while (sum < threshold && index < byTip.length - 1) {
      index++;
      sum += byTip[index].gasUsed;
    }
    return toQuantity(byTip[index].tip);
  });
}
