import type { PersonalImportRawKeyParams, PersonalImportRawKeyResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes } from '../hex.js';
import { accountCall, accountsOf } from './accounts.js';

/** Stores a raw 32-byte key (0x optional, as geth accepts) in the keystore. */
export async function personal_importRawKey(
  [privateKeyHex, passphrase]: PersonalImportRawKeyParams,
  ctx: HandlerContext,
): Promise<PersonalImportRawKeyResult> {
  const accounts = accountsOf(ctx);
  const privateKey = Buffer.from(privateKeyHex.replace(/^0x/i, ''), 'hex');
  try {
    return hexFromBytes(await accountCall(() => accounts.importRawKey(privateKey, passphrase)));
  } finally {
    privateKey.fill(0);
  }
}
