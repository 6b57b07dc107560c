/**
 * Every setting the node reads, one table per concern. Together they drive the config file (keys as TOML sections:
 * `[network.rpc.http] port = 8546`), the `SVC_NODE_*` environment variables, the command-line flags, `--help` and
 * `loadConfig`, so none of them can disagree or state a default of its own. Keys are the spec's keys without the
 * `svc.` root; `--help` lists them in the order of the tables below.
 */
import { authSettings } from './auth.js';
import { cacheSettings } from './caches.js';
import { devSettings } from './dev.js';
import { chainSettings } from './chain.js';
import { devOutputSettings } from './dev-output.js';
import { execSettings } from './exec.js';
import { forkSettings } from './fork.js';
import { healthSettings } from './health.js';
import { overrideSettings } from './override.js';
import { miningSettings } from './mining.js';
import { p2pSettings } from './p2p.js';
import { keystoreSettings, txpoolSettings } from './pool-and-keys.js';
import { rpcSettings } from './rpc.js';
import { stateSettings } from './state.js';
import type { Setting, ValueOfSetting } from './setting.js';

const tables = {
  ...chainSettings,
  ...stateSettings,
  ...forkSettings,
  ...overrideSettings,
  ...rpcSettings,
  ...authSettings,
  ...p2pSettings,
  ...miningSettings,
  ...devSettings,
  ...devOutputSettings,
  ...keystoreSettings,
  ...txpoolSettings,
  ...cacheSettings,
  ...execSettings,
  ...healthSettings,
};

export type SettingKey = keyof typeof tables;

/**
 * The groups `--help` shows, each made of whole tables: a setting added to a table lands in that table's group, so
 * nobody has to place settings by hand.
 */
const groupTables: ReadonlyArray<readonly [string, object]> = [
  ['Chain, data and logs', { ...chainSettings, ...stateSettings, ...forkSettings }],
  ['Fork schedule', overrideSettings],
  ['RPC server', rpcSettings],
  ['RPC authentication', authSettings],
  ['Peer-to-peer', p2pSettings],
  ['Mining', miningSettings],
  ["Dev chain (Anvil's flags)", { ...devSettings, ...devOutputSettings }],
  ['Accounts', keystoreSettings],
  ['Limits: transaction pool, caches, health', { ...txpoolSettings, ...cacheSettings, ...healthSettings }],
  ['Execution', execSettings],
];

/** The group names in the order `--help` shows them. */
export const settingGroups: readonly string[] = groupTables.map(([name]) => name);

/** The value `key` reads as, from its table entry: `SettingValue<'network.rpc.http.port'>` is `number`. */
export type SettingValue<K extends SettingKey> = ValueOfSetting<(typeof tables)[K]>;

export interface KeyedSetting extends Setting {
  readonly key: SettingKey;
  /** The `--help` group of the table it comes from. */
  readonly group: string;
}

export const settings: readonly KeyedSetting[] = Object.entries(tables).map(([key, setting]) => ({
  key: key as SettingKey,
  group: groupTables.find(([, table]) => key in table)![0],
  ...(setting as Setting),
}));

const byKey: ReadonlyMap<string, KeyedSetting> = new Map(settings.map((s) => [s.key, s]));

export const isSettingKey = (key: string): key is SettingKey => byKey.has(key);

export function settingOf(key: SettingKey): KeyedSetting {
  return byKey.get(key)!;
}

export { DEFAULT_PROTECTED, PEER_ADMIN_METHODS } from './auth.js';
export { defaultApis } from './rpc.js';
export { defaultOf, defaultText, envNameOf, type DefaultContext, type SettingKind } from './setting.js';
