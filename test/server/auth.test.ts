/**
 * Authentication (network.rpc.auth.*) on a real node process: JWT bearer tokens (HS256, secret in
 * <datadir>/jwt.hex), API keys (X-API-Key), protected methods vs open ones, HTTP 401 with a JSON-RPC error body,
 * and the WebSocket upgrade refused without a credential.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt, verifyJwt } from '../../src/server/auth.js';
import { ErrorCode } from '../../src/rpc/errors.js';
import { runCli, startNode, type NodeProcess } from '../helpers/node-process.js';
import { WsClient, post, request } from '../helpers/rpc.js';
import { PEER_ADMIN_CALLS } from '../helpers/peer-admin-calls.js';

const API_KEY = 'test-key-4f1c9a0e7d2b';
let node: NodeProcess;
let plain: NodeProcess;
let keysDir: string;
let secret: Buffer;

const now = () => Math.floor(Date.now() / 1000);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  keysDir = mkdtempSync(join(tmpdir(), 'svc-node-auth-'));
  const keysFile = join(keysDir, 'api-keys');
  writeFileSync(keysFile, `# keys for the test\n${API_KEY}\n\n`);
  [node, plain] = await Promise.all([
    startNode({
      env: { SVC_NODE_NETWORK_RPC_AUTH_ENABLED: 'true', SVC_NODE_NETWORK_RPC_AUTH_API_KEYS_FILE: keysFile },
    }),
    startNode(),
  ]);
  secret = Buffer.from(readFileSync(join(node.datadir, 'jwt.hex'), 'utf8').trim(), 'hex');
}, 60_000);
afterAll(async () => {
  await Promise.all([node, plain].map((n) => n?.stop()));
  rmSync(keysDir, { recursive: true, force: true });
});

describe('the JWT secret', () => {
  it('is created at start as <datadir>/jwt.hex, 32 bytes of hex, mode 0600', () => {
    const path = join(node.datadir, 'jwt.hex');
    expect(readFileSync(path, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('is named in the log by its path, never by its value', () => {
    const text = node.logs.map((l) => JSON.stringify(l)).join('\n');
    expect(text).toContain(join(node.datadir, 'jwt.hex'));
    expect(text).not.toContain(secret.toString('hex'));
    expect(text).not.toContain(API_KEY);
  });

  it('is not created when auth is off (the dev default)', () => {
    expect(() => statSync(join(plain.datadir, 'jwt.hex'))).toThrow();
  });
});

describe('HTTP', () => {
  it('a protected method without a credential is 401 with a JSON-RPC error body', async () => {
    const res = await post(node.url, request('personal_listAccounts', [], 7));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: ErrorCode.Unauthorized } });
    expect(res.body.error.message).toMatch(/personal_listAccounts requires authentication/);
  });

  it('eth write methods are protected by default', async () => {
    const res = await post(node.url, request('eth_sendRawTransaction', ['0x00']));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe(ErrorCode.Unauthorized);
  });

  it('unprotected methods stay open without a credential', async () => {
    const res = await post(node.url, request('eth_blockNumber'));
    expect(res.status).toBe(200);
    expect(res.body.result).toMatch(/^0x/);
  });

  it('a valid token (iat now) is 200', async () => {
    const res = await post(node.url, request('personal_listAccounts', []), {
      headers: bearer(signJwt({ iat: now() }, secret)),
    });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.result)).toBe(true);
  });

  it('a valid token with exp in the future is 200', async () => {
    const res = await post(node.url, request('personal_listAccounts', []), {
      headers: bearer(signJwt({ exp: now() + 600 }, secret)),
    });
    expect(res.status).toBe(200);
  });

  it('a token as alloy and `cast --jwt-secret` build it ("exp": null, iat now) is 200; with a stale iat, 401', async () => {
    const res = await post(node.url, request('personal_listAccounts', []), {
      headers: bearer(signJwt({ iat: now(), exp: null }, secret)),
    });
    expect(res.status).toBe(200);
    const stale = await post(node.url, request('personal_listAccounts', []), {
      headers: bearer(signJwt({ iat: now() - 120, exp: null }, secret)),
    });
    expect(stale.status).toBe(401);
    expect(stale.body.error.data.reason).toMatch(/iat is more than 60 s/);
  });

  it('net peer administration is protected; net_version, net_listening and net_peerCount stay open', async () => {
    const administration = PEER_ADMIN_CALLS;
    for (const [method, params] of administration) {
      const res = await post(node.url, request(method, params));
      expect(res.status, method).toBe(401);
      expect(res.body.error.code, method).toBe(ErrorCode.Unauthorized);
      expect(res.body.error.message, method).toContain(
        `${method} requires authentication; send "Authorization: Bearer`,
      );
      // With a credential the method runs (answering whatever it answers: peering may be off on this node).
      const allowed = await post(node.url, request(method, params), { headers: { 'x-api-key': API_KEY } });
      expect(allowed.status, method).toBe(200);
      expect(allowed.body.error?.code, method).not.toBe(ErrorCode.Unauthorized);
    }
    for (const method of ['net_version', 'net_listening', 'net_peerCount']) {
      const res = await post(node.url, request(method, []));
      expect(res.status, method).toBe(200);
      expect(res.body.result, method).toBeDefined();
    }
  });

  it('a token signed with another secret is 401, even for an open method', async () => {
    const forged = signJwt({ iat: now() }, Buffer.alloc(32, 7));
    for (const method of ['personal_listAccounts', 'eth_blockNumber']) {
      const res = await post(node.url, request(method, []), { headers: bearer(forged) });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: ErrorCode.Unauthorized, data: { reason: 'bad signature' } });
    }
  });

  it('a stale iat, an expired exp, alg "none" and garbage are 401', async () => {
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iat: now() })).toString('base64url')}.`;
    const cases: Array<[string, RegExp]> = [
      [signJwt({ iat: now() - 120 }, secret), /iat is more than 60 s/],
      [signJwt({ exp: now() - 1 }, secret), /expired/],
      [none, /unsupported alg/],
      ['not-a-jwt', /malformed/],
    ];
    for (const [token, reason] of cases) {
      const res = await post(node.url, request('personal_listAccounts', []), { headers: bearer(token) });
      expect(res.status).toBe(401);
      expect(res.body.error.data.reason).toMatch(reason);
    }
  });

  it('an API key in X-API-Key authenticates; an unknown one is 401', async () => {
    const good = await post(node.url, request('personal_listAccounts', []), { headers: { 'x-api-key': API_KEY } });
    expect(good.status).toBe(200);
    const bad = await post(node.url, request('personal_listAccounts', []), { headers: { 'x-api-key': 'nope' } });
    expect(bad.status).toBe(401);
    expect(bad.body.error.data.reason).toBe('unknown API key');
  });

  it('a batch mixing open and protected methods is 401 and keeps the open answers', async () => {
    const res = await post(node.url, [request('eth_chainId', [], 1), request('personal_listAccounts', [], 2)]);
    expect(res.status).toBe(401);
    expect(res.body[0]).toMatchObject({ id: 1, result: '0x539' });
    expect(res.body[1]).toMatchObject({ id: 2, error: { code: ErrorCode.Unauthorized } });
  });

  it('/mcp is open by default (mcp is not protected) but refuses a bad credential', async () => {
    const res = await post(node.url.replace(/\/$/, '/mcp'), request('tools/list', []), {
      headers: { ...bearer('bad.token.here'), accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe(ErrorCode.Unauthorized);
  });

  it('with auth off nothing changes: no 401 for personal_listAccounts', async () => {
    const res = await post(plain.url, request('personal_listAccounts', []));
    expect(res.status).toBe(200);
  });
});

describe('WebSocket', () => {
  const upgradeStatus = (url: string, headers?: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.once('open', () => {
        socket.close();
        resolve({ status: 101, body: '' });
      });
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (c: string) => (body += c))
          .on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      socket.once('error', reject);
    });

  it('refuses the upgrade without a credential: 401 with a JSON-RPC error body', async () => {
    const { status, body } = await upgradeStatus(node.wsUrl);
    expect(status).toBe(401);
    expect(JSON.parse(body).error.code).toBe(ErrorCode.Unauthorized);
  });

  it('refuses a bad token at the upgrade', async () => {
    const { status, body } = await upgradeStatus(node.wsUrl, bearer(signJwt({ iat: now() }, Buffer.alloc(32, 1))));
    expect(status).toBe(401);
    expect(JSON.parse(body).error.data.reason).toBe('bad signature');
  });

  it('a valid token opens the connection and protected methods work on it', async () => {
    const client = await WsClient.open(node.wsUrl, { headers: bearer(signJwt({ iat: now() }, secret)) });
    try {
      const answer = await client.call(request('personal_listAccounts', []));
      expect(Array.isArray(answer.result)).toBe(true);
    } finally {
      client.close();
    }
  });

  it('an API key opens the connection too', async () => {
    const { status } = await upgradeStatus(node.wsUrl, { 'x-api-key': API_KEY });
    expect(status).toBe(101);
  });
});

describe('verifyJwt', () => {
  const key = Buffer.alloc(32, 9);
  it('accepts iat within ±60 s and refuses beyond', () => {
    expect(verifyJwt(signJwt({ iat: 1000 }, key), key, 1059)).toBeUndefined();
    expect(verifyJwt(signJwt({ iat: 1000 }, key), key, 941)).toBeUndefined();
    expect(verifyJwt(signJwt({ iat: 1000 }, key), key, 1061)).toMatch(/iat/);
    expect(verifyJwt(signJwt({ iat: 1000 }, key), key, 939)).toMatch(/iat/);
  });
  it('takes "exp": null as no exp (alloy, cast): iat is then checked as geth does', () => {
    expect(verifyJwt(signJwt({ iat: 1000, exp: null }, key), key, 1030)).toBeUndefined();
    expect(verifyJwt(signJwt({ iat: 1000, exp: null }, key), key, 1061)).toMatch(/iat is more than 60 s/);
    expect(verifyJwt(signJwt({ exp: null }, key), key, 1000)).toMatch(/neither/);
    expect(verifyJwt(signJwt({ iat: 1000, exp: '2000' }, key), key, 1000)).toBe('exp must be a number');
  });
  it('refuses a token with neither iat nor exp, and a tampered payload', () => {
    expect(verifyJwt(signJwt({}, key), key)).toMatch(/neither/);
    const [h, , s] = signJwt({ iat: 1000 }, key).split('.');
    const tampered = `${h}.${Buffer.from('{"iat":2000}').toString('base64url')}.${s}`;
    expect(verifyJwt(tampered, key, 2000)).toBe('bad signature');
  });
});

describe('configured from a TOML file: protected = ["*"], an existing secret file', () => {
  let strict: NodeProcess;
  let dir: string;
  const given = Buffer.alloc(32, 0x5a);
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-node-auth-toml-'));
    writeFileSync(join(dir, 'secret.hex'), `0x${given.toString('hex')}\n`, { mode: 0o600 });
    writeFileSync(
      join(dir, 'node.toml'),
      [
        '[network.rpc.auth]',
        'enabled = true',
        'protected = ["*"]',
        `jwt-secret-file = "${join(dir, 'secret.hex')}"`,
      ].join('\n'),
    );
    strict = await startNode({ args: ['--config', join(dir, 'node.toml')] });
  }, 60_000);
  afterAll(async () => {
    await strict?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses the given secret (0x-prefixed) as is and creates no jwt.hex in the datadir', async () => {
    expect(readFileSync(join(dir, 'secret.hex'), 'utf8').trim()).toBe(`0x${given.toString('hex')}`);
    expect(() => statSync(join(strict.datadir, 'jwt.hex'))).toThrow();
    const res = await post(strict.url, request('eth_chainId'), { headers: bearer(signJwt({ iat: now() }, given)) });
    expect(res.status).toBe(200);
  });

  it('"*" protects every method, /mcp included', async () => {
    const res = await post(strict.url, request('eth_chainId'));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe(ErrorCode.Unauthorized);
    const mcp = await post(strict.url.replace(/\/$/, '/mcp'), request('tools/list', []), {
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(mcp.status).toBe(401);
    expect(mcp.body.error.data.reason).toBe('/mcp requires authentication');
  });
});

describe('auth files that cannot be used stop the start with one line naming the setting', () => {
  it('a missing API keys file, and a secret file that is not 64 hex digits; no secret is created meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-node-auth-files-'));
    try {
      writeFileSync(join(dir, 'short.hex'), 'abcd\n');
      const on = { SVC_NODE_NETWORK_RPC_AUTH_ENABLED: 'true' };
      const [noKeys, shortSecret] = await Promise.all([
        runCli(['--datadir', join(dir, 'a'), '--http.port', '0'], {
          ...on,
          SVC_NODE_NETWORK_RPC_AUTH_API_KEYS_FILE: join(dir, 'api-keys'),
        }),
        runCli(['--datadir', join(dir, 'b'), '--http.port', '0'], {
          ...on,
          SVC_NODE_NETWORK_RPC_AUTH_JWT_SECRET_FILE: join(dir, 'short.hex'),
        }),
      ]);
      expect(noKeys.code).toBe(1);
      expect(noKeys.stderr).toBe(
        `svc-node: cannot start: network.rpc.auth.api-keys-file: cannot read ${join(dir, 'api-keys')}: no such file\n`,
      );
      expect(() => statSync(join(dir, 'a', 'jwt.hex'))).toThrow();
      expect(shortSecret.code).toBe(1);
      expect(shortSecret.stderr).toBe(
        `svc-node: cannot start: network.rpc.auth.jwt-secret-file: ${join(dir, 'short.hex')} must hold 32 bytes ` +
          'as 64 hex digits (optionally 0x-prefixed)\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
