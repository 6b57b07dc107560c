import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';

const load = (flags: Record<string, unknown>) => loadConfig({ flags, env: {} });

describe('fork settings', () => {
  it('read into the fork configuration on dev, with the request limits', () => {
    const { fork } = load({ 'fork.url': 'http://127.0.0.1:8545', 'fork.block': 12 });
    expect(fork).toEqual({
      url: 'http://127.0.0.1:8545',
      block: 12n,
      retries: 4,
      requestsPerSecond: 50,
      concurrency: 8,
      timeoutMs: 15_000,
      maxResponseBytes: 32 * 1024 * 1024,
      cache: { dir: join(homedir(), '.cache', 'svc-node', 'fork'), maxBytes: 2 * 1024 ** 3 },
    });
    expect(load({}).fork).toBeUndefined();
  });

  it('keep the fork cache under XDG_CACHE_HOME when it is set, or where fork.cache-dir says', () => {
    const env = { XDG_CACHE_HOME: '/var/cache/me' };
    expect(loadConfig({ flags: {}, env }).forkRequests.cache.dir).toBe('/var/cache/me/svc-node/fork');
    const flags = { 'fork.cache-dir': '/tmp/forks', 'fork.cache-size': 0 };
    expect(loadConfig({ flags, env }).forkRequests.cache).toEqual({ dir: '/tmp/forks', maxBytes: 0 });
  });

  it('are refused off dev, with a proof-of-work seal, without a URL or with a URL that is not http', () => {
    expect(() => load({ 'fork.url': 'http://127.0.0.1:8545', 'blockchains.network': 'mordor' })).toThrow(
      /dev network only/,
    );
    expect(() => load({ 'fork.url': 'http://127.0.0.1:8545', 'mining.seal': 'ethash' })).toThrow(/instant-seal/);
    expect(() => load({ 'fork.block': 3 })).toThrow(/needs fork.url/);
    expect(() => load({ 'fork.url': 'ws://127.0.0.1:8546' })).toThrow(/http\(s\)/);
  });
});
