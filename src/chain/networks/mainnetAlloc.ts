import { hexToBytes } from '@ethereumjs/util';
import type { GenesisAccount } from './types.js';

/**
 * The 8,893 presale accounts of the Ethereum (and so ETC) mainnet genesis, from the
 * `@ethereumjs/genesis` package (pure data: address → balance hex). Loaded lazily: the module
 * is ~2.9 MB of JS that only the `etc` network needs, once, to build its genesis state.
 */
export async function loadEthereumMainnetAlloc(): Promise<GenesisAccount[]> {
  let mainnetGenesis: Record<string, unknown>;
  try {
    ({ mainnetGenesis } = (await import('@ethereumjs/genesis/mainnet')) as { mainnetGenesis: Record<string, unknown> });
  } catch (cause) {
    throw new Error(
      'The etc network needs the mainnet genesis allocation from the "@ethereumjs/genesis" package; install it',
      { cause },
    );
  }
  return Object.entries(mainnetGenesis).map(([address, balance]) => ({
    address: hexToBytes(address as `0x${string}`),
    // Presale entries are plain balance strings; the package's type also allows richer account objects.
    balance: BigInt(typeof balance === 'string' ? balance : (balance as [string])[0]),
  }));
}
