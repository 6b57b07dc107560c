/** In-process checks of the small server modules: configuration, rate limiter, CORS policy, health, docs files. */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SvcNode, type ChainStatus } from '../../src/node.js';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { createCorsPolicy } from '../../src/server/cors.js';
import { HealthChecker } from '../../src/server/health.js';
import { silentLogger } from '../../src/server/logger.js';
import { RateLimiter, clientIp } from '../../src/server/rate-limit.js';
import { readDocsFile } from '../../src/server/static-docs.js';

describe('loadConfig', () => {
  it('has the documented defaults per network', () => {
    const dev = loadConfig({ env: {} });
    expect(dev.network).toBe('dev');
    expect(dev.datadir).toBe(join(homedir(), '.svc-node', 'dev'));
    expect(dev.rpc.apis).toEqual(['eth', 'web3', 'net', 'personal', 'debug', 'qa', 'checkpointing', 'svc', 'iele', 'mcp', 'rpc']);
    expect(dev.rpc.http).toMatchObject({ interface: '127.0.0.1', port: 8546, mode: 'http', corsAllowedOrigins: [], maxBodySize: 5242880 });
    expect(dev.rpc.http.rateLimit).toEqual({ enabled: false, minRequestIntervalMs: 10_000, latestTimestampCacheSize: 1024 });
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
    expect(loadConfig({ env: { SVC_NODE_NETWORK_RPC_HTTP_CORS_ALLOWED_ORIGINS: '*' } }).rpc.http.corsAllowedOrigins).toBe('*');
    expect(loadConfig({ env: { SVC_NODE_NETWORK_RPC_HTTP_RATE_LIMIT_MIN_REQUEST_INTERVAL: '250' } }).rpc.http.rateLimit.minRequestIntervalMs).toBe(250);
  });

  it('refuses bad input with messages that name the setting', () => {
    expect(() => loadConfig({ env: { SVC_NODE_NETWORK_RPC_HTTP_PORT: '70000' } })).toThrow(ConfigError);
    expect(() => loadConfig({ env: { SVC_NODE_TESTMODE: 'maybe' } })).toThrow(/testmode \(environment SVC_NODE_TESTMODE\) must be true or false/);
    expect(() => loadConfig({ env: { SVC_NODE_NETWORK_RPC_HTTP_MODE: 'https' } })).toThrow(/keystore-path is not set/);
    expect(() => loadConfig({ flags: { 'network.rpc.apis': 'eth,nope' }, env: {} })).toThrow(/Invalid RPC APIs specified: nope/);
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
    node.attachChainStatus({ status: (): ChainStatus => ({ peerCount: 3, bestStoredBlock: 100n, pendingBlock: 101n }) });
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
    let status: ChainStatus = { peerCount: 1, bestStoredBlock: 5n, syncing: { startingBlock: 0n, currentBlock: 5n, targetBlock: 500n } };
    const node = new SvcNode(config, silentLogger);
    node.attachChainStatus({ status: () => status });
    const checker = new HealthChecker(node, () => now);
    expect(checker.healthcheck().body.checks.at(-1)).toEqual({ name: 'syncStatus', status: 'OK', info: 'SYNCING' });
    now = 61_000;
    const stalled = checker.readiness();
    expect(stalled.httpStatus).toBe(503);
    expect(stalled.body.checks[2]).toEqual({ name: 'updateStatus', status: 'ERROR', info: 'block did not change for more than 60 s' });
    status = { ...status, syncing: { startingBlock: 0n, currentBlock: 495n, targetBlock: 500n } };
    expect(checker.readiness().httpStatus).toBe(200);
    node.attachChainStatus({ status: () => { throw new Error('database closed'); } });
    expect(checker.readiness().body.checks[0]).toEqual({ name: 'peerCount', status: 'ERROR', info: 'database closed' });
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
