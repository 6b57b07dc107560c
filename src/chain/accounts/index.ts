/** Node-held accounts: keystore files, unlock state, message and transaction signing. No JSON-RPC here. */
export {
  AccountManager,
  DEFAULT_MIN_PASSPHRASE_LENGTH,
  DEFAULT_UNLOCK_SECONDS,
  type AccountManagerOptions,
  type AccountSigner,
} from './account-manager.js';
export { AccountError, type AccountErrorKind } from './errors.js';
export { KeystoreDirectory, keystoreFileName, type KeystoreEntry } from './keystore-dir.js';
export {
  decryptKeystore,
  encryptKeystore,
  parseKeystore,
  LIGHT_SCRYPT,
  STANDARD_SCRYPT,
  type DecryptedKey,
  type KeystoreV3Json,
  type ScryptParams,
} from './keystore-v3.js';
export { addressOfPrivateKey } from './keys.js';
export { devAccountsOf } from './mnemonic.js';
export { signTypedData, typedDataHash, type TypedDataPayload } from './typed-data.js';
export {
  personalMessageHash,
  recoverPersonalMessageSigner,
  signLegacyTransaction,
  signPersonalMessage,
  type UnsignedLegacyTx,
} from './signing.js';

import { join } from 'node:path';

/** Where a node keeps its keystore: `<datadir>/keystore`. */
export const keystoreDirOf = (datadir: string): string => join(datadir, 'keystore');
