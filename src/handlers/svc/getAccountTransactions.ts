import { AccountRangeTooWideError } from '../../chain/index.js';
import type {
  AccountTransaction,
  SvcGetAccountTransactionsParams,
  SvcGetAccountTransactionsResult,
} from '../../generated/types.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { formatTransaction } from '../format/index.js';
import { bytesFromHex, fromQuantity, toQuantity } from '../hex.js';

/**
 * Transactions `address` sent or received in fromBlock..toBlock, newest block first and the last
 * transaction first within a block (from the address index), then every matching pending transaction.
 * isCheckpointed: the block is at or below the canonical chain's latest ECIP-1097 checkpoint (never without
 * checkpointing), as the original computed it.
 */
export async function svc_getAccountTransactions(
  [address, fromBlock, toBlock]: SvcGetAccountTransactionsParams,
  ctx: HandlerContext,
): Promise<SvcGetAccountTransactionsResult> {
  const engine = engineOf(ctx);
  const account = bytesFromHex(address);
  const mined = await engine.logs.history
    .transactions(account, fromQuantity(fromBlock), fromQuantity(toBlock))
    .catch((err: unknown) => {
      if (err instanceof AccountRangeTooWideError) {
        // -32602 as in the original node (and not -32005, which clients retry as a rate limit).
        throw new RpcError(ErrorCode.InvalidParams, err.message, {
          limit: err.limit,
          requested: toQuantity(err.requested),
        });
      }
      throw err;
    });
  const checkpointed = engine.chain.getHeadLastCheckpoint();
  const transactions: AccountTransaction[] = mined.map((m) => ({
    ...formatTransaction(m.tx, m.receipt.from, {
      blockHash: m.block.hash(),
      blockNumber: m.block.header.number,
      index: m.index,
    }),
    isOutgoing: m.isOutgoing,
    isCheckpointed: checkpointed > 0n && m.block.header.number <= checkpointed,
    isPending: false,
    gasUsed: toQuantity(m.receipt.gasUsed),
    timestamp: toQuantity(m.block.header.timestamp),
  }));
  const lower = address.toLowerCase();
  for (const pooled of engine.pool.all()) {
    const isOutgoing = pooled.senderHex === lower;
    const to = pooled.tx.to?.toString();
    if (!isOutgoing && to !== lower) continue;
    transactions.push({
      ...formatTransaction(pooled.tx, pooled.sender.bytes),
      isOutgoing,
      isCheckpointed: false,
      isPending: true,
      gasUsed: null,
      timestamp: null,
    });
  }
  return { transactions };
}
