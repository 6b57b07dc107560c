import { HDNodeWallet, Mnemonic } from 'ethers';
import { describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, DEV_DERIVATION_PATH_PREFIX, DEV_MNEMONIC } from '../../../src/chain/networks/index.js';

describe('dev accounts', () => {
  it('are the first 10 accounts of the test mnemonic', () => {
    const mnemonic = Mnemonic.fromPhrase(DEV_MNEMONIC);
    expect(DEV_ACCOUNTS).toHaveLength(10);
    DEV_ACCOUNTS.forEach((account, i) => {
      const wallet = HDNodeWallet.fromMnemonic(mnemonic, `${DEV_DERIVATION_PATH_PREFIX}${i}`);
      expect(account.address).toBe(wallet.address);
      expect(account.privateKey).toBe(wallet.privateKey);
    });
  });
});
