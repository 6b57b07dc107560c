import type {
  AnvilDropAllTransactionsResult,
  AnvilDropTransactionParams,
  AnvilDropTransactionResult,
  AnvilSetCoinbaseParams,
  AnvilSetCoinbaseResult,
  AnvilSetMinGasPriceParams,
  AnvilSetMinGasPriceResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex } from '../hex.js';
import { boundedParam, controlsOf } from './controls.js';

/** The hash when the transaction was pooled, null otherwise. */
export function anvil_dropTransaction(
  [hash]: AnvilDropTransactionParams,
  ctx: HandlerContext,
): AnvilDropTransactionResult {
  const { pool } = controlsOf(ctx, 'anvil_dropTransaction').engine;
  return pool.remove(hash.toLowerCase(), 'removed', 'removed: anvil_dropTransaction took it out') ? hash : null;
}

export function anvil_dropAllTransactions(_params: [], ctx: HandlerContext): AnvilDropAllTransactionsResult {
  controlsOf(ctx, 'anvil_dropAllTransactions').engine.pool.clear();
  return null;
}

export function anvil_setCoinbase([address]: AnvilSetCoinbaseParams, ctx: HandlerContext): AnvilSetCoinbaseResult {
  controlsOf(ctx, 'anvil_setCoinbase').engine.miner.setCoinbase(bytesFromHex(address));
  return null;
}

export function anvil_setMinGasPrice(
  [gasPrice]: AnvilSetMinGasPriceParams,
  ctx: HandlerContext,
): AnvilSetMinGasPriceResult {
  const price = boundedParam(gasPrice, 'anvil_setMinGasPrice', 'gasPrice', 256);
  controlsOf(ctx, 'anvil_setMinGasPrice').engine.pool.setMinGasPrice(price);
  return null;
}
