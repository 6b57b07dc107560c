/**
 * What one setting is: its kind, its flag, its text, and its default, stated once as a value (or as a function of
 * the network, test mode or environment where it depends on them). The config file, the environment, the flags,
 * `--help` and `loadConfig` all read it from here. The helpers below keep each default's literal type, so that
 * the value type of a setting (and whether it may be absent) follows from its table entry.
 */
import type { NetworkName, SealMode } from '../../chain/index.js';
import { formatDuration } from './duration.js';

/** What a default may depend on. `loadConfig` answers each field from the setting it names, when asked. */
export interface DefaultContext {
  readonly network: NetworkName;
  readonly checkpointing: boolean;
  readonly testmode: boolean;
  readonly seal: SealMode;
  readonly datadir: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * The dev chain's test accounts as `dev.mnemonic`, `dev.accounts` and `dev.balance` name them, one line each:
   * another set is another genesis, so another default datadir.
   */
  readonly devGenesis?: string;
  /** Whether the setting named `key` was given (config file, environment or flag), not left to its default. */
  readonly given?: (key: string) => boolean;
}

/** The value each kind of setting takes once read (durations in milliseconds). */
export interface ValueOfKind {
  string: string;
  path: string;
  address: string;
  int: number;
  bool: boolean;
  duration: number;
  list: readonly string[];
  origins: '*' | readonly string[];
  enum: string;
  /** A block number in decimal, or `never`. */
  block: string;
}

export type SettingKind = keyof ValueOfKind;

/** A default: a value, none (`undefined`), or a function of the context giving either. */
export type DefaultOf<V> = V | undefined | ((ctx: DefaultContext) => V | undefined);

export interface SettingSpec<D> {
  /** Command-line flag without the leading `--`, when the setting has one. */
  readonly flag?: string;
  /** Other names of the flag (another tool's, so its command lines work unchanged), without the leading `--`. */
  readonly aliases?: readonly string[];
  /** A duration given as a bare number counts seconds, not milliseconds (the tools whose flags it copies do so). */
  readonly bareSeconds?: boolean;
  readonly description: string;
  readonly default: D;
  /**
   * The default as `--help` shows it, where printing the value would not say it (a function of the network, a
   * path under the datadir, a value with a remark). Required for a default that is a function.
   */
  readonly help?: string;
  /**
   * Bounds of an `int` or `duration` setting (a duration's in milliseconds), checked wherever the value comes from,
   * so that every count and port refuses what it cannot mean with one message stating the range.
   */
  readonly min?: number;
  readonly max?: number;
  /** Added to the message refusing a value out of bounds: what to do instead. */
  readonly hint?: string;
  /** What `--help` writes after the flag when the kind's own (`<value>`) would not say what to give. */
  readonly placeholder?: string;
}

export interface Setting<K extends SettingKind = SettingKind, D = unknown> extends SettingSpec<D> {
  readonly kind: K;
  /** The allowed values of an `enum` setting. */
  readonly values?: readonly string[];
}

const of =
  <K extends Exclude<SettingKind, 'enum'>>(kind: K) =>
  <D extends DefaultOf<ValueOfKind[K]>>(spec: SettingSpec<D>): Setting<K, D> & { readonly values?: undefined } => ({
    kind,
    ...spec,
  });

export const string = of('string');
export const path = of('path');
export const int = of('int');
export const bool = of('bool');
export const duration = of('duration');
export const list = of('list');
export const origins = of('origins');
/** A block number, or `never`/`none` (a fork schedule entry). */
export const block = of('block');

/** A TCP/UDP port: 0 asks the system for any free one. */
export const port = <D extends DefaultOf<number>>(spec: SettingSpec<D>) => int({ min: 0, max: 65535, ...spec });

/** A count of things the node needs at least one of (a cache of none would make every lookup a miss). */
export const count = <D extends DefaultOf<number>>(spec: SettingSpec<D>) => int({ min: 1, ...spec });

/** An address to listen on: an IP address of this machine (or a wildcard), or a host name; checked when read. */
export const address = of('address');

export const oneOf = <const E extends string, D extends DefaultOf<E>>(
  values: readonly E[],
  spec: SettingSpec<D>,
): Setting<'enum', D> & { readonly values: readonly E[] } => ({
  kind: 'enum',
  values,
  ...spec,
});

type Produced<D> = D extends (ctx: DefaultContext) => infer R ? R : D;

/** The value a setting reads as: its kind's type (an enum's own values), or undefined too where its default may be none. */
export type ValueOfSetting<S> = S extends { readonly kind: infer K; readonly default: infer D }
  ?
      | (K extends 'enum'
          ? S extends { readonly values: readonly (infer E)[] }
            ? E
            : never
          : ValueOfKind[K & SettingKind])
      | (undefined extends Produced<D> ? undefined : never)
  : never;

/** The default of `setting` in `ctx`. */
export function defaultOf(setting: Setting, ctx: DefaultContext): unknown {
  const d = setting.default;
  return typeof d === 'function' ? (d as (ctx: DefaultContext) => unknown)(ctx) : d;
}

/** The default as `--help` prints it. */
export function defaultText(setting: Setting): string {
  if (setting.help !== undefined) return setting.help;
  const d = setting.default;
  if (typeof d === 'function') throw new Error('a setting whose default is a function needs a help text');
  if (d === undefined) return 'none';
  switch (setting.kind) {
    case 'duration':
      return formatDuration(d as number);
    case 'list':
    case 'origins':
      return d === '*' ? '*' : (d as readonly string[]).length === 0 ? 'none' : (d as readonly string[]).join(',');
    default:
      return String(d);
  }
}

/** `network.rpc.http.rate-limit.enabled` → `SVC_NODE_NETWORK_RPC_HTTP_RATE_LIMIT_ENABLED`. */
export const envNameOf = (key: string): string => 'SVC_NODE_' + key.toUpperCase().replace(/[.-]/g, '_');
