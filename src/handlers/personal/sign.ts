import type { PersonalSignParams, PersonalSignResult } from '../../generated/types.js';
import type { HandlerContext } from '../context.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';
import { accountCall, accountsOf } from './accounts.js';

/** EIP-191 signature (r ‖ s ‖ v, v = 27/28) with the key decrypted for this call only; needs no unlock. */
export async function personal_sign([message, address, passphrase]: PersonalSignParams, ctx: HandlerContext): Promise<PersonalSignResult> {
  const accounts = accountsOf(ctx);
  const signature = await accountCall(() =>
    accounts.withPassphrase(bytesFromHex(address), passphrase, (signer) => signer.signMessage(bytesFromHex(message))),
  );
  return hexFromBytes(signature);
}
