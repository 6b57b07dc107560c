import type { EthSignParams, EthSignResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';
import { accountCall, accountsOf } from '../personal/accounts.js';

/** EIP-191 signature (r ‖ s ‖ v, v = 27/28) by an unlocked account; -32000 "account is locked or unknown" otherwise. */
export async function eth_sign([address, message]: EthSignParams, ctx: HandlerContext): Promise<EthSignResult> {
  const accounts = accountsOf(ctx);
  return hexFromBytes(await accountCall(() => accounts.signMessage(bytesFromHex(address), bytesFromHex(message))));
}
