/**
 * Test accounts from a BIP-39 mnemonic at m/44'/60'/0'/0/i, the path Anvil, Hardhat and most wallets use, so the
 * same words give the same accounts here as there. The well-known test mnemonic's first ten are written out
 * (networks/devAccounts.ts); any other set is derived once, at start.
 */
import { DEV_ACCOUNTS, DEV_DERIVATION_PATH_PREFIX, DEV_MNEMONIC, type DevAccount } from '../networks/devAccounts.js';

/** The first `count` accounts of `mnemonic`; an error naming the problem when the words are no BIP-39 mnemonic. */
export async function devAccountsOf(mnemonic: string, count: number): Promise<readonly DevAccount[]> {
  const words = mnemonic.trim().split(/\s+/).join(' ');
  if (words === DEV_MNEMONIC && count <= DEV_ACCOUNTS.length) return DEV_ACCOUNTS.slice(0, count);
  // Loaded only here: the wordlists and HD code are a large chunk a default dev chain never needs.
  const { HDNodeWallet, Mnemonic } = await import('ethers');
  let root: InstanceType<typeof HDNodeWallet>;
  try {
    root = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(words), DEV_DERIVATION_PATH_PREFIX.slice(0, -1));
  } catch (err) {
    throw new Error(
      `not a BIP-39 mnemonic (${(err as { shortMessage?: string }).shortMessage ?? (err as Error).message})`,
    );
  }
  const accounts: DevAccount[] = [];
  for (let i = 0; i < count; i++) {
    const child = root.deriveChild(i);
    accounts.push({ address: child.address, privateKey: child.privateKey });
  }
  return accounts;
}
