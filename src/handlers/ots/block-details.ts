/**
 * ots_getBlockDetails(ByHash), ots_getBlockTransactions and erigon_getHeaderByNumber: a block in the shapes Erigon
 * gives Otterscan. The block object is eth_getBlockByNumber's with transactionCount added and logsBloom null (the
 * explorer never reads it); issuance comes from the chain's reward rules, fees from the receipts.
 */
import type { Block as EngineBlock } from '@ethereumjs/block';
import { checkpointOf, type ChainEngine } from '../../chain/index.js';
import type {
  ErigonGetHeaderByNumberParams,
  ErigonGetHeaderByNumberResult,
  OtsBlockDetails,
  OtsBlockSummary,
  OtsGetBlockDetailsByHashParams,
  OtsGetBlockDetailsByHashResult,
  OtsGetBlockDetailsParams,
  OtsGetBlockDetailsResult,
  OtsGetBlockTransactionsParams,
  OtsGetBlockTransactionsResult,
  OtsReceipt,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf, findBlock, findBlockByHash, receiptsOf, type ResolvedBlock } from '../block-ref.js';
import { blockJson } from '../eth/getBlock.js';
import { formatBlockReceipts } from '../format/index.js';
import { toQuantity } from '../hex.js';
import { blockRefOf } from './block-number.js';

async function summaryOf(engine: ChainEngine, resolved: ResolvedBlock, full: boolean): Promise<OtsBlockSummary> {
  const block = await blockJson(engine, resolved, full);
  return { ...block, logsBloom: null, transactionCount: resolved.block.transactions.length } as OtsBlockSummary;
}

/**
 * The miner's reward (uncle inclusion included) and the uncles' miners' rewards, as the chain's rules credit them.
 * The genesis block and ECIP-1097 checkpoint blocks credit nothing.
 */
function issuanceOf(engine: ChainEngine, block: EngineBlock): OtsBlockDetails['issuance'] {
  const credits =
    block.header.number === 0n || checkpointOf(block.header) !== undefined ? [] : engine.chain.rewardsOf(block);
  const [miner, ...uncles] = credits;
  const blockReward = miner?.amount ?? 0n;
  const uncleReward = uncles.reduce((sum, u) => sum + u.amount, 0n);
  return {
    blockReward: toQuantity(blockReward),
    uncleReward: toQuantity(uncleReward),
    issuance: toQuantity(blockReward + uncleReward),
  };
}

async function detailsOf(engine: ChainEngine, resolved: ResolvedBlock): Promise<OtsBlockDetails> {
  const [block, receipts] = await Promise.all([summaryOf(engine, resolved, false), receiptsOf(engine, resolved)]);
  delete block.transactions;
  // ETC has no base fee: a transaction pays its gas price for every unit of gas it used.
  const totalFees = receipts.reduce(
    (sum, r, i) => sum + r.gasUsed * (resolved.block.transactions[i] as { gasPrice: bigint }).gasPrice,
    0n,
  );
  return { block, issuance: issuanceOf(engine, resolved.block), totalFees: toQuantity(totalFees) };
}

export async function ots_getBlockDetails(
  [number]: OtsGetBlockDetailsParams,
  ctx: HandlerContext,
): Promise<OtsGetBlockDetailsResult> {
  const engine = engineOf(ctx);
  const resolved = await findBlock(engine, blockRefOf(number));
  return resolved === undefined ? null : detailsOf(engine, resolved);
}

export async function ots_getBlockDetailsByHash(
  [blockHash]: OtsGetBlockDetailsByHashParams,
  ctx: HandlerContext,
): Promise<OtsGetBlockDetailsByHashResult> {
  const engine = engineOf(ctx);
  const resolved = await findBlockByHash(engine, blockHash);
  return resolved === undefined ? null : detailsOf(engine, resolved);
}

/** Page 0 is the block's last `pageSize` transactions, page 1 the ones before them (Erigon's order). */
export async function ots_getBlockTransactions(
  [number, pageNumber, pageSize]: OtsGetBlockTransactionsParams,
  ctx: HandlerContext,
): Promise<OtsGetBlockTransactionsResult> {
  const engine = engineOf(ctx);
  const resolved = await findBlock(engine, blockRefOf(number));
  if (resolved === undefined) return null;
  const [fullblock, receipts] = await Promise.all([summaryOf(engine, resolved, true), receiptsOf(engine, resolved)]);
  const count = resolved.block.transactions.length;
  const end = Math.max(0, count - pageNumber * pageSize);
  const start = Math.max(0, end - pageSize);
  // The explorer lists a method by its selector: the rest of the input is left out, as Erigon does.
  fullblock.transactions = (fullblock.transactions ?? [])
    .slice(start, end)
    .map((tx) => ({ ...tx, input: tx.input.slice(0, 10) as typeof tx.input }));
  const page: OtsReceipt[] = formatBlockReceipts(resolved.block, receipts.slice(0, end), resolved.hash)
    .slice(start, end)
    .map((r) => ({ ...r, logs: null, logsBloom: null }));
  return { fullblock, receipts: page };
}

export async function erigon_getHeaderByNumber(
  [number]: ErigonGetHeaderByNumberParams,
  ctx: HandlerContext,
): Promise<ErigonGetHeaderByNumberResult> {
  const engine = engineOf(ctx);
  const resolved = await findBlock(engine, blockRefOf(number));
  return resolved === undefined ? null : blockJson(engine, resolved, false);
}
