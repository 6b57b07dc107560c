import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NetworkName } from '../../chain/index.js';
import { loadConfig, resolveApis, type NodeConfig } from '../config.js';
import { defaultOf, defaultText, settingOf, settings, type DefaultContext, type SettingKey } from './index.js';

/** The configuration the tables' defaults make on `network`, written out field by field. */
function configFromTables(network: NetworkName): NodeConfig {
  const env = { SVC_NODE_BLOCKCHAINS_NETWORK: network };
  const base = { network, checkpointing: false, testmode: false, env };
  const tooEarly = (): never => {
    throw new Error('a default asked for a setting decided after it');
  };
  const seal = defaultOf(settingOf('mining.seal'), {
    ...base,
    get seal() {
      return tooEarly();
    },
    get datadir() {
      return tooEarly();
    },
  }) as DefaultContext['seal'];
  const datadir = defaultOf(settingOf('datadir'), {
    ...base,
    seal,
    get datadir() {
      return tooEarly();
    },
  }) as string;
  const ctx: DefaultContext = { ...base, seal, datadir };
  const d = (key: SettingKey) => defaultOf(settingOf(key), ctx) as never;
  return {
    network,
    // No fork is moved unless asked: every override.<fork> defaults to the network's block.
    forkOverrides: {},
    caches: {
      trieNodes: d('cache.trie-nodes'),
      trieDecodedNodes: d('cache.trie-decoded-nodes'),
      trieLookups: d('cache.trie-lookups'),
      blocks: d('cache.blocks'),
      headers: d('cache.headers'),
      receipts: d('cache.receipts'),
      canonicalHashes: d('cache.canonical-hashes'),
      stateViews: d('cache.state-views'),
      callExecutors: d('cache.call-executors'),
      dbCacheBytes: d('db.cache-size'),
      dbWriteBufferBytes: d('db.write-buffer-size'),
    },
    forkRequests: {
      retries: d('fork.retries'),
      requestsPerSecond: d('fork.requests-per-second'),
      concurrency: d('fork.concurrency'),
      timeoutMs: d('fork.timeout'),
      maxResponseBytes: d('fork.max-response-bytes'),
      cache: { dir: d('fork.cache-dir'), maxBytes: d('fork.cache-size') },
    },
    dev: {
      mnemonic: d('dev.mnemonic'),
      accounts: d('dev.accounts'),
      // The table gives ether as text; the configuration holds wei.
      balanceWei: BigInt(d('dev.balance') as string) * 10n ** 18n,
      customAccounts: false,
      blockTimeMs: d('dev.block-time'),
      stateIntervalMs: d('dev.state-interval'),
      order: d('dev.order'),
    },
    writeBehind: d('db.write-behind'),
    exec: {
      workers: d('exec.workers'),
      maxQueued: d('exec.max-queued'),
      sealCheckLag: d('exec.seal-check-lag'),
      lean: d('exec.lean'),
    },
    state: {
      mode: d('state.gcmode'),
      keepStates: d('state.keep-states'),
      checkpointInterval: d('state.checkpoint-interval'),
      checkpoints: d('state.checkpoints'),
      pruneMinBytes: d('state.prune-min-bytes'),
      reexec: d('network.rpc.debug.reexec'),
    },
    checkpointing: d('blockchains.checkpointing'),
    p2p: {
      enabled: d('network.p2p.enabled'),
      interface: d('network.server-address.interface'),
      port: d('network.server-address.port'),
      bootnodes: d('network.bootnodes'),
      maxPeers: d('network.max-peers'),
      maxPendingPeers: d('network.max-pending-peers'),
      maxPendingPeersPerIp: d('network.max-pending-peers-per-ip'),
      snapRequestsPerPeer: d('network.snap.requests-per-peer'),
      snapResponseBytes: d('network.snap.response-bytes'),
      discovery: d('network.discovery.discovery-enabled'),
      discoveryIntervalMs: d('network.discovery.interval'),
      dnsTrees: d('network.discovery.dns'),
      dialRatio: d('network.dial-ratio') / 100,
      syncMode: d('network.sync.mode'),
      pivotDistance: d('network.sync.pivot-distance'),
      healPauseMs: d('network.sync.heal-pause'),
      snapMaxRssBytes: d('network.sync.max-rss') * 1024 * 1024,
    },
    mining: {
      enabled: d('mining.mining-enabled'),
      seal,
      coinbase: d('mining.coinbase'),
      blockTimeMs: d('mining.block-time'),
      extraData: d('mining.header-extra-data'),
    },
    devOutput: { console: network === 'dev' && !d('dev.quiet-console'), printTraces: d('dev.print-traces') },
    keystore: {
      minimalPassphraseLength: d('keystore.minimal-passphrase-length'),
      lightKdf: d('keystore.light-kdf'),
    },
    txpool: { size: d('txpool.tx-pool-size'), transactionTimeoutMs: d('txpool.transaction-timeout') },
    datadir,
    testmode: d('testmode'),
    logLevel: d('logging.level'),
    quiet: d('logging.quiet'),
    progressIntervalMs: d('logging.progress-interval'),
    configFile: undefined,
    rpc: {
      apis: resolveApis(d('network.rpc.apis'), false),
      maxBatchSize: d('network.rpc.max-batch-size'),
      validateResults: d('network.rpc.validate-results'),
      accountTransactionsMaxBlocks: d('network.rpc.account-transactions-max-blocks'),
      logs: { maxBlockRange: d('network.rpc.logs.max-block-range'), maxResults: d('network.rpc.logs.max-results') },
      trace: {
        filterMaxBlocks: d('network.rpc.trace.filter-max-blocks'),
        filterMaxCount: d('network.rpc.trace.filter-max-count'),
      },
      filterTimeoutMs: d('filter.filter-timeout'),
      http: {
        mode: d('network.rpc.http.mode'),
        interface: d('network.rpc.http.interface'),
        port: d('network.rpc.http.port'),
        corsAllowedOrigins: d('network.rpc.http.cors-allowed-origins'),
        maxBodySize: d('network.rpc.http.max-body-size'),
        certificate: undefined,
        rateLimit: {
          enabled: d('network.rpc.http.rate-limit.enabled'),
          minRequestIntervalMs: d('network.rpc.http.rate-limit.min-request-interval'),
          latestTimestampCacheSize: d('network.rpc.http.rate-limit.latest-timestamp-cache-size'),
        },
      },
      ws: {
        enabled: d('network.rpc.ws.enabled'),
        maxBufferedBytes: d('network.rpc.ws.max-buffered-bytes'),
        maxOutstandingRequests: d('network.rpc.ws.max-outstanding-requests'),
        pingIntervalMs: d('network.rpc.ws.ping-interval'),
      },
      call: {
        gasCap: BigInt(d('network.rpc.call.gas-cap')),
        timeoutMs: d('network.rpc.call.timeout'),
        simulateMaxBlocks: d('network.rpc.call.simulate-max-blocks'),
        sendSyncTimeoutMs: d('network.rpc.send-sync-timeout'),
      },
      debug: {
        maxRangeResults: d('network.rpc.debug.max-range-results'),
        traceTimeoutMs: d('network.rpc.debug.trace-timeout'),
        maxStructLogs: d('network.rpc.debug.max-struct-logs'),
        maxTraceBytes: d('network.rpc.debug.max-trace-bytes'),
        maxConcurrentTraces: d('network.rpc.debug.max-concurrent-traces'),
        traceQueue: d('network.rpc.debug.trace-queue'),
      },
      auth: {
        enabled: d('network.rpc.auth.enabled'),
        protected: d('network.rpc.auth.protected'),
        anonymousPeerAdmin: d('network.rpc.auth.anonymous-peer-admin'),
        jwtSecretFile: d('network.rpc.auth.jwt-secret-file'),
      },
      metrics: { enabled: d('network.rpc.metrics.enabled') },
      health: {
        noUpdateDurationThresholdMs: d('network.rpc.health.no-update-duration-threshold'),
        syncingStatusThreshold: d('network.rpc.health.syncing-status-threshold'),
      },
    },
  };
}

describe('setting defaults', () => {
  it.each(['dev', 'etc'] as const)('loadConfig with no other source is the tables’ defaults on %s', (network) => {
    const config = loadConfig({ env: { SVC_NODE_BLOCKCHAINS_NETWORK: network } });
    expect(config).toEqual(configFromTables(network));
  });

  it('gives the values they always had', () => {
    const dev = loadConfig({});
    expect(dev.network).toBe('dev');
    expect(dev.datadir).toBe(join(homedir(), '.svc-node', 'dev-instant'));
    expect(dev.rpc.http.port).toBe(8546);
    expect(dev.rpc.auth.jwtSecretFile).toBe(join(dev.datadir, 'jwt.hex'));
    expect(dev.mining).toMatchObject({
      enabled: true,
      seal: 'instant',
      coinbase: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    });
    expect(dev.p2p).toMatchObject({ enabled: false, interface: '127.0.0.1', port: 9076 });
    const etc = loadConfig({ env: { SVC_NODE_BLOCKCHAINS_NETWORK: 'etc' } });
    expect(etc.datadir).toBe(join(homedir(), '.svc-node', 'etc'));
    expect(etc.rpc.apis).toEqual(['eth', 'web3', 'net', 'rpc']);
    expect(etc.mining).toMatchObject({ enabled: false, seal: 'ethash', coinbase: undefined });
    expect(etc.p2p.interface).toBe('0.0.0.0');
    expect(etc.rpc.metrics.enabled).toBe(false);
    expect(loadConfig({ env: { NODE_ENV: 'test' } }).rpc.validateResults).toBe(true);
    expect(loadConfig({ flags: { testmode: true } }).p2p.enabled).toBe(false);
  });

  it('states a help text for every default that is a function, and prints the others as their value', () => {
    for (const setting of settings) {
      if (typeof setting.default === 'function') expect(setting.help, setting.key).toBeDefined();
      expect(defaultText(setting), setting.key).not.toBe('');
    }
    expect(defaultText(settingOf('filter.filter-timeout'))).toBe('5m');
    expect(defaultText(settingOf('txpool.transaction-timeout'))).toBe('2m');
    expect(defaultText(settingOf('network.rpc.http.cors-allowed-origins'))).toBe('none');
    expect(defaultText(settingOf('network.rpc.http.certificate.keystore-path'))).toBe('none');
    expect(defaultText(settingOf('network.rpc.http.max-body-size'))).toBe('5242880');
  });
});
