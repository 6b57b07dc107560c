/** eth_getTransactionReceipt (null while pending or unknown) and eth_getBlockReceipts. */
import type {
  EthGetBlockReceiptsParams,
  EthGetBlockReceiptsResult,
  EthGetTransactionReceiptParams,
  EthGetTransactionReceiptResult,
  Receipt,
} from '../../generated/types.js';
import { engineOf, findBlock, receiptsOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { firstLogIndexOf, formatBlockReceipts, formatReceipt } from '../format/index.js';
import { readsOf } from '../fork-history.js';
import { findMined } from './transactions.js';

export async function eth_getTransactionReceipt(
  [hash]: EthGetTransactionReceiptParams,
  ctx: HandlerContext,
): Promise<EthGetTransactionReceiptResult> {
  const mined = await findMined(engineOf(ctx), hash);
  if (mined === undefined) return readsOf(ctx).byTransactionHash<Receipt>(null, 'eth_getTransactionReceipt', [hash]);
  const { index } = mined.at;
  return formatReceipt(mined.receipts[index], mined.tx, mined.at, firstLogIndexOf(mined.receipts, index));
}

/** Any stored block by hash, a canonical one by number or tag; `pending` gives the receipts the pending block would have. */
export async function eth_getBlockReceipts(
  [block]: EthGetBlockReceiptsParams,
  ctx: HandlerContext,
): Promise<EthGetBlockReceiptsResult> {
  return readsOf(ctx).atBlock<NonNullable<EthGetBlockReceiptsResult>>(
    block,
    'eth_getBlockReceipts',
    [block],
    async () => {
      const engine = engineOf(ctx);
      const resolved = await findBlock(engine, block);
      if (resolved === undefined) return null;
      return formatBlockReceipts(resolved.block, await receiptsOf(engine, resolved), resolved.hash);
    },
  );
}
