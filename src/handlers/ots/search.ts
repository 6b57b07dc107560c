/**
 * ots_searchTransactionsBefore / ots_searchTransactionsAfter: an address's history a page at a time, read from the
 * address index (svc_getAccountTransactions' index: the transactions the address sent or received). A page holds
 * whole blocks and is always newest first; receipts carry the block's timestamp, which Otterscan lists.
 */
import type { AccountTransaction } from '../../chain/index.js';
import type {
  OtsReceipt,
  OtsSearchTransactionsAfterParams,
  OtsSearchTransactionsAfterResult,
  OtsSearchTransactionsBeforeParams,
  OtsSearchTransactionsBeforeResult,
  OtsTransactionsPage,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { firstLogIndexOf, formatReceipt, formatTransaction } from '../format/index.js';
import { bytesFromHex, toQuantity } from '../hex.js';
import { quantityOf } from './block-number.js';

function pageOf(found: readonly AccountTransaction[]): Pick<OtsTransactionsPage, 'txs' | 'receipts'> {
  const txs: OtsTransactionsPage['txs'] = [];
  const receipts: OtsReceipt[] = [];
  for (const m of found) {
    const at = { blockHash: m.block.hash(), blockNumber: m.block.header.number, index: m.index };
    const blockTimestamp = m.block.header.timestamp;
    txs.push(formatTransaction(m.tx, m.receipt.from, at));
    const firstLogIndex = firstLogIndexOf(m.blockReceipts, m.index);
    const receipt = formatReceipt(m.receipt, m.tx, { ...at, blockTimestamp }, firstLogIndex);
    receipts.push({ ...receipt, timestamp: toQuantity(blockTimestamp) });
  }
  return { txs, receipts };
}

export async function ots_searchTransactionsBefore(
  [address, blockNumber, pageSize]: OtsSearchTransactionsBeforeParams,
  ctx: HandlerContext,
): Promise<OtsSearchTransactionsBeforeResult> {
  const engine = engineOf(ctx);
  const anchor = quantityOf(blockNumber);
  const head = engine.chain.getHead().header.number;
  // 0 means "from the head"; otherwise the anchor block itself is left out.
  const start = anchor === 0n ? head : anchor - 1n;
  const page = await engine.logs.history.page(bytesFromHex(address), start, 'back', pageSize);
  return { ...pageOf(page.transactions), firstPage: anchor === 0n, lastPage: !page.more };
}

export async function ots_searchTransactionsAfter(
  [address, blockNumber, pageSize]: OtsSearchTransactionsAfterParams,
  ctx: HandlerContext,
): Promise<OtsSearchTransactionsAfterResult> {
  const engine = engineOf(ctx);
  const anchor = quantityOf(blockNumber);
  const start = anchor === 0n ? 0n : anchor + 1n;
  const page = await engine.logs.history.page(bytesFromHex(address), start, 'forward', pageSize);
  const found = [...page.transactions].reverse();
  return { ...pageOf(found), firstPage: !page.more, lastPage: anchor === 0n };
}
