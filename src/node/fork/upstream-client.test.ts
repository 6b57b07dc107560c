import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ForkUpstreamError } from '../../chain/index.js';
import type { ForkConfig } from '../config.js';
import { UpstreamClient } from './upstream-client.js';

/** A loopback JSON-RPC server whose answers the tests script: a result, an error, or an HTTP status. */
let server: Server;
let url: string;
let answer: (
  method: string,
  params: unknown[],
) => { status?: number; result?: unknown; error?: unknown; declaredLength?: number };
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const { id, method, params } = JSON.parse(body);
      seen.push(method);
      const { status, declaredLength, ...rest } = answer(method, params);
      if (status !== undefined) return void res.writeHead(status).end();
      if (declaredLength !== undefined) {
        // Claims a body it never sends: the client must refuse on the header alone.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': declaredLength });
        return void res.write('{');
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, ...rest }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen.splice(0);
});

const client = (overrides: Partial<ForkConfig> = {}) =>
  new UpstreamClient({
    url,
    cache: { dir: '', maxBytes: 0 },
    retries: 2,
    requestsPerSecond: 1000,
    concurrency: 4,
    timeoutMs: 5000,
    maxResponseBytes: 1024 * 1024,
    ...overrides,
  });

describe('UpstreamClient', () => {
  it('pins the configured block, else the upstream head minus five', async () => {
    answer = () => ({ result: '0x64' });
    expect(await client({ block: 7n }).pinnedBlock()).toBe(7n);
    expect(seen).toEqual([]);
    expect(await client().pinnedBlock()).toBe(95n);
    answer = () => ({ result: '0x3' });
    expect(await client().pinnedBlock()).toBe(0n);
  });

  it('retries an HTTP 503 and fails with the upstream named once the retries are spent', async () => {
    answer = () => ({ status: 503 });
    const failure = await client()
      .code(new Uint8Array(20), 1n)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ForkUpstreamError);
    expect((failure as Error).message).toBe(`fork upstream ${url} failed: eth_getCode: HTTP 503`);
    expect(seen).toEqual(['eth_getCode', 'eth_getCode', 'eth_getCode']);
  });

  it("passes on the upstream's own error at once, without retrying", async () => {
    answer = () => ({ error: { code: -32602, message: 'bad block' } });
    await expect(client().code(new Uint8Array(20), 1n)).rejects.toThrow(
      `fork upstream ${url} failed: eth_getCode: error -32602: bad block`,
    );
    expect(seen).toEqual(['eth_getCode']);
  });

  it('says when the upstream has no such block', async () => {
    answer = () => ({ result: null });
    await expect(client().header(5n)).rejects.toThrow(`fork upstream ${url} failed: it has no block 5`);
  });

  it('refuses an answer past maxResponseBytes at once, naming the upstream, the cap and the setting', async () => {
    answer = () => ({ result: `0x${'00'.repeat(600 * 1024)}` });
    const failure = await client()
      .code(new Uint8Array(20), 1n)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ForkUpstreamError);
    expect((failure as Error).message).toBe(
      `fork upstream ${url} failed: eth_getCode: its answer passed 1 MiB (1048576 bytes), the cap ` +
        'fork.max-response-bytes sets; the rest was not read (raise the setting if this upstream is trusted and ' +
        'its answers are that large)',
    );
    // Not retried: the same request gets the same answer.
    expect(seen).toEqual(['eth_getCode']);
    answer = () => ({ result: `0x${'00'.repeat(400 * 1024)}` });
    expect((await client().code(new Uint8Array(20), 1n)).length).toBe(400 * 1024);
  });

  it('refuses a declared Content-Length past the cap before reading the body', async () => {
    answer = () => ({ declaredLength: 1024 * 1024 * 1024 });
    await expect(client().code(new Uint8Array(20), 1n)).rejects.toThrow(/passed 1 MiB .*fork\.max-response-bytes/);
  });

  describe('a remembered identity', () => {
    const identity = (chainId: string) => (method: string) =>
      method === 'eth_chainId'
        ? { result: chainId }
        : method === 'eth_getBlockByNumber'
          ? { result: { hash: '0xaa' } }
          : { result: '0x01' };

    it('is checked in the first request only, one question at a time where the upstream takes no batches', async () => {
      // This stub answers a batch with one object, as an upstream without batches does.
      answer = identity('0x539');
      const c = client();
      c.expectIdentity({ chainId: '1337', genesisHash: '0xAA' });
      expect(await c.call('eth_getCode', [])).toBe('0x01');
      expect(seen).toEqual([undefined, 'eth_chainId', 'eth_getBlockByNumber', 'eth_getCode']);
      seen.splice(0);
      expect(await c.call('eth_getCode', [])).toBe('0x01');
      expect(seen).toEqual(['eth_getCode']);
    });

    it('stops the client for good when the upstream answers another chain id, naming the host and both', async () => {
      answer = identity('0x3f');
      const c = client();
      const changed: string[] = [];
      c.expectIdentity({ chainId: '1337', genesisHash: '0xaa' }, (at) => changed.push(at));
      const host = new URL(url).host;
      const [first, second] = await Promise.allSettled([c.call('eth_getCode', []), c.call('eth_getBalance', [])]);
      for (const outcome of [first, second]) {
        expect(outcome.status).toBe('rejected');
        const error = (outcome as PromiseRejectedResult).reason as Error;
        expect(error).toBeInstanceOf(ForkUpstreamError);
        expect(error.message).toContain(`${host} now answers chain id 63, but this fork was made of chain id 1337`);
      }
      // The second request waited for the check (asked once) and was never sent.
      expect(seen).toEqual([undefined, 'eth_chainId', 'eth_getBlockByNumber']);
      seen.splice(0);
      await expect(c.call('eth_getCode', [])).rejects.toThrow('now answers chain id 63');
      expect(seen).toEqual([]);
      expect(changed).toEqual([url]);
    });
  });
});
