/** How the mining handlers reach the miner, and how "no proof of work here" becomes -32002. */
import { type Miner, isMiningUnavailableError } from '../../chain/index.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';

const MINING_UNAVAILABLE = 'mining is not available: this network does not use proof-of-work';
/** An instant-seal dev chain has no work to hand out or check: say how to get one that has. */
const INSTANT_SEAL =
  'proof-of-work mining is not available: this dev chain is instant-seal (blocks are sealed at once, nonce and mixHash zero). ' +
  'For a proof-of-work dev chain start svc-node with --seal ethash (mining.seal = "ethash"); it is another chain, kept in its own --datadir';

/** Runs a miner operation; `MiningUnavailableError` (consensus without PoW) answers -32002 as openrpc.json says. */
export async function minerCall<T>(ctx: HandlerContext, operation: (miner: Miner) => T | Promise<T>): Promise<T> {
  const miner = engineOf(ctx).miner;
  try {
    return await operation(miner);
  } catch (error) {
    if (isMiningUnavailableError(error)) {
      throw new RpcError(
        ErrorCode.ResourceUnavailable,
        error.consensus === 'instant' ? INSTANT_SEAL : MINING_UNAVAILABLE,
      );
    }
    throw error;
  }
}
