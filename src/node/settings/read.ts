/**
 * Reads the settings from, in rising precedence: their defaults (from the tables), a TOML file, `SVC_NODE_*`
 * environment variables, command-line flags. `get` is typed by key: an unknown key does not compile, and the value
 * has the type its table entry gives.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { editDistance } from '../../chain/index.js';
import { ConfigError } from '../config-error.js';
import { coerce, type Raw } from './coerce.js';
import { isSettingKey, settingOf, settings, type SettingKey, type SettingValue } from './index.js';
import { defaultOf, envNameOf, type DefaultContext } from './setting.js';

export interface ConfigSources {
  /** Values from flags, keyed by setting key (already mapped from flag names). */
  flags?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** Path of a TOML file; relative to `cwd`. */
  configFile?: string;
  cwd?: string;
}

export interface SettingsReader {
  /** The value from the highest source that gives one, else the default; paths resolved against `cwd`. */
  get<K extends SettingKey>(key: K): SettingValue<K>;
  /** The config file read, absolute; undefined when none. */
  readonly configPath: string | undefined;
  readonly env: NodeJS.ProcessEnv;
}

export function readSettings(sources: ConfigSources = {}): SettingsReader {
  const env = sources.env ?? {};
  const cwd = sources.cwd ?? process.cwd();
  const raw = new Map<SettingKey, Raw>();

  const configFile = sources.configFile ?? env.SVC_NODE_CONFIG;
  let configPath: string | undefined;
  if (configFile) {
    configPath = resolve(cwd, expandHome(configFile));
    for (const [key, value] of Object.entries(readTomlFile(configPath))) {
      raw.set(key as SettingKey, { value, source: `${configPath}: ${key}` });
    }
  }
  for (const setting of settings) {
    const name = envNameOf(setting.key);
    const value = env[name];
    if (value !== undefined && value !== '') raw.set(setting.key, { value, source: `environment ${name}` });
  }
  for (const [key, value] of Object.entries(sources.flags ?? {})) {
    // A key no setting has is never read, as before the tables were typed.
    if (value === undefined || !isSettingKey(key)) continue;
    raw.set(key, { value, source: `--${settingOf(key).flag ?? key}` });
  }

  // Defaults that depend on other settings read them through here, each when first asked.
  const ctx: DefaultContext = {
    get network() {
      return get('blockchains.network');
    },
    get checkpointing() {
      return get('blockchains.checkpointing');
    },
    get testmode() {
      return get('testmode');
    },
    get seal() {
      return get('mining.seal');
    },
    get datadir() {
      return get('datadir');
    },
    get devGenesis() {
      return [get('dev.mnemonic').trim().split(/\s+/).join(' '), get('dev.accounts'), get('dev.balance')].join('\n');
    },
    env,
    given: (key) => raw.has(key as SettingKey),
  };

  function get<K extends SettingKey>(key: K): SettingValue<K> {
    const setting = settingOf(key);
    const entry = raw.get(key);
    if (entry === undefined) return defaultOf(setting, ctx) as SettingValue<K>;
    const value = coerce(key, setting, entry);
    return (setting.kind === 'path' ? resolve(cwd, expandHome(value as string)) : value) as SettingValue<K>;
  }

  return { get, configPath, env };
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

/** Reads a TOML file into dotted keys; tables nest (`[network.rpc.http]`), arrays are values. */
function readTomlFile(path: string): Partial<Record<SettingKey, unknown>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`config file ${path} is not valid TOML: ${(err as Error).message}`);
  }
  const flat: Partial<Record<SettingKey, unknown>> = {};
  const walk = (obj: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix + k;
      if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)) {
        walk(v as Record<string, unknown>, key + '.');
      } else {
        if (!isSettingKey(key)) {
          const near = nearestKey(key);
          throw new ConfigError(
            `unknown setting "${key}" in ${path}` +
              (near !== undefined ? `: did you mean ${near}?` : '') +
              ' (svc-node --help all lists every setting and its section)',
          );
        }
        flat[key] = v;
      }
    }
  };
  walk(doc, '');
  return flat;
}

/**
 * `SVC_NODE_` variables the node reads that are not settings, and the build's SVC_NODE_SOURCE_MAPS (bin/fs-util.js),
 * which a developer may keep set in the shell that starts nodes.
 */
const NOT_SETTINGS = new Set(['SVC_NODE_CONFIG', 'SVC_NODE_TEST_CODE', 'SVC_NODE_SOURCE_MAPS']);

/**
 * `SVC_NODE_` variables that are no setting's but look like one: a typo, or a flag's name written as a variable
 * (`SVC_NODE_HTTP_PORT` for `--http.port`). They are ignored, as unknown variables must be (a container may carry
 * others), so the command line warns of them; a name that resembles no setting is left alone.
 */
export function misspeltEnvironment(env: NodeJS.ProcessEnv): { name: string; meant: string }[] {
  const known = new Map(settings.map((s) => [envNameOf(s.key), s] as const));
  const found: { name: string; meant: string }[] = [];
  for (const name of Object.keys(env)) {
    if (!name.startsWith('SVC_NODE_') || known.has(name) || NOT_SETTINGS.has(name)) continue;
    const rest = name.slice('SVC_NODE_'.length);
    const asFlag = rest.toLowerCase().replaceAll('_', '.');
    const byFlag = settings.find((s) => s.flag !== undefined && s.flag.replaceAll('-', '.') === asFlag);
    const bySuffix = [...known.keys()].filter((k) => k.endsWith(`_${rest}`));
    let meant = byFlag !== undefined ? envNameOf(byFlag.key) : bySuffix.length === 1 ? bySuffix[0] : undefined;
    if (meant === undefined) {
      let best = 3;
      for (const k of known.keys()) {
        const distance = editDistance(name, k);
        if (distance <= best) [best, meant] = [distance, k];
      }
    }
    if (meant !== undefined) found.push({ name, meant });
  }
  return found;
}

/**
 * The setting a mistyped or misplaced key most likely meant: the one with the same last name in another section
 * (`[mining] checkpointing` for `[blockchains] checkpointing`), else the one a few letters away.
 */
function nearestKey(key: string): string | undefined {
  const name = key.slice(key.lastIndexOf('.') + 1);
  const sameName = settings.filter((s) => s.key === name || s.key.endsWith(`.${name}`));
  if (sameName.length === 1) return sameName[0]!.key;
  let best: { key: string; distance: number } | undefined;
  for (const { key: known } of settings) {
    const distance = editDistance(key, known);
    if (distance <= 3 && (best === undefined || distance < best.distance)) best = { key: known, distance };
  }
  return best?.key;
}
