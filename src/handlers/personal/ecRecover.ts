import { recoverPersonalMessageSigner } from '../../chain/index.js';
import type { PersonalEcRecoverParams, PersonalEcRecoverResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';
import { accountCall } from './accounts.js';

/** The signer of an EIP-191 signature; pure computation, no account of the node involved. */
export function personal_ecRecover(
  [message, signature]: PersonalEcRecoverParams,
  _ctx: HandlerContext,
): Promise<PersonalEcRecoverResult> {
  return accountCall(() => hexFromBytes(recoverPersonalMessageSigner(bytesFromHex(message), bytesFromHex(signature))));
}
