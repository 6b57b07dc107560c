/** CORS and per-IP rate limiting over real HTTP (and the limiter on WebSocket). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { WsClient, post, request } from '../helpers/rpc.js';

let corsNode: NodeProcess;
let defaultNode: NodeProcess;
let limited: NodeProcess;

beforeAll(async () => {
  [corsNode, defaultNode, limited] = await Promise.all([
    startNode({ args: ['--http.cors', 'https://good.example,http://localhost:3000'] }),
    startNode(),
    startNode({
      env: {
        SVC_NODE_NETWORK_RPC_HTTP_RATE_LIMIT_ENABLED: 'true',
        SVC_NODE_NETWORK_RPC_HTTP_RATE_LIMIT_MIN_REQUEST_INTERVAL: '3s',
        SVC_NODE_NETWORK_RPC_HTTP_RATE_LIMIT_LATEST_TIMESTAMP_CACHE_SIZE: '2',
      },
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([corsNode, defaultNode, limited].map((n) => n?.stop()));
});

describe('CORS', () => {
  it('lets listed origins in, with Access-Control-Allow-Origin', async () => {
    const res = await post(corsNode.url, request('eth_chainId'), { headers: { origin: 'https://good.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://good.example');
    expect(res.headers.get('vary')).toMatch(/Origin/i);
    expect(res.body.result).toBe('0x539');
  });

  it('refuses other origins with 403', async () => {
    const res = await post(corsNode.url, request('eth_chainId'), { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(res.text).toBe('');
  });

  it('answers preflight for allowed origins and refuses it for others', async () => {
    const ok = await fetch(corsNode.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    expect(ok.headers.get('access-control-allow-headers')).toBe('content-type');
    const bad = await fetch(corsNode.url, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(bad.status).toBe(403);
  });

  it('by default refuses every foreign origin but passes requests without Origin and same-origin pages', async () => {
    expect(
      (await post(defaultNode.url, request('eth_chainId'), { headers: { origin: 'https://good.example' } })).status,
    ).toBe(403);
    expect((await post(defaultNode.url, request('eth_chainId'))).status).toBe(200);
    const sameOrigin = new URL(defaultNode.url).origin;
    expect((await post(defaultNode.url, request('eth_chainId'), { headers: { origin: sameOrigin } })).status).toBe(200);
  });

  it('applies to WebSocket upgrades too', async () => {
    await expect(WsClient.open(defaultNode.wsUrl, { origin: 'https://evil.example' })).rejects.toThrow(/403/);
    const ws = await WsClient.open(corsNode.wsUrl, { origin: 'https://good.example' });
    expect((await ws.call(request('eth_chainId'))).result).toBe('0x539');
    ws.close();
  });
});

describe('rate limit', () => {
  const as = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

  it('answers HTTP 429 with -32005, a back-off hint and Retry-After; batches count as one request', async () => {
    const first = await post(
      limited.url,
      [request('eth_chainId', [], 1), request('net_version', [], 2)],
      as('10.0.0.1'),
    );
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(2);

    const second = await post(limited.url, request('eth_chainId'), as('10.0.0.1'));
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32005, message: 'request rate exceeded' },
    });
    const backoff = second.body.error.data.backoffSeconds;
    expect(backoff).toBeGreaterThanOrEqual(1);
    expect(backoff).toBeLessThanOrEqual(3);
    expect(second.headers.get('retry-after')).toBe(String(backoff));

    const batch = await post(limited.url, [request('eth_chainId', [], 1)], as('10.0.0.1'));
    expect(batch.status).toBe(429); // not the original product's 405

    // Another client is not affected.
    expect((await post(limited.url, request('eth_chainId'), as('10.0.0.2'))).status).toBe(200);
  });

  it('lets the client in again after the interval', async () => {
    expect((await post(limited.url, request('eth_chainId'), as('10.0.0.3'))).status).toBe(200);
    expect((await post(limited.url, request('eth_chainId'), as('10.0.0.3'))).status).toBe(429);
    await new Promise((r) => setTimeout(r, 3_100));
    expect((await post(limited.url, request('eth_chainId'), as('10.0.0.3'))).status).toBe(200);
  });

  it('limits WebSocket messages, answering each request id with -32005', async () => {
    const ws = await WsClient.open(limited.wsUrl, { headers: { 'x-forwarded-for': '10.0.0.9' } });
    expect((await ws.call(request('eth_chainId', [], 1))).result).toBe('0x539');
    const refused = await ws.call([request('eth_chainId', [], 2), request('eth_chainId', [], 3)]);
    expect(refused.map((r: any) => [r.id, r.error.code])).toEqual([
      [2, -32005],
      [3, -32005],
    ]);
    ws.close();
  });
});
