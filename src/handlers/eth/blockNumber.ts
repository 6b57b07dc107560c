import type { EthBlockNumberParams, EthBlockNumberResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';

/** The head's number: held in memory by the engine, so this never touches the database. */
export function eth_blockNumber(_params: EthBlockNumberParams, ctx: HandlerContext): EthBlockNumberResult {
  return toQuantity(engineOf(ctx).chain.getHead().header.number);
}
