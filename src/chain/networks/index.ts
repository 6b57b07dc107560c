import { dev } from './dev.js';
import { etc } from './etc.js';
import { mordor } from './mordor.js';
import type { NetworkDefinition, NetworkName } from './types.js';

export * from './types.js';
export {
  dev,
  DEV_CHECKPOINTING,
  DEV_FEDERATION_ACCOUNTS,
  DEV_GAS_LIMIT,
  DEV_MINIMUM_DIFFICULTY,
  devWithAccounts,
  devWithCheckpointing,
} from './dev.js';
export { mordor } from './mordor.js';
export { etc } from './etc.js';
export * from './overrides.js';
export {
  DEV_ACCOUNTS,
  DEV_ACCOUNT_BALANCE,
  DEV_MNEMONIC,
  DEV_DERIVATION_PATH_PREFIX,
  type DevAccount,
} from './devAccounts.js';

export const NETWORKS: Readonly<Record<NetworkName, NetworkDefinition>> = { dev, mordor, etc };
export const NETWORK_NAMES: readonly NetworkName[] = ['dev', 'mordor', 'etc'];

export function isNetworkName(name: string): name is NetworkName {
  return (NETWORK_NAMES as readonly string[]).includes(name);
}

/** The definition of a named network; throws for an unknown name. */
export function getNetwork(name: string): NetworkDefinition {
  if (!isNetworkName(name)) throw new Error(`Unknown network "${name}" (expected one of ${NETWORK_NAMES.join(', ')})`);
  return NETWORKS[name];
}
