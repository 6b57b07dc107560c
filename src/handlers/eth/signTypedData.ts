import type { TypedDataPayload } from '../../chain/index.js';
import type { EthSignTypedDataV4Params, EthSignTypedDataV4Result } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';
import { accountCall, accountsOf } from '../personal/accounts.js';

/**
 * EIP-712 signature (r ‖ s ‖ v, v = 27/28) by an unlocked account; -32000 "account is locked or unknown" otherwise,
 * as eth_sign. The typed data comes as the standard's object or as that object in a JSON string, which is how ethers'
 * JsonRpcSigner and viem's wallet client send it.
 */
export async function eth_signTypedData_v4(
  [address, typedData]: EthSignTypedDataV4Params,
  ctx: HandlerContext,
): Promise<EthSignTypedDataV4Result> {
  const payload = typeof typedData === 'string' ? parseTypedData(typedData) : (typedData as TypedDataPayload);
  const accounts = accountsOf(ctx);
  const signer = await accountCall(() => accounts.signerFor(bytesFromHex(address)));
  return hexFromBytes(await accountCall(() => signer.signTypedData(payload)));
}

function parseTypedData(text: string): TypedDataPayload {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidParams('invalid params: typedData (param 2) is a string that is not JSON');
  }
  const shape = parsed as Partial<TypedDataPayload> | null;
  if (
    shape === null ||
    typeof shape !== 'object' ||
    typeof shape.types !== 'object' ||
    typeof shape.primaryType !== 'string' ||
    typeof shape.domain !== 'object' ||
    typeof shape.message !== 'object'
  ) {
    throw invalidParams('invalid params: typedData (param 2) must hold types, primaryType, domain and message');
  }
  return shape as TypedDataPayload;
}
