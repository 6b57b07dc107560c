/** The transaction pool and the node-held keystore. */
import * as s from './setting.js';

export const keystoreSettings = {
  'keystore.minimal-passphrase-length': s.int({
    default: 7,
    description: 'shortest passphrase personal_newAccount and personal_importRawKey accept',
  }),
};

export const txpoolSettings = {
  'txpool.tx-pool-size': s.count({ default: 1000, description: 'most transactions the pool holds' }),
  'txpool.transaction-timeout': s.duration({
    default: 2 * 60_000,
    description: 'how long a transaction with a future nonce waits in the pool',
  }),
};
