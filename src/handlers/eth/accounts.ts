import type { EthAccountsParams, EthAccountsResult } from '../../generated/types.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes } from '../hex.js';

/** The node-held and keystore addresses, locked or not (on dev, the prefunded test accounts first). */
export async function eth_accounts(_params: EthAccountsParams, ctx: HandlerContext): Promise<EthAccountsResult> {
  const accounts = ctx.node.accounts;
  if (accounts === undefined)
    throw new RpcError(ErrorCode.ResourceUnavailable, 'Resource unavailable: this node has no account manager running');
  return (await accounts.list()).map(hexFromBytes);
}
