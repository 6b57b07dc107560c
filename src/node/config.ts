/**
 * The node's configuration: the settings (src/node/settings/, where every default is stated) read from their
 * sources, checked together and shaped for the parts of the node that use them.
 */
import { isIP, isIPv4 } from 'node:net';
import { findMethod, namespaces, type Namespace } from '../generated/registry.js';
import type { NetworkName, SealMode, CacheLimits, StateRetentionOptions, ForkOverrides } from '../chain/index.js';
import { forkOverridesOf } from './settings/override.js';
import { TREE_URL } from '../p2p/discovery/tree-url.js';
import { ConfigError } from './config-error.js';
import { devOutputOf, type DevOutputConfig } from './dev-output-config.js';
import { type CallLimits, callLimitsOf } from './call-limits.js';
import type { LogLevel } from './logger.js';
import { readSettings, type ConfigSources } from './settings/read.js';
import { type ForkConfig, type ForkRequestLimits, forkOf, forkRequestsOf } from './fork/fork-config.js';
import { devConfigOf, type DevConfig } from './dev-config.js';

export { ConfigError } from './config-error.js';
export type { ConfigSources } from './settings/read.js';
export { defaultApis } from './settings/rpc.js';
export type { ForkCacheConfig, ForkConfig, ForkRequestLimits } from './fork/fork-config.js';

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
  /** Inbound connections in their handshake at once, in all and per IP (not counted in maxPeers). */
  readonly maxPendingPeers: number;
  readonly maxPendingPeersPerIp: number;
  /** discv4 + DNS trees on (mordor/etc by default). */
  readonly discovery: boolean;
  /** UDP port of discv4; undefined = the p2p port. */
  readonly discoveryPort?: number;
  /** Refresh tick of the discv4 table, ms. */
  readonly discoveryIntervalMs: number;
  /** EIP-1459 tree URLs. */
  readonly dnsTrees: readonly string[];
  /** DNS server for the trees (ip[:port]); undefined = the system's. */
  readonly dnsServer?: string;
  /** From `--nat extip:<ip>`: the IPv4 address to announce. */
  readonly externalIp?: string;
  /** Share (0–1) of maxPeers filled by dialling discovered nodes. */
  readonly dialRatio: number;
  /** How an empty node catches up: snap/1 state download (mordor/etc) or execution from genesis (dev). */
  readonly syncMode: 'snap' | 'full';
  /** Snap sync: blocks between the peers' head and the pivot. */
  readonly pivotDistance: number;
  /** Snap sync: ms of pause before each healing GetTrieNodes request. */
  readonly healPauseMs: number;
  /** Snap sync: resident-set ceiling in bytes. */
  readonly snapMaxRssBytes: number;
  /** snap/1 requests of one peer answered at a time (the per-peer serving budget). */
  readonly snapRequestsPerPeer: number;
  /** The most bytes of one snap/1 answer we serve. */
  readonly snapResponseBytes: number;
}

export interface AuthConfig {
  readonly enabled: boolean;
  /** Namespaces and method names an anonymous caller may not call; `*` = all. */
  readonly protected: readonly string[];
  /** Auth off: whether everyone may call the peer administration methods (PEER_ADMIN_METHODS); dev only by default. */
  readonly anonymousPeerAdmin: boolean;
  /** The HS256 secret, 32 bytes as hex; created when missing. */
  readonly jwtSecretFile: string;
  /** One API key per line (`#` comments, blank lines ignored); absent = no API keys. */
  readonly apiKeysFile?: string;
}

export interface NodeConfig {
  readonly network: NetworkName;
  readonly forkOverrides: ForkOverrides; // override.<fork>: moved (null: unscheduled), order checked
  /** Set in fork mode (dev only). */
  readonly fork?: ForkConfig;
  /** The upstream request limits, also for a fork anvil_reset starts on a node started without one. */
  readonly forkRequests: ForkRequestLimits;
  /** Anvil's dev flags (`dev.*`): the test accounts, interval mining, the state file, the pool's order. */
  readonly dev: DevConfig;
  /** Bounds of the engine's in-memory caches and LevelDB's cache and write buffer (`cache.*`, `db.*`). */
  readonly caches: CacheLimits;
  /** `db.write-behind`: blocks are answered once they are the in-memory head, their writes queued in order. */
  readonly writeBehind: boolean;
  /** `exec.*`: call workers (0 = the main thread) and their queue; blocks sealed here: their paths and their checks. */
  readonly exec: {
    readonly workers: number;
    readonly maxQueued: number;
    readonly sealCheckLag: number;
    readonly lean: boolean;
  };
  /** `state.*`: which states are kept (`--gcmode`), and how far traces re-execute into pruned ones. */
  readonly state: StateRetentionOptions & { readonly reexec: number; readonly pruneMinBytes: number };
  /** ECIP-1097 checkpointing with the dev federation (dev only; the engine uses `devWithCheckpointing`). */
  readonly checkpointing: boolean;
  readonly p2p: P2pConfig;
  readonly mining: MiningConfig;
  readonly devOutput: DevOutputConfig; // dev.*: console.log lines, --print-traces
  /** lightKdf: new keys get geth's light scrypt parameters. */
  readonly keystore: { readonly minimalPassphraseLength: number; readonly lightKdf: boolean };
  readonly txpool: { readonly size: number; readonly transactionTimeoutMs: number };
  readonly datadir: string;
  readonly testmode: boolean;
  readonly logLevel: LogLevel;
  /** No start banner (`--quiet`). */
  readonly quiet: boolean;
  /** ms between the progress lines of `import` and `export`. */
  readonly progressIntervalMs: number;
  readonly configFile?: string;
  readonly rpc: {
    /** Effective enabled namespaces, in registry order: always includes `rpc`; testmode adds `test` and `debug`. */
    readonly apis: readonly Namespace[];
    readonly maxBatchSize: number;
    readonly validateResults: boolean;
    readonly accountTransactionsMaxBlocks: number;
    /** eth_getLogs / eth_getFilterLogs limits. */
    readonly logs: { readonly maxBlockRange: number; readonly maxResults: number };
    /** trace_filter limits. */
    readonly trace: { readonly filterMaxBlocks: number; readonly filterMaxCount: number };
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
    readonly ws: {
      readonly enabled: boolean;
      readonly maxBufferedBytes: number;
      readonly maxOutstandingRequests: number;
      readonly pingIntervalMs: number;
    };
    /** eth_call and its kin (call-limits.ts). */
    readonly call: CallLimits;
    /**
     * debug_accountRange / debug_storageRangeAt: the largest page; debug_trace*: the longest run (0 = no limit), the
     * most struct-log entries, the most memory one trace takes, and how many run and wait at once.
     */
    readonly debug: {
      readonly maxRangeResults: number;
      readonly traceTimeoutMs: number;
      readonly maxStructLogs: number;
      readonly maxTraceBytes: number;
      readonly maxConcurrentTraces: number;
      readonly traceQueue: number;
    };
    /** JWT / API-key authentication of callers (src/server/auth.ts); off unless configured. */
    readonly auth: AuthConfig;
    /** `GET /metrics` (Prometheus text format): on by default on dev only. */
    readonly metrics: { readonly enabled: boolean };
    readonly health: { readonly noUpdateDurationThresholdMs: number; readonly syncingStatusThreshold: number };
  };
}

/**
 * `ip` or `ip:port` (`[ipv6]:port`), what Node's resolver takes; checked here because the resolver throws only when
 * peering starts, after the RPC server already listens.
 */
function dnsServerOf(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const v = value.trim();
  const withPort = /^\[(.+)\]:(\d+)$/.exec(v) ?? /^([^:]+):(\d+)$/.exec(v);
  const host = withPort?.[1] ?? v;
  const port = withPort === null ? 53 : Number(withPort[2]);
  if (isIP(host) === 0 || port < 1 || port > 65535)
    throw new ConfigError(
      `network.discovery.dns-server (--dns.server) must be an IP address, optionally with a port (1.1.1.1, ` +
        `1.1.1.1:53, [::1]:53), got ${JSON.stringify(value)}`,
    );
  return v;
}

/** The discovery settings, checked: a port in range, `--nat` as `extip:<IPv4>` or `none`, a ratio of 1–100 %. */
function discoveryOf(get: ReturnType<typeof readSettings>['get']) {
  const port = get('network.discovery.port');
  const nat = get('network.nat')?.trim();
  let externalIp: string | undefined;
  if (nat !== undefined && nat !== '' && nat !== 'none') {
    const ip = /^extip:(.+)$/.exec(nat)?.[1];
    if (ip === undefined || !isIPv4(ip))
      throw new ConfigError(`network.nat must be "extip:<IPv4 address>" or "none", got "${nat}"`);
    externalIp = ip;
  }
  const ratio = get('network.dial-ratio');
  const dnsServer = dnsServerOf(get('network.discovery.dns-server'));
  const dnsTrees = get('network.discovery.dns');
  // A tree URL that cannot be one would only be refused once peering runs, as a warning among the start-up lines.
  for (const url of dnsTrees) {
    if (!TREE_URL.test(url.trim()))
      throw new ConfigError(`network.discovery.dns (--dns): "${url}" is not an enrtree://<public key>@<domain> URL`);
  }
  return {
    ...(port !== undefined ? { discoveryPort: port } : {}),
    discoveryIntervalMs: get('network.discovery.interval'),
    dnsTrees,
    ...(dnsServer ? { dnsServer } : {}),
    ...(externalIp !== undefined ? { externalIp } : {}),
    dialRatio: ratio / 100,
  };
}

export function loadConfig(sources: ConfigSources = {}): NodeConfig {
  const { get, configPath } = readSettings(sources);

  const network = get('blockchains.network');
  const checkpointing = get('blockchains.checkpointing');
  if (checkpointing && network !== 'dev')
    throw new ConfigError(
      `blockchains.checkpointing is for the dev network only: ECIP-1097 was never activated on ${network}`,
    );
  const testmode = get('testmode');
  const apis = resolveApis(get('network.rpc.apis'), testmode, network);
  const mode = get('network.rpc.http.mode');
  const keystorePath = get('network.rpc.http.certificate.keystore-path');
  if (mode === 'https' && !keystorePath) {
    throw new ConfigError('network.rpc.http.mode is "https" but network.rpc.http.certificate.keystore-path is not set');
  }
  // Ports, counts and durations are bounded by their settings (settings/coerce.ts), whatever their source.
  const port = get('network.rpc.http.port');
  const p2pPort = get('network.server-address.port');
  const maxPeers = get('network.max-peers');

  const seal = get('mining.seal');
  if (seal === 'instant' && network !== 'dev')
    throw new ConfigError(
      `mining.seal = "instant" is for the dev network only: ${network} blocks carry an Ethash seal (use --seal ethash or leave it out)`,
    );
  const coinbase = get('mining.coinbase');
  if (coinbase !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(coinbase)) {
    throw new ConfigError(`mining.coinbase must be a 20-byte address (0x + 40 hex digits), got "${coinbase}"`);
  }
  // geth and core-geth refuse to mine without an etherbase too: the rewards of a public chain would be burnt.
  if (network !== 'dev' && coinbase === undefined && get('mining.mining-enabled'))
    throw new ConfigError(
      `mining.mining-enabled (--mine) on ${network} needs mining.coinbase (--miner.coinbase <address>): ` +
        'without it the block rewards would go to the zero address',
    );
  const datadir = get('datadir');
  // Each cache is a count setting: at least one entry (a cache of none would make every lookup a miss).
  const caches: CacheLimits = {
    trieNodes: get('cache.trie-nodes'),
    trieDecodedNodes: get('cache.trie-decoded-nodes'),
    trieLookups: get('cache.trie-lookups'),
    blocks: get('cache.blocks'),
    headers: get('cache.headers'),
    receipts: get('cache.receipts'),
    canonicalHashes: get('cache.canonical-hashes'),
    stateViews: get('cache.state-views'),
    callExecutors: get('cache.call-executors'),
    dbCacheBytes: get('db.cache-size'),
    dbWriteBufferBytes: get('db.write-buffer-size'),
  };
  const ethashCacheDir = get('mining.ethash-cache-dir');
  const apiKeysFile = get('network.rpc.auth.api-keys-file');
  const fork = forkOf(get, network);
  if (fork !== undefined && (seal !== 'instant' || checkpointing))
    throw new ConfigError('fork.url runs an instant-seal dev chain: leave out --seal ethash and --checkpointing');
  const gcmode = get('state.gcmode');
  // A fork reads what it lacks from its upstream at any of its blocks, and pruning cannot tell those nodes apart.
  if (fork !== undefined && gcmode === 'full')
    throw new ConfigError('fork mode (--fork-url) keeps every state: leave out --gcmode full (it runs as an archive)');
  return {
    network,
    forkOverrides: forkOverridesOf(get, network, checkpointing),
    ...(fork !== undefined ? { fork } : {}),
    forkRequests: forkRequestsOf(get),
    dev: devConfigOf(get, network),
    caches,
    writeBehind: get('db.write-behind'),
    exec: {
      workers: get('exec.workers'),
      maxQueued: get('exec.max-queued'),
      sealCheckLag: get('exec.seal-check-lag'),
      lean: get('exec.lean'),
    },
    state: {
      // Test chains are replaced and rewound at will by retesteth: they keep every state.
      mode: testmode ? 'archive' : gcmode,
      keepStates: get('state.keep-states'),
      checkpointInterval: get('state.checkpoint-interval'),
      checkpoints: get('state.checkpoints'),
      pruneMinBytes: get('state.prune-min-bytes'),
      reexec: get('network.rpc.debug.reexec'),
    },
    checkpointing,
    p2p: {
      enabled: get('network.p2p.enabled'),
      interface: get('network.server-address.interface'),
      port: p2pPort,
      bootnodes: get('network.bootnodes'),
      maxPeers,
      maxPendingPeers: get('network.max-pending-peers'),
      maxPendingPeersPerIp: get('network.max-pending-peers-per-ip'),
      snapRequestsPerPeer: get('network.snap.requests-per-peer'),
      snapResponseBytes: get('network.snap.response-bytes'),
      discovery: get('network.discovery.discovery-enabled'),
      syncMode: get('network.sync.mode'),
      pivotDistance: get('network.sync.pivot-distance'),
      healPauseMs: get('network.sync.heal-pause'),
      snapMaxRssBytes: get('network.sync.max-rss') * 1024 * 1024,
      ...discoveryOf(get),
    },
    mining: {
      enabled: get('mining.mining-enabled'),
      seal,
      coinbase,
      blockTimeMs: get('mining.block-time'),
      extraData: get('mining.header-extra-data'),
      ...(ethashCacheDir !== undefined ? { ethashCacheDir } : {}),
    },
    devOutput: devOutputOf(get, network),
    keystore: {
      minimalPassphraseLength: get('keystore.minimal-passphrase-length'),
      lightKdf: get('keystore.light-kdf'),
    },
    txpool: {
      size: get('txpool.tx-pool-size'),
      transactionTimeoutMs: get('txpool.transaction-timeout'),
    },
    datadir,
    testmode,
    logLevel: get('logging.level'),
    quiet: get('logging.quiet'),
    progressIntervalMs: get('logging.progress-interval'),
    configFile: configPath,
    rpc: {
      apis,
      maxBatchSize: get('network.rpc.max-batch-size'),
      validateResults: get('network.rpc.validate-results'),
      accountTransactionsMaxBlocks: get('network.rpc.account-transactions-max-blocks'),
      logs: {
        maxBlockRange: get('network.rpc.logs.max-block-range'),
        maxResults: get('network.rpc.logs.max-results'),
      },
      trace: {
        filterMaxBlocks: get('network.rpc.trace.filter-max-blocks'),
        filterMaxCount: get('network.rpc.trace.filter-max-count'),
      },
      filterTimeoutMs: get('filter.filter-timeout'),
      http: {
        mode,
        interface: get('network.rpc.http.interface'),
        port,
        corsAllowedOrigins: get('network.rpc.http.cors-allowed-origins'),
        maxBodySize: get('network.rpc.http.max-body-size'),
        certificate: keystorePath
          ? {
              keystorePath,
              keystoreType: get('network.rpc.http.certificate.keystore-type'),
              passwordFile: get('network.rpc.http.certificate.password-file'),
            }
          : undefined,
        rateLimit: {
          enabled: get('network.rpc.http.rate-limit.enabled'),
          minRequestIntervalMs: get('network.rpc.http.rate-limit.min-request-interval'),
          latestTimestampCacheSize: get('network.rpc.http.rate-limit.latest-timestamp-cache-size'),
        },
      },
      ws: {
        enabled: get('network.rpc.ws.enabled'),
        maxBufferedBytes: get('network.rpc.ws.max-buffered-bytes'),
        maxOutstandingRequests: get('network.rpc.ws.max-outstanding-requests'),
        pingIntervalMs: get('network.rpc.ws.ping-interval'),
      },
      call: callLimitsOf(get),
      debug: {
        maxRangeResults: get('network.rpc.debug.max-range-results'),
        traceTimeoutMs: get('network.rpc.debug.trace-timeout'),
        maxStructLogs: get('network.rpc.debug.max-struct-logs'),
        maxTraceBytes: get('network.rpc.debug.max-trace-bytes'),
        maxConcurrentTraces: get('network.rpc.debug.max-concurrent-traces'),
        traceQueue: get('network.rpc.debug.trace-queue'),
      },
      auth: {
        enabled: get('network.rpc.auth.enabled'),
        protected: checkProtected(get('network.rpc.auth.protected')),
        anonymousPeerAdmin: get('network.rpc.auth.anonymous-peer-admin'),
        jwtSecretFile: get('network.rpc.auth.jwt-secret-file'),
        ...(apiKeysFile !== undefined ? { apiKeysFile } : {}),
      },
      metrics: { enabled: get('network.rpc.metrics.enabled') },
      health: {
        noUpdateDurationThresholdMs: get('network.rpc.health.no-update-duration-threshold'),
        syncingStatusThreshold: get('network.rpc.health.syncing-status-threshold'),
      },
    },
  };
}

/** A typo in the protected list would silently leave a method open: every entry must name something. */
function checkProtected(list: readonly string[]): readonly string[] {
  const unknown = list.filter(
    (name) => name !== '*' && !(namespaces as readonly string[]).includes(name) && findMethod(name) === undefined,
  );
  if (unknown.length > 0) {
    throw new ConfigError(`network.rpc.auth.protected names no namespace or method: ${unknown.join(', ')}`);
  }
  return list;
}

/** Validates the requested namespaces and returns the effective set in registry order. */
export function resolveApis(requested: readonly string[], testmode: boolean, network = 'dev'): Namespace[] {
  const valid = new Set<string>(namespaces);
  const unknown = requested.filter((name) => !valid.has(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `network.rpc.apis (--apis) must name namespaces among ${namespaces.join(', ')}; got ${unknown.join(', ')}`,
    );
  }
  const enabled = new Set<string>(requested);
  if (enabled.has('test') && !testmode) {
    throw new ConfigError('the "test" namespace is only available with --testmode (testmode = true)');
  }
  if (enabled.has('anvil') && network !== 'dev') {
    throw new ConfigError(
      `the "anvil" namespace (Anvil's test methods: state edits, time travel, impersonation) serves the dev network ` +
        `only; remove it from network.rpc.apis (--apis) on ${network}`,
    );
  }
  enabled.add('rpc');
  if (testmode) {
    enabled.add('test');
    enabled.add('debug');
  }
  return namespaces.filter((ns) => enabled.has(ns));
}
