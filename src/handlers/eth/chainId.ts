import type { EthChainIdParams, EthChainIdResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';

/**
 * EIP-155 chain id: 0x539 on dev, 0x3f on mordor, 0x3d on etc; in test mode, the chain id of the chain
 * test_setChainParams installed (the running engine's network).
 */
export function eth_chainId(_params: EthChainIdParams, ctx: HandlerContext): EthChainIdResult {
  return toQuantity(ctx.node.engine?.definition.chainId ?? ctx.node.network.chainId);
}
