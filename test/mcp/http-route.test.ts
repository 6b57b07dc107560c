/**
 * The /mcp route's guards, the same as POST /'s: the CORS policy (a browser page from an unlisted origin gets 403,
 * a listed one is served), the per-IP rate limit shared with POST /, the body limit; and the transport's own
 * answers: 405 for GET (stateless: no event stream), 406 without the Accept MCP requires, 415 for a non-JSON body.
 * Clients are told apart by X-Forwarded-For, which the rate limiter honours.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli.js';

const ALLOWED = 'http://allowed.example';
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};

let datadir: string;
let base: string;
let stop: () => Promise<void>;
let nextIp = 1;

/** A POST to /mcp from a fresh client IP unless `ip` is given. */
function mcpPost(body: string, headers: Record<string, string> = {}, ip = `198.51.100.${nextIp++}`): Promise<Response> {
  return fetch(new URL('mcp', base), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-forwarded-for': ip,
      ...headers,
    },
    body,
  });
}

beforeAll(async () => {
  datadir = mkdtempSync(join(tmpdir(), 'svc-node-mcp-http-'));
  const outcome = await runCli(
    [
      '--datadir',
      datadir,
      '--http.port',
      '0',
      '--http.addr',
      '127.0.0.1',
      '--no-p2p',
      '--no-mine',
      '--http.cors',
      ALLOWED,
      '--ethash.cachedir',
      join(tmpdir(), 'svc-node-test-ethash'),
    ],
    {
      NODE_ENV: 'test',
      SVC_NODE_NETWORK_RPC_HTTP_RATE_LIMIT_ENABLED: 'true',
      SVC_NODE_NETWORK_RPC_HTTP_RATE_LIMIT_MIN_REQUEST_INTERVAL: '60s',
      SVC_NODE_NETWORK_RPC_HTTP_MAX_BODY_SIZE: '4096',
    },
    { stdout: new Writable({ write: (_c, _e, done) => done() }), stderr: process.stderr },
  );
  if ('exitCode' in outcome) throw new Error(`node did not start (exit ${outcome.exitCode})`);
  base = outcome.server.url;
  stop = () => outcome.stop();
});
afterAll(async () => {
  await stop?.();
  rmSync(datadir, { recursive: true, force: true });
});

describe('/mcp', () => {
  it('initialises over plain JSON, negotiating the protocol version the client asks for', async () => {
    const res = await mcpPost(JSON.stringify(initialize));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await res.json()).toMatchObject({
      id: 1,
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'svc-node' } },
    });
  });

  it('refuses a browser page from an unlisted origin (403) and serves a listed one with its CORS header', async () => {
    expect((await mcpPost(JSON.stringify(initialize), { origin: 'http://evil.example' })).status).toBe(403);
    const preflight = await fetch(new URL('mcp', base), {
      method: 'OPTIONS',
      headers: {
        origin: ALLOWED,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type, mcp-protocol-version');
    const allowed = await mcpPost(JSON.stringify(initialize), { origin: ALLOWED });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('counts against the same per-IP rate limit as POST /', async () => {
    const ip = '203.0.113.7';
    expect((await mcpPost(JSON.stringify(initialize), {}, ip)).status).toBe(200);
    const limited = await mcpPost(JSON.stringify(initialize), {}, ip);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({
      error: { code: -32005, data: { backoffSeconds: expect.any(Number) } },
    });
    const rpc = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    });
    expect(rpc.status).toBe(429);
  });

  it('refuses a body over max-body-size with 413', async () => {
    const res = await mcpPost(JSON.stringify({ ...initialize, padding: 'x'.repeat(5000) }));
    expect(res.status).toBe(413);
  });

  it('answers GET and DELETE with 405 (stateless: no event stream, no session), a missing Accept with 406, text with 415', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(new URL('mcp', base), { method, headers: { accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/stateless/);
    }
    expect((await mcpPost(JSON.stringify(initialize), { accept: 'application/json' })).status).toBe(406);
    expect((await mcpPost(JSON.stringify(initialize), { 'content-type': 'text/plain' })).status).toBe(415);
  });
});
