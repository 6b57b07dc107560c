/** In-process checks of the small server modules: configuration, rate limiter, CORS policy, health, docs files. */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChainEngine } from '../../src/chain/engine/engine.js';
import { SvcNode, type ChainStatus } from '../../src/node/node.js';
import type { PeerService, SyncProgress } from '../../src/p2p/types.js';
import { ConfigError, loadConfig } from '../../src/node/config.js';
import { createCorsPolicy } from '../../src/server/cors.js';
import { HealthChecker } from '../../src/server/health.js';
import { silentLogger } from '../../src/node/logger.js';
import { RateLimiter, clientIp } from '../../src/server/rate-limit.js';
import { readDocsFile } from '../../src/server/static-docs.js';

describe('loadConfig', () => {
  it('has the documented defaults per network', () => {
    const dev = loadConfig({ env: {} });
    expect(dev.network).toBe('dev');
    expect(dev.datadir).toBe(join(homedir(), '.svc-node', 'dev-instant'));
    expect(dev.rpc.apis).toEqual([
      'eth',
      'web3',
      'net',
      'personal',
      'debug',
      'trace',
      'qa',
      'checkpointing',
      'svc',
      'anvil',
      'iele',
      'mcp',
      'rpc',
      'txpool',
      'admin',
      'ots',
    ]);
    expect(dev.rpc.http).toMatchObject({
      interface: '127.0.0.1',
      port: 8546,
      mode: 'http',
      corsAllowedOrigins: [],
      maxBodySize: 5242880,
    });
    expect(dev.rpc.http.rateLimit).toEqual({
      enabled: false,
      minRequestIntervalMs: 10_000,
      latestTimestampCacheSize: 1024,
    });
    expect(dev.rpc.maxBatchSize).toBe(1000);
    expect(dev.rpc.validateResults).toBe(false);
    const etc = loadConfig({ flags: { 'blockchains.network': 'etc' }, env: {} });
    expect(etc.rpc.apis).toEqual(['eth', 'web3', 'net', 'rpc']);
    expect(etc.datadir).toBe(join(homedir(), '.svc-node', 'etc'));
    expect(loadConfig({ env: { NODE_ENV: 'test' } }).rpc.validateResults).toBe(true);
    expect(loadConfig({ flags: { testmode: true }, env: {} }).rpc.apis).toContain('test');
  });

  it('parses durations, origins and lists from env strings and TOML values', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-node-cfg-'));
    const file = join(dir, 'c.toml');
    writeFileSync(
      file,
      '[network.rpc.http.rate-limit]\nenabled = true\nmin-request-interval = "100 milliseconds"\n[network.rpc.health]\nno-update-duration-threshold = "2m"\n',
    );
    const c = loadConfig({
      configFile: file,
      env: { SVC_NODE_NETWORK_RPC_HTTP_CORS_ALLOWED_ORIGINS: 'https://a.example, https://b.example' },
    });
    expect(c.rpc.http.rateLimit).toMatchObject({ enabled: true, minRequestIntervalMs: 100 });
    expect(c.rpc.health.noUpdateDurationThresholdMs).toBe(120_000);
    expect(c.rpc.http.corsAllowedOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(
      loadConfig({ env: { SVC_NODE_NETWORK_RPC_HTTP_CORS_ALLOWED_ORIGINS: '*' } }).rpc.http.corsAllowedOrigins,
    ).toBe('*');
    expect(
      loadConfig({ env: { SVC_NODE_NETWORK_RPC_HTTP_RATE_LIMIT_MIN_REQUEST_INTERVAL: '250' } }).rpc.http.rateLimit
        .minRequestIntervalMs,
    ).toBe(250);
  });

  it('refuses bad input with messages that name the setting', () => {
    expect(() => loadConfig({ env: { SVC_NODE_NETWORK_RPC_HTTP_PORT: '70000' } })).toThrow(ConfigError);
    expect(() => loadConfig({ env: { SVC_NODE_TESTMODE: 'maybe' } })).toThrow(
      /testmode \(environment SVC_NODE_TESTMODE\) must be true or false/,
    );
    expect(() => loadConfig({ env: { SVC_NODE_NETWORK_RPC_HTTP_MODE: 'https' } })).toThrow(/keystore-path is not set/);
    expect(() => loadConfig({ flags: { 'network.rpc.apis': 'eth,nope' }, env: {} })).toThrow(
      /network\.rpc\.apis \(--apis\) must name namespaces among eth, .*; got nope$/,
    );
  });
});

describe('loadConfig: peering', () => {
  it('has the documented defaults: on (dev: only when asked), port 9076, loopback on dev and every interface on mordor/etc, off in test mode', () => {
    expect(loadConfig({ env: {} }).p2p).toEqual({
      enabled: false,
      interface: '127.0.0.1',
      port: 9076,
      bootnodes: [],
      maxPeers: 25,
      maxPendingPeers: 32,
      maxPendingPeersPerIp: 4,
      discovery: false,
      discoveryIntervalMs: 6000,
      dnsTrees: [],
      dialRatio: 0.5,
      snapRequestsPerPeer: 2,
      snapResponseBytes: 2 * 1024 * 1024,
      snapMaxRssBytes: 1536 * 1024 * 1024,
      syncMode: 'full',
      pivotDistance: 64,
      healPauseMs: 0,
    });
    for (const network of ['mordor', 'etc']) {
      const p2p = loadConfig({ flags: { 'blockchains.network': network }, env: {} }).p2p;
      expect(p2p).toMatchObject({ enabled: true, interface: '0.0.0.0', port: 9076, discovery: true });
      // The network's own entry points: core-geth's bootnodes and the blockd.info DNS tree.
      expect(p2p.bootnodes.length).toBeGreaterThan(0);
      expect(p2p.dnsTrees).toEqual([
        expect.stringMatching(/^enrtree:\/\/[A-Z2-7]+@all\.(classic|mordor)\.blockd\.info$/),
      ]);
    }
    const replaced = loadConfig({
      flags: { 'blockchains.network': 'etc', 'network.bootnodes': [], 'network.discovery.dns': [] },
      env: {},
    }).p2p;
    expect([replaced.bootnodes, replaced.dnsTrees]).toEqual([[], []]);
    expect(() => loadConfig({ flags: { 'network.nat': 'upnp' }, env: {} })).toThrow(/extip:<IPv4 address>/);
    expect(loadConfig({ flags: { 'network.nat': 'extip:203.0.113.9' }, env: {} }).p2p.externalIp).toBe('203.0.113.9');
    expect(loadConfig({ flags: { testmode: true }, env: {} }).p2p.enabled).toBe(false);
    // Dev peers when asked: a devp2p port or bootnodes given.
    expect(loadConfig({ flags: { 'network.server-address.port': '30311' }, env: {} }).p2p.enabled).toBe(true);
    expect(
      loadConfig({ env: { SVC_NODE_NETWORK_BOOTNODES: `enode://${'a'.repeat(128)}@127.0.0.1:30303` } }).p2p.enabled,
    ).toBe(true);
    expect(loadConfig({ flags: { testmode: true, 'network.p2p.enabled': true }, env: {} }).p2p.enabled).toBe(true);
  });

  it('reads every key from TOML sections, the environment and flags, flags winning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-node-cfg-'));
    const file = join(dir, 'p2p.toml');
    const enodeA = `enode://${'a'.repeat(128)}@127.0.0.1:30303`;
    const enodeB = `enode://${'b'.repeat(128)}@10.0.0.2:9076`;
    writeFileSync(
      file,
      [
        '[network]',
        `bootnodes = ["${enodeA}", "${enodeB}"]`,
        'max-peers = 3',
        'max-pending-peers = 9',
        'max-pending-peers-per-ip = 2',
        '[network.p2p]',
        'enabled = false',
        '[network.server-address]',
        'interface = "0.0.0.0"',
        'port = 30399',
        '[network.discovery]',
        'discovery-enabled = true',
      ].join('\n'),
    );
    expect(loadConfig({ configFile: file, env: {} }).p2p).toEqual({
      enabled: false,
      interface: '0.0.0.0',
      port: 30399,
      bootnodes: [enodeA, enodeB],
      maxPeers: 3,
      maxPendingPeers: 9,
      maxPendingPeersPerIp: 2,
      discovery: true,
      discoveryIntervalMs: 6000,
      dnsTrees: [],
      dialRatio: 0.5,
      snapRequestsPerPeer: 2,
      snapResponseBytes: 2 * 1024 * 1024,
      snapMaxRssBytes: 1536 * 1024 * 1024,
      syncMode: 'full',
      pivotDistance: 64,
      healPauseMs: 0,
    });
    const env = {
      SVC_NODE_NETWORK_P2P_ENABLED: 'true',
      SVC_NODE_NETWORK_SERVER_ADDRESS_PORT: '0',
      SVC_NODE_NETWORK_BOOTNODES: `${enodeB} , ${enodeA}`,
      SVC_NODE_NETWORK_MAX_PEERS: '7',
    };
    expect(loadConfig({ configFile: file, env }).p2p).toMatchObject({
      enabled: true,
      port: 0,
      bootnodes: [enodeB, enodeA],
      maxPeers: 7,
    });
    const flags = {
      'network.server-address.port': '30400',
      'network.server-address.interface': '127.0.0.2',
      'network.bootnodes': '',
    };
    expect(loadConfig({ configFile: file, env, flags }).p2p).toMatchObject({
      port: 30400,
      interface: '127.0.0.2',
      bootnodes: [],
    });
  });

  it('refuses a port above 65535 and fewer than one peer, naming the setting', () => {
    expect(() => loadConfig({ env: { SVC_NODE_NETWORK_SERVER_ADDRESS_PORT: '65536' } })).toThrow(
      /\(environment SVC_NODE_NETWORK_SERVER_ADDRESS_PORT\) must be an integer from 0 to 65535; got "65536"/,
    );
    expect(loadConfig({ env: { SVC_NODE_NETWORK_SERVER_ADDRESS_PORT: '65535' } }).p2p.port).toBe(65535);
    for (const n of ['0', '-2']) {
      expect(() => loadConfig({ flags: { 'network.max-peers': n }, env: {} })).toThrow(
        `network.max-peers (--maxpeers) must be an integer of at least 1 (to run without peers: --no-p2p); got "${n}"`,
      );
    }
    expect(() => loadConfig({ env: { SVC_NODE_NETWORK_P2P_ENABLED: 'yes' } })).toThrow(/network\.p2p\.enabled/);
  });
});

describe('loadConfig: seal mode', () => {
  it('is instant on dev unless --seal ethash, each in its own default datadir; ethash on mordor and etc', () => {
    expect(loadConfig({ env: {} }).mining.seal).toBe('instant');
    const ethash = loadConfig({ flags: { 'mining.seal': 'ethash' }, env: {} });
    expect(ethash.mining.seal).toBe('ethash');
    // The Ethash dev chain stays where it always was.
    expect(ethash.datadir).toBe(join(homedir(), '.svc-node', 'dev'));
    expect(loadConfig({ env: { SVC_NODE_MINING_SEAL: 'ethash' } }).mining.seal).toBe('ethash');
    for (const network of ['mordor', 'etc']) {
      expect(loadConfig({ flags: { 'blockchains.network': network }, env: {} }).mining.seal).toBe('ethash');
      expect(loadConfig({ flags: { 'blockchains.network': network, 'mining.seal': 'ethash' }, env: {} }).datadir).toBe(
        join(homedir(), '.svc-node', network),
      );
    }
  });

  it('refuses instant sealing off dev, and an unknown mode, naming the setting', () => {
    expect(() => loadConfig({ flags: { 'blockchains.network': 'mordor', 'mining.seal': 'instant' }, env: {} })).toThrow(
      /mining\.seal = "instant" is for the dev network only: mordor blocks carry an Ethash seal/,
    );
    expect(() => loadConfig({ flags: { 'mining.seal': 'clique' }, env: {} })).toThrow(
      /mining\.seal \(--seal\) must be one of instant, ethash; got "clique"/,
    );
  });
});

/** A peer service with settable answers, for the node's status and the health rule. */
function fakePeers(state: { peerCount: number; configured: boolean; progress?: SyncProgress | null }): PeerService {
  const unused = (): never => {
    throw new Error('not used by this test');
  };
  return {
    enode: `enode://${'c'.repeat(128)}@127.0.0.1:30303`,
    listenPort: 30303,
    hasConfiguredPeers: () => state.configured,
    peerCount: () => state.peerCount,
    search: () => ({
      discovery: false,
      udpPort: null,
      tableSize: 0,
      bootnodes: ['192.0.2.1:30303'],
      dnsTrees: [],
      dialsTried: 3,
      dialsSucceeded: 0,
      candidates: 0,
    }),
    syncProgress: () => state.progress ?? null,
    peers: unused,
    peerDetails: unused,
    connect: unused,
    disconnect: unused,
    blacklist: unused,
    addToBlacklist: unused,
    removeFromBlacklist: unused,
    onSyncEvent: unused,
    close: async () => undefined,
  };
}

/** Just enough of an engine for `SvcNode.attachEngine`'s status source: a head block number. */
const engineAt = (head: bigint) =>
  ({ chain: { getHead: () => ({ header: { number: head } }) } }) as unknown as ChainEngine;

describe('SvcNode chain status with a peer service', () => {
  it('takes peerCount and sync progress from the peer service, and keeps them when test mode swaps the engine', () => {
    const node = new SvcNode(loadConfig({ env: {} }), silentLogger);
    node.attachEngine(engineAt(10n));
    expect(node.peers).toBeUndefined();
    expect(node.chainStatus()).toEqual({ peerCount: 0, bestStoredBlock: 10n, pendingBlock: 11n });

    const state = { peerCount: 2, configured: true, progress: null as SyncProgress | null };
    const peers = fakePeers(state);
    node.attachPeers(peers);
    expect(node.peers).toBe(peers);
    expect(node.chainStatus()).toEqual({ peerCount: 2, bestStoredBlock: 10n, pendingBlock: 11n });

    state.progress = { startingBlock: 3n, currentBlock: 10n, highestBlock: 900n };
    expect(node.chainStatus()).toEqual({
      peerCount: 2,
      bestStoredBlock: 10n,
      syncing: { startingBlock: 3n, currentBlock: 10n, targetBlock: 900n },
    });

    node.replaceEngine(engineAt(20n));
    state.peerCount = 4;
    expect(node.chainStatus()).toMatchObject({ peerCount: 4, bestStoredBlock: 20n, syncing: { targetBlock: 900n } });
  });
});

describe('RateLimiter', () => {
  it('allows one request per interval per IP and gives an exact back-off', () => {
    let now = 0;
    const limiter = new RateLimiter({ minRequestIntervalMs: 2_500, latestTimestampCacheSize: 10 }, () => now);
    expect(limiter.check('a').allowed).toBe(true);
    now = 1_000;
    expect(limiter.check('a')).toEqual({ allowed: false, backoffSeconds: 2 });
    expect(limiter.check('b').allowed).toBe(true);
    now = 2_499;
    expect(limiter.check('a').allowed).toBe(false); // a refusal does not extend the window
    now = 2_500;
    expect(limiter.check('a').allowed).toBe(true);
  });

  it('forgets the least recently seen IPs beyond its capacity', () => {
    const now = 0;
    const limiter = new RateLimiter({ minRequestIntervalMs: 10_000, latestTimestampCacheSize: 2 }, () => now);
    limiter.check('a');
    limiter.check('b');
    limiter.check('c'); // evicts a
    expect(limiter.size).toBe(2);
    expect(limiter.check('a').allowed).toBe(true);
    expect(limiter.check('c').allowed).toBe(false);
  });

  it('takes the first X-Forwarded-For hop, else the socket address', () => {
    expect(clientIp('1.2.3.4, 10.0.0.1', '127.0.0.1')).toBe('1.2.3.4');
    expect(clientIp(undefined, '127.0.0.1')).toBe('127.0.0.1');
  });
});

describe('CORS policy', () => {
  it('matches listed origins case-insensitively, allows same-origin, refuses the rest', () => {
    const policy = createCorsPolicy(['https://App.example/']);
    expect(policy.check('https://app.example', 'node:8546', false)).toBe('https://app.example');
    expect(policy.check('http://node:8546', 'node:8546', false)).toBe('http://node:8546');
    expect(policy.check('http://node:8546', 'node:8546', true)).toBe(false);
    expect(policy.check('https://other.example', 'node:8546', false)).toBe(false);
    expect(createCorsPolicy('*').check('https://x.example', undefined, false)).toBe('*');
  });
});

describe('HealthChecker', () => {
  const config = loadConfig({ env: { SVC_NODE_NETWORK_RPC_HEALTH_NO_UPDATE_DURATION_THRESHOLD: '1m' } });

  it('reports OK everywhere for a synced node with peers', () => {
    const node = new SvcNode(config, silentLogger);
    node.attachChainStatus({
      status: (): ChainStatus => ({ peerCount: 3, bestStoredBlock: 100n, pendingBlock: 101n }),
    });
    const report = new HealthChecker(node).healthcheck();
    expect(report.httpStatus).toBe(200);
    expect(report.body.checks).toEqual([
      { name: 'peerCount', status: 'OK', info: '3' },
      { name: 'bestStoredBlock', status: 'OK', info: '100' },
      { name: 'bestKnownBlock', status: 'OK', info: '100' },
      { name: 'bestFetchingBlock', status: 'OK', info: '101' },
      { name: 'updateStatus', status: 'OK' },
      { name: 'syncStatus', status: 'OK', info: 'STARTING' },
    ]);
  });

  it('reports SYNCING, a stalled block, and a throwing check', () => {
    let now = 0;
    let status: ChainStatus = {
      peerCount: 1,
      bestStoredBlock: 5n,
      syncing: { startingBlock: 0n, currentBlock: 5n, targetBlock: 500n },
    };
    const node = new SvcNode(config, silentLogger);
    node.attachChainStatus({ status: () => status });
    const checker = new HealthChecker(node, () => now);
    expect(checker.healthcheck().body.checks.at(-1)).toEqual({ name: 'syncStatus', status: 'OK', info: 'SYNCING' });
    now = 61_000;
    const stalled = checker.readiness();
    expect(stalled.httpStatus).toBe(503);
    expect(stalled.body.checks[2]).toEqual({
      name: 'updateStatus',
      status: 'ERROR',
      info: 'block did not change for more than 60 s',
    });
    status = { ...status, syncing: { startingBlock: 0n, currentBlock: 495n, targetBlock: 500n } };
    expect(checker.readiness().httpStatus).toBe(200);
    node.attachChainStatus({
      status: () => {
        throw new Error('database closed');
      },
    });
    expect(checker.readiness().body.checks[0]).toEqual({ name: 'peerCount', status: 'ERROR', info: 'database closed' });
  });
});

describe('HealthChecker readiness rule: synced with a peer, or a single-node dev chain', () => {
  const synced: ChainStatus = { peerCount: 0, bestStoredBlock: 100n, pendingBlock: 101n };
  const readinessOf = (network: 'dev' | 'mordor', peers?: PeerService) => {
    const node = new SvcNode(loadConfig({ flags: { 'blockchains.network': network }, env: {} }), silentLogger);
    node.attachChainStatus({ status: () => synced });
    if (peers) node.attachPeers(peers);
    return new HealthChecker(node).readiness();
  };
  const singleNode = { name: 'peerCount', status: 'OK', info: '0 (single-node dev chain: no peers configured)' };

  it('is ready on dev without peers when no peer service runs or none is configured', () => {
    const withoutService = readinessOf('dev');
    expect(withoutService.httpStatus).toBe(200);
    expect(withoutService.body.checks[0]).toEqual(singleNode);
    const unconfigured = readinessOf('dev', fakePeers({ peerCount: 0, configured: false }));
    expect(unconfigured.httpStatus).toBe(200);
    expect(unconfigured.body.checks[0]).toEqual(singleNode);
  });

  it('is not ready without a handshaked peer when peers are configured, or on mordor/etc in any case', () => {
    const waiting = readinessOf('dev', fakePeers({ peerCount: 0, configured: true }));
    expect(waiting.httpStatus).toBe(503);
    expect(waiting.body.checks[0]).toEqual({
      name: 'peerCount',
      status: 'ERROR',
      info: 'peer count is 0; looking for peers through 1 bootnode(s) 192.0.2.1:30303; 3 dial(s) tried, 0 node(s) waiting',
    });
    expect(readinessOf('mordor').httpStatus).toBe(503);
    const off = new SvcNode(
      loadConfig({ flags: { 'blockchains.network': 'mordor', 'network.p2p.enabled': false }, env: {} }),
      silentLogger,
    );
    off.attachChainStatus({ status: () => synced });
    expect(new HealthChecker(off).readiness().body.checks[0]).toEqual({
      name: 'peerCount',
      status: 'ERROR',
      info: 'peer count is 0; peering is off (--p2p turns it on)',
    });
    expect(readinessOf('mordor', fakePeers({ peerCount: 0, configured: false })).httpStatus).toBe(503);
    const connected = readinessOf('mordor', fakePeers({ peerCount: 1, configured: true }));
    expect(connected.httpStatus).toBe(200);
    expect(connected.body.checks[0]).toEqual({ name: 'peerCount', status: 'OK', info: '1' });
  });

  it('is not ready while syncing more than the threshold behind; the healthcheck still reports SYNCING as OK', () => {
    const state = {
      peerCount: 2,
      configured: true,
      progress: { startingBlock: 0n, currentBlock: 100n, highestBlock: 500n } as SyncProgress | null,
    };
    const node = new SvcNode(loadConfig({ flags: { 'blockchains.network': 'mordor' }, env: {} }), silentLogger);
    node.attachChainStatus({ status: () => synced });
    node.attachPeers(fakePeers(state));
    const checker = new HealthChecker(node);
    const syncing = checker.readiness();
    expect(syncing.httpStatus).toBe(503);
    expect(syncing.body.checks.map((c) => c.name)).toEqual([
      'peerCount',
      'bestStoredBlock',
      'updateStatus',
      'syncStatus',
    ]);
    expect(syncing.body.checks[3]).toEqual({
      name: 'syncStatus',
      status: 'ERROR',
      info: 'SYNCING (at block 100, target 500)',
    });
    const detailed = checker.healthcheck();
    expect(detailed.httpStatus).toBe(200);
    expect(detailed.body.checks.at(-1)).toEqual({ name: 'syncStatus', status: 'OK', info: 'SYNCING' });
    expect(detailed.body.checks[2]).toEqual({ name: 'bestKnownBlock', status: 'OK', info: '500' });

    state.progress = { startingBlock: 0n, currentBlock: 495n, highestBlock: 500n }; // within syncing-status-threshold (10)
    expect(checker.readiness().body.checks[3]).toEqual({ name: 'syncStatus', status: 'OK', info: 'SYNCED' });
    expect(checker.readiness().httpStatus).toBe(200);
    state.progress = null;
    expect(checker.readiness().body.checks[3]).toEqual({ name: 'syncStatus', status: 'OK', info: 'STARTING' });
    expect(checker.readiness().httpStatus).toBe(200);
  });
});

describe('docs files', () => {
  it('serves files with their content types, index.html for folders, nothing outside the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-node-docs-'));
    mkdirSync(join(dir, 'methods'));
    writeFileSync(join(dir, 'index.html'), '<h1>docs</h1>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'methods', 'index.html'), 'm');
    writeFileSync(join(tmpdir(), 'svc-node-secret.txt'), 'secret');
    expect(await readDocsFile(dir, 'index.html')).toMatchObject({ contentType: 'text/html; charset=utf-8' });
    expect((await readDocsFile(dir, 'app.js'))!.contentType).toBe('text/javascript; charset=utf-8');
    expect(Buffer.from((await readDocsFile(dir, 'methods/'))!.body).toString()).toBe('m');
    expect(await readDocsFile(dir, '../svc-node-secret.txt')).toBeUndefined();
    expect(await readDocsFile(dir, '..%2fsvc-node-secret.txt')).toBeUndefined();
    expect(await readDocsFile(dir, 'missing.css')).toBeUndefined();
  });
});
