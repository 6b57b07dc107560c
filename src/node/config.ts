/**
 * Builds the node's configuration from, in rising precedence: built-in defaults (some per network), a TOML
 * file, `SVC_NODE_*` environment variables, command-line flags. Every key comes from `settings.ts`.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { findMethod, namespaces, type Namespace } from '../generated/registry.js';
import type { SealMode } from '../chain/seal-mode.js';
import { DEFAULT_CACHE_LIMITS, type CacheLimits } from '../chain/cache-limits.js';
import type { LogLevel } from './logger.js';
import { DEFAULT_PROTECTED, envNameOf, settings, settingsByKey, type NetworkName, type Setting } from './settings.js';

/** The first account of the dev mnemonic, so dev rewards land in an account the developer holds. */
const DEV_COINBASE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface CertificateConfig {
  readonly keystorePath: string;
  readonly keystoreType: 'pkcs12';
  readonly passwordFile?: string;
}

export interface RateLimitConfig {
  readonly enabled: boolean;
  readonly minRequestIntervalMs: number;
  readonly latestTimestampCacheSize: number;
}

export interface MiningConfig {
  readonly enabled: boolean;
  /** `instant` (dev only, its default): no proof of work; `ethash`: real Ethash seals (always on mordor and etc). */
  readonly seal: SealMode;
  /** 0x-prefixed address; undefined = none configured. */
  readonly coinbase?: string;
  readonly blockTimeMs: number;
  readonly extraData: string;
  /** undefined = `<datadir>/ethash`. */
  readonly ethashCacheDir?: string;
}

/** devp2p peering (src/p2p). Enode URLs are checked by the p2p module when it starts, not here. */
export interface P2pConfig {
  /** Default true, but false in test mode (retesteth chains are single-node). */
  readonly enabled: boolean;
  /** Listen address: 127.0.0.1 on dev, 0.0.0.0 on mordor/etc. */
  readonly interface: string;
  /** TCP port, 9076 by default; 0 = pick a free one (the p2p service reports the one it got). */
  readonly port: number;
  /** enode URLs to dial at start. */
  readonly bootnodes: readonly string[];
  /** At least 1. */
  readonly maxPeers: number;
  /** Discovery is not implemented (static peers only): true only makes the node warn at start. */
  readonly discovery: boolean;
}

export interface AuthConfig {
  readonly enabled: boolean;
  /** Namespaces and method names an anonymous caller may not call; `*` = all. */
  readonly protected: readonly string[];
  /** The HS256 secret, 32 bytes as hex; created when missing. */
  readonly jwtSecretFile: string;
  /** One API key per line (`#` comments, blank lines ignored); absent = no API keys. */
  readonly apiKeysFile?: string;
}

export interface NodeConfig {
  readonly network: NetworkName;
  /** Bounds of the engine's in-memory caches and LevelDB's cache and write buffer (`cache.*`, `db.*`). */
  readonly caches: CacheLimits;
  /** ECIP-1097 checkpointing with the dev federation (dev only; the engine uses `devWithCheckpointing`). */
  readonly checkpointing: boolean;
  readonly p2p: P2pConfig;
  readonly mining: MiningConfig;
  readonly keystore: { readonly minimalPassphraseLength: number };
  readonly txpool: { readonly size: number; readonly transactionTimeoutMs: number };
  readonly datadir: string;
  readonly testmode: boolean;
  readonly logLevel: LogLevel;
  readonly configFile?: string;
  readonly rpc: {
    /** Effective enabled namespaces, in registry order: always includes `rpc`; testmode adds `test` and `debug`. */
    readonly apis: readonly Namespace[];
    readonly maxBatchSize: number;
    readonly validateResults: boolean;
    readonly accountTransactionsMaxBlocks: number;
    /** eth_getLogs / eth_getFilterLogs limits. */
    readonly logs: { readonly maxBlockRange: number; readonly maxResults: number };
    /** Idle time after which a polled filter is removed. */
    readonly filterTimeoutMs: number;
    readonly http: {
      readonly mode: 'http' | 'https';
      readonly interface: string;
      readonly port: number;
      readonly corsAllowedOrigins: '*' | readonly string[];
      readonly maxBodySize: number;
      readonly certificate?: CertificateConfig;
      readonly rateLimit: RateLimitConfig;
    };
    /** `maxBufferedBytes`: unsent bytes one client may fall behind before it is disconnected. */
    /** `pingIntervalMs`: heartbeat; a client that misses a pong is disconnected (0 = off). */
    readonly ws: { readonly enabled: boolean; readonly maxBufferedBytes: number; readonly maxOutstandingRequests: number; readonly pingIntervalMs: number };
    /** eth_call / eth_estimateGas: the most gas a request may name, the longest it may run (0 = no limit). */
    readonly call: { readonly gasCap: bigint; readonly timeoutMs: number };
    /** debug_accountRange / debug_storageRangeAt: the largest page. */
    readonly debug: { readonly maxRangeResults: number };
    /** JWT / API-key authentication of callers (src/server/auth.ts); off unless configured. */
    readonly auth: AuthConfig;
    /** `GET /metrics` (Prometheus text format): on by default on dev only. */
    readonly metrics: { readonly enabled: boolean };
    readonly health: { readonly noUpdateDurationThresholdMs: number; readonly syncingStatusThreshold: number };
  };
}

type Value = string | number | boolean | readonly string[];
/** Where each raw value came from, for error messages. */
interface Raw {
  value: unknown;
  source: string;
}

/** Default `apis` per network: mordor/etc follow the spec's sample production configuration. */
export function defaultApis(network: NetworkName): Namespace[] {
  if (network === 'dev') return namespaces.filter((ns) => ns !== 'test');
  return ['eth', 'web3', 'net'];
}

export interface ConfigSources {
  /** Values from flags, keyed by setting key (already mapped from flag names). */
  flags?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** Path of a TOML file; relative to `cwd`. */
  configFile?: string;
  cwd?: string;
}

export function loadConfig(sources: ConfigSources = {}): NodeConfig {
  const env = sources.env ?? {};
  const cwd = sources.cwd ?? process.cwd();
  const raw = new Map<string, Raw>();

  const configFile = sources.configFile ?? env.SVC_NODE_CONFIG;
  let configPath: string | undefined;
  if (configFile) {
    configPath = resolve(cwd, expandHome(configFile));
    for (const [key, value] of Object.entries(readTomlFile(configPath))) {
      raw.set(key, { value, source: `${configPath}: ${key}` });
    }
  }
  for (const setting of settings) {
    const name = envNameOf(setting.key);
    const value = env[name];
    if (value !== undefined && value !== '') raw.set(setting.key, { value, source: `environment ${name}` });
  }
  for (const [key, value] of Object.entries(sources.flags ?? {})) {
    if (value === undefined) continue;
    const flag = settingsByKey.get(key)?.flag ?? key;
    raw.set(key, { value, source: `--${flag}` });
  }

  const get = <T extends Value>(key: string): T | undefined => {
    const entry = raw.get(key);
    if (entry === undefined) return undefined;
    const setting = settingsByKey.get(key);
    if (!setting) throw new ConfigError(`unknown setting "${key}" (${entry.source})`);
    return coerce(setting, entry) as T;
  };
  const getPath = (key: string): string | undefined => {
    const p = get<string>(key);
    return p === undefined ? undefined : resolve(cwd, expandHome(p));
  };

  const network = get<NetworkName>('blockchains.network') ?? 'dev';
  const checkpointing = get<boolean>('blockchains.checkpointing') ?? false;
  if (checkpointing && network !== 'dev') {
    throw new ConfigError(`blockchains.checkpointing is for the dev network only: ECIP-1097 was never activated on ${network}`);
  }
  const testmode = get<boolean>('testmode') ?? false;
  const apis = resolveApis(get<string[]>('network.rpc.apis') ?? defaultApis(network), testmode);
  const mode = get<'http' | 'https'>('network.rpc.http.mode') ?? 'http';
  const keystorePath = getPath('network.rpc.http.certificate.keystore-path');
  if (mode === 'https' && !keystorePath) {
    throw new ConfigError('network.rpc.http.mode is "https" but network.rpc.http.certificate.keystore-path is not set');
  }
  const port = get<number>('network.rpc.http.port') ?? 8546;
  if (port > 65535) throw new ConfigError(`network.rpc.http.port must be 0..65535, got ${port}`);

  const p2pPort = get<number>('network.server-address.port') ?? 9076;
  if (p2pPort > 65535) throw new ConfigError(`network.server-address.port must be 0..65535, got ${p2pPort}`);
  const maxPeers = get<number>('network.max-peers') ?? 25;
  if (maxPeers < 1) throw new ConfigError(`network.max-peers must be at least 1, got ${maxPeers}`);

  const seal = get<SealMode>('mining.seal') ?? (network === 'dev' ? 'instant' : 'ethash');
  if (seal === 'instant' && network !== 'dev') {
    throw new ConfigError(`mining.seal = "instant" is for the dev network only: ${network} blocks carry an Ethash seal (use --seal ethash or leave it out)`);
  }
  const coinbase = get<string>('mining.coinbase');
  if (coinbase !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(coinbase)) {
    throw new ConfigError(`mining.coinbase must be a 20-byte address (0x + 40 hex digits), got "${coinbase}"`);
  }
  // Checkpointing changes every header from block 1, so it gets its own default directory (see Blockchain.open).
  // The instant-seal dev chain is another chain than the Ethash one (another genesis): its own directory too, so
  // `--seal ethash` keeps finding the Ethash dev chain where it always was.
  const datadir = getPath('datadir') ?? join(homedir(), '.svc-node', `${checkpointing ? 'dev-checkpointing' : network}${seal === 'instant' ? '-instant' : ''}`);
  const d = DEFAULT_CACHE_LIMITS;
  const atLeastOne = (key: string, fallback: number) => Math.max(1, get<number>(key) ?? fallback);
  const caches: CacheLimits = {
    trieNodes: atLeastOne('cache.trie-nodes', d.trieNodes),
    trieDecodedNodes: atLeastOne('cache.trie-decoded-nodes', d.trieDecodedNodes),
    trieLookups: atLeastOne('cache.trie-lookups', d.trieLookups),
    blocks: atLeastOne('cache.blocks', d.blocks),
    headers: atLeastOne('cache.headers', d.headers),
    receipts: atLeastOne('cache.receipts', d.receipts),
    canonicalHashes: atLeastOne('cache.canonical-hashes', d.canonicalHashes),
    stateViews: atLeastOne('cache.state-views', d.stateViews),
    callExecutors: atLeastOne('cache.call-executors', d.callExecutors),
    dbCacheBytes: get<number>('db.cache-size') ?? d.dbCacheBytes,
    dbWriteBufferBytes: atLeastOne('db.write-buffer-size', d.dbWriteBufferBytes),
  };
  return {
    network,
    caches,
    checkpointing,
    p2p: {
      enabled: get<boolean>('network.p2p.enabled') ?? !testmode,
      interface: get<string>('network.server-address.interface') ?? (network === 'dev' ? '127.0.0.1' : '0.0.0.0'),
      port: p2pPort,
      bootnodes: get<string[]>('network.bootnodes') ?? [],
      maxPeers,
      discovery: get<boolean>('network.discovery.discovery-enabled') ?? false,
    },
    mining: {
      enabled: get<boolean>('mining.mining-enabled') ?? network === 'dev',
      seal,
      coinbase: coinbase ?? (network === 'dev' ? DEV_COINBASE : undefined),
      blockTimeMs: get<number>('mining.block-time') ?? 0,
      extraData: get<string>('mining.header-extra-data') ?? 'svc-node',
      ...(getPath('mining.ethash-cache-dir') !== undefined ? { ethashCacheDir: getPath('mining.ethash-cache-dir') } : {}),
    },
    keystore: { minimalPassphraseLength: get<number>('keystore.minimal-passphrase-length') ?? 7 },
    txpool: {
      size: get<number>('txpool.tx-pool-size') ?? 1000,
      transactionTimeoutMs: get<number>('txpool.transaction-timeout') ?? 120_000,
    },
    datadir,
    testmode,
    logLevel: get<LogLevel>('logging.level') ?? 'info',
    configFile: configPath,
    rpc: {
      apis,
      maxBatchSize: get<number>('network.rpc.max-batch-size') ?? 1000,
      validateResults: get<boolean>('network.rpc.validate-results') ?? (env.NODE_ENV === 'test' || testmode),
      accountTransactionsMaxBlocks: get<number>('network.rpc.account-transactions-max-blocks') ?? 1000,
      logs: {
        maxBlockRange: get<number>('network.rpc.logs.max-block-range') ?? 10_000,
        maxResults: get<number>('network.rpc.logs.max-results') ?? 10_000,
      },
      filterTimeoutMs: get<number>('filter.filter-timeout') ?? 5 * 60_000,
      http: {
        mode,
        interface: get<string>('network.rpc.http.interface') ?? '127.0.0.1',
        port,
        corsAllowedOrigins: get<'*' | string[]>('network.rpc.http.cors-allowed-origins') ?? [],
        maxBodySize: get<number>('network.rpc.http.max-body-size') ?? 5 * 1024 * 1024,
        certificate: keystorePath
          ? {
              keystorePath,
              keystoreType: get<'pkcs12'>('network.rpc.http.certificate.keystore-type') ?? 'pkcs12',
              passwordFile: getPath('network.rpc.http.certificate.password-file'),
            }
          : undefined,
        rateLimit: {
          enabled: get<boolean>('network.rpc.http.rate-limit.enabled') ?? false,
          minRequestIntervalMs: get<number>('network.rpc.http.rate-limit.min-request-interval') ?? 10_000,
          latestTimestampCacheSize: get<number>('network.rpc.http.rate-limit.latest-timestamp-cache-size') ?? 1024,
        },
      },
      ws: {
        enabled: get<boolean>('network.rpc.ws.enabled') ?? true,
        maxBufferedBytes: get<number>('network.rpc.ws.max-buffered-bytes') ?? 16 * 1024 * 1024,
        maxOutstandingRequests: Math.max(1, get<number>('network.rpc.ws.max-outstanding-requests') ?? 256),
        pingIntervalMs: get<number>('network.rpc.ws.ping-interval') ?? 30_000,
      },
      call: {
        gasCap: BigInt(get<number>('network.rpc.call.gas-cap') ?? 50_000_000),
        timeoutMs: get<number>('network.rpc.call.timeout') ?? 5_000,
      },
      debug: { maxRangeResults: get<number>('network.rpc.debug.max-range-results') ?? 10_000 },
      auth: {
        enabled: get<boolean>('network.rpc.auth.enabled') ?? false,
        protected: checkProtected(get<string[]>('network.rpc.auth.protected') ?? DEFAULT_PROTECTED),
        jwtSecretFile: getPath('network.rpc.auth.jwt-secret-file') ?? join(datadir, 'jwt.hex'),
        ...(getPath('network.rpc.auth.api-keys-file') !== undefined ? { apiKeysFile: getPath('network.rpc.auth.api-keys-file') } : {}),
      },
      metrics: { enabled: get<boolean>('network.rpc.metrics.enabled') ?? network === 'dev' },
      health: {
        noUpdateDurationThresholdMs: get<number>('network.rpc.health.no-update-duration-threshold') ?? 30 * 60_000,
        syncingStatusThreshold: get<number>('network.rpc.health.syncing-status-threshold') ?? 10,
      },
    },
  };
}

/** A typo in the protected list would silently leave a method open: every entry must name something. */
function checkProtected(list: readonly string[]): readonly string[] {
  const unknown = list.filter((name) => name !== '*' && !(namespaces as readonly string[]).includes(name) && findMethod(name) === undefined);
  if (unknown.length > 0) {
    throw new ConfigError(`network.rpc.auth.protected names no namespace or method: ${unknown.join(', ')}`);
  }
  return list;
}

/** Validates the requested namespaces and returns the effective set in registry order. */
export function resolveApis(requested: readonly string[], testmode: boolean): Namespace[] {
  const valid = new Set<string>(namespaces);
  const unknown = requested.filter((name) => !valid.has(name));
  if (unknown.length > 0) {
    throw new ConfigError(`Invalid RPC APIs specified: ${unknown.join(',')}. Valid ones are: ${namespaces.join(', ')}`);
  }
  const enabled = new Set<string>(requested);
  if (enabled.has('test') && !testmode) {
    throw new ConfigError('the "test" namespace is only available with --testmode (testmode = true)');
  }
  enabled.add('rpc');
  if (testmode) {
    enabled.add('test');
    enabled.add('debug');
  }
  return namespaces.filter((ns) => enabled.has(ns));
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

/** Reads a TOML file into dotted keys; tables nest (`[network.rpc.http]`), arrays are values. */
function readTomlFile(path: string): Record<string, unknown> {
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
  const flat: Record<string, unknown> = {};
  const walk = (obj: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix + k;
      if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)) {
        walk(v as Record<string, unknown>, key + '.');
      } else {
        if (!settingsByKey.has(key)) {
          throw new ConfigError(`unknown setting "${key}" in ${path}; known settings: ${settings.map((s) => s.key).join(', ')}`);
        }
        flat[key] = v;
      }
    }
  };
  walk(doc, '');
  return flat;
}

const durationUnits: Record<string, number> = {
  '': 1, ms: 1, milli: 1, millis: 1, millisecond: 1, milliseconds: 1,
  s: 1000, sec: 1000, second: 1000, seconds: 1000,
  m: 60_000, min: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hour: 3_600_000, hours: 3_600_000,
};

/** Turns a raw value (TOML-typed, or a string from env/flags) into the setting's type. */
function coerce(setting: Setting, { value, source }: Raw): Value {
  const fail = (expected: string): never => {
    throw new ConfigError(`${setting.key} (${source}) must be ${expected}, got ${JSON.stringify(value)}`);
  };
  switch (setting.kind) {
    case 'string':
    case 'path':
      return typeof value === 'string' && value !== '' ? value : fail('a non-empty string');
    case 'enum':
      return typeof value === 'string' && setting.values!.includes(value) ? value : fail(`one of ${setting.values!.join(', ')}`);
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === '1') return true;
      if (value === 'false' || value === '0') return false;
      return fail('true or false');
    case 'int': {
      const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
      return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : fail('a non-negative integer');
    }
    case 'duration': {
      if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : fail('a duration');
      const m = typeof value === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value) : null;
      const unit = m ? durationUnits[m[2]!.toLowerCase()] : undefined;
      return m && unit !== undefined ? Math.round(Number(m[1]) * unit) : fail('a duration such as 100, "100ms", "10s" or "30m"');
    }
    case 'list': {
      const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : fail('a comma list');
      return list.map((v) => (typeof v === 'string' ? v.trim() : fail('a list of strings'))).filter((v) => v !== '');
    }
    case 'origins': {
      if (value === '*') return '*';
      const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : fail('"*" or a list of origins');
      const origins = list.map((v) => (typeof v === 'string' ? v.trim() : fail('"*" or a list of origins'))).filter((v) => v !== '');
      return origins.includes('*') ? '*' : origins;
    }
  }
}
