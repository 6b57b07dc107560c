/** Anvil's dev flags (`dev.*`, settings/dev.ts), read and checked together. */
import { DEV_ACCOUNT_BALANCE, DEV_MNEMONIC, type NetworkName, type PoolOrder } from '../chain/index.js';
import { ConfigError } from './config-error.js';
import type { readSettings } from './settings/read.js';

export interface DevConfig {
  /** The test accounts: this many from this mnemonic, each with `balanceWei` at genesis. */
  readonly mnemonic: string;
  readonly accounts: number;
  readonly balanceWei: bigint;
  /** Whether they differ from the default ten of the test mnemonic at 1,000,000 ether (another genesis). */
  readonly customAccounts: boolean;
  /** Interval mining from the start (0 = automine). */
  readonly blockTimeMs: number;
  /** Loaded at start when present (`--state`). */
  readonly loadFrom?: string;
  /** Written at stop and every `stateIntervalMs` (`--state`, else `--dump-state`). */
  readonly dumpTo?: string;
  readonly stateIntervalMs: number;
  readonly order: PoolOrder;
}

/** "1.5" ether → wei; at most 18 decimals. */
function weiOfEther(text: string): bigint | undefined {
  const m = /^\s*(\d+)(?:\.(\d{1,18}))?\s*$/.exec(text.replaceAll('_', ''));
  if (m === null) return undefined;
  return BigInt(m[1]!) * 10n ** 18n + BigInt((m[2] ?? '').padEnd(18, '0'));
}

export function devConfigOf(get: ReturnType<typeof readSettings>['get'], network: NetworkName): DevConfig {
  const balanceWei = weiOfEther(get('dev.balance'));
  if (balanceWei === undefined || balanceWei >= 2n ** 256n)
    throw new ConfigError(
      `dev.balance (--balance) must be an amount of ether such as 10000 or 0.5, got "${get('dev.balance')}"`,
    );
  const mnemonic = get('dev.mnemonic').trim().split(/\s+/).join(' ');
  const accounts = get('dev.accounts');
  const state = get('dev.state');
  const dumpTo = state ?? get('dev.dump-state');
  const config: DevConfig = {
    mnemonic,
    accounts,
    balanceWei,
    customAccounts: mnemonic !== DEV_MNEMONIC || accounts !== 10 || balanceWei !== DEV_ACCOUNT_BALANCE,
    blockTimeMs: get('dev.block-time'),
    ...(state !== undefined ? { loadFrom: state } : {}),
    ...(dumpTo !== undefined ? { dumpTo } : {}),
    stateIntervalMs: get('dev.state-interval'),
    order: get('dev.order'),
  };
  if (config.stateIntervalMs > 0 && dumpTo === undefined)
    throw new ConfigError('dev.state-interval (--state-interval) needs a file to write: give --state or --dump-state');
  if (network !== 'dev') {
    const given = [
      config.customAccounts && '--accounts/--balance/--mnemonic',
      config.blockTimeMs > 0 && '--block-time',
      dumpTo !== undefined && '--state/--dump-state',
      config.order !== 'fees' && '--order',
    ].filter((x) => x !== false);
    if (given.length > 0)
      throw new ConfigError(`${given.join(', ')}: Anvil's dev flags serve the dev network only, not ${network}`);
  }
  return config;
}
