import type { PersonalSignParams, PersonalSignResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';
import { accountCall, accountsOf } from './accounts.js';

/**
 * EIP-191 signature (r ‖ s ‖ v, v = 27/28). With a passphrase: the key decrypted for this call only (needs no
 * unlock). Without one: an unlocked account's key, as eth_sign — wallets and the JSON-RPC signers of ethers and
 * viem call personal_sign(message, address) with two parameters.
 */
export async function personal_sign(
  [message, address, passphrase]: PersonalSignParams,
  ctx: HandlerContext,
): Promise<PersonalSignResult> {
  const accounts = accountsOf(ctx);
  const signature = await accountCall(() =>
    passphrase === undefined
      ? accounts.signMessage(bytesFromHex(address), bytesFromHex(message))
      : accounts.withPassphrase(bytesFromHex(address), passphrase, (signer) =>
          signer.signMessage(bytesFromHex(message)),
        ),
  );
  return hexFromBytes(signature);
}
