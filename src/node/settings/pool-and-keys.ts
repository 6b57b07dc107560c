/** The transaction pool and the node-held keystore. */
import * as s from './setting.js';

export const keystoreSettings = {
  'keystore.minimal-passphrase-length': s.int({
    default: 7,
    description: 'shortest passphrase personal_newAccount and personal_importRawKey accept',
  }),
  'keystore.light-kdf': s.bool({
    flag: 'lightkdf',
    default: false,
    description:
      "encrypt new keystore files with geth's light scrypt (N=4096, p=6) instead of the standard (N=262144): " +
      "about a tenth of the CPU and a 64th of the memory per key, and per attacker's guess; for throwaway keystores",
  }),
};

export const txpoolSettings = {
  'txpool.tx-pool-size': s.count({ default: 1000, description: 'most transactions the pool holds' }),
  'txpool.transaction-timeout': s.duration({
    default: 2 * 60_000,
    description:
      'how long a queued transaction (a future nonce, or one its sender cannot pay for yet) waits in the pool',
  }),
};
