import type { EthSendRawTransactionParams, EthSendRawTransactionResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex } from '../hex.js';
import { engineOf } from '../block-ref.js';
import { submitToPool } from './submit-to-pool.js';

/** Decodes and pools a signed legacy or EIP-2930 transaction; the miner picks it up from the pool. */
export async function eth_sendRawTransaction(
  [raw]: EthSendRawTransactionParams,
  ctx: HandlerContext,
): Promise<EthSendRawTransactionResult> {
  return submitToPool(engineOf(ctx), bytesFromHex(raw), ctx.afterBatch);
}
