/**
 * The safe defaults of issue 14, each checked where it takes effect: the configuration a production network gets
 * without any setting, a real mordor/etc node's namespaces and CORS, keystore file modes, and the whole log of a
 * run that handled passphrases and private keys (at debug level) searched for every one of them.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/node/config.js';
import { rpcExposure } from '../../src/node/exposure.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';
import { PEER_ADMIN_CALLS } from '../helpers/peer-admin-calls.js';

const PRIVILEGED = [
  'personal_listAccounts',
  'personal_newAccount',
  'debug_listPeersInfo',
  'debug_accountRange',
  'qa_mineBlocks',
];

describe('defaults per network (configuration)', () => {
  for (const network of ['mordor', 'etc'] as const) {
    it(`${network}: no personal, debug, trace, qa or test; 127.0.0.1; no CORS origin; auth settings present but off`, () => {
      const config = loadConfig({ flags: { 'blockchains.network': network }, env: {} });
      for (const ns of ['personal', 'debug', 'trace', 'qa', 'test', 'mcp'] as const)
        expect(config.rpc.apis).not.toContain(ns);
      expect(config.rpc.http.interface).toBe('127.0.0.1');
      expect(config.rpc.http.corsAllowedOrigins).toEqual([]);
      expect(config.rpc.metrics.enabled).toBe(false);
      expect(config.rpc.auth.enabled).toBe(false);
      expect(config.rpc.auth.jwtSecretFile).toBe(join(config.datadir, 'jwt.hex'));
    });
  }

  it('naming a namespace in apis is the only way to serve it on mordor', () => {
    const config = loadConfig({
      flags: { 'blockchains.network': 'mordor', 'network.rpc.apis': ['eth', 'personal'] },
      env: {},
    });
    expect(config.rpc.apis).toEqual(['eth', 'personal', 'rpc']);
  });

  it('signing or inspecting namespaces on a non-loopback RPC address without auth are named for a warning', () => {
    const exposed = (network: string, env: NodeJS.ProcessEnv) =>
      rpcExposure(
        loadConfig({
          flags: { 'blockchains.network': network, 'network.rpc.http.interface': '0.0.0.0' },
          env: { SVC_NODE_NETWORK_RPC_APIS: 'eth,net,web3,personal,debug,txpool', ...env },
        }),
      );
    expect(exposed('mordor', {})).toEqual({ address: '0.0.0.0', namespaces: ['personal', 'debug', 'txpool'] });
    // Peer administration opened to everyone is said too.
    expect(exposed('mordor', { SVC_NODE_NETWORK_RPC_AUTH_ANONYMOUS_PEER_ADMIN: 'true' })).toEqual({
      address: '0.0.0.0',
      namespaces: ['personal', 'debug', 'txpool', 'net (peer administration)'],
    });
    expect(exposed('etc', {})).toEqual({ address: '0.0.0.0', namespaces: ['personal', 'debug', 'txpool'] });
    // Authentication on, the public dev keys, or eth/web3/net alone: nothing to warn about.
    expect(exposed('mordor', { SVC_NODE_NETWORK_RPC_AUTH_ENABLED: 'true' })).toBeUndefined();
    expect(exposed('dev', {})).toBeUndefined();
    expect(exposed('etc', { SVC_NODE_NETWORK_RPC_APIS: 'eth,net,web3' })).toBeUndefined();
    expect(rpcExposure(loadConfig({ flags: { 'blockchains.network': 'etc' }, env: {} }))).toBeUndefined();
    // On 127.0.0.1 with every origin allowed, any web page the operator opens can call the node through the browser.
    const anyPage = loadConfig({
      flags: { 'blockchains.network': 'mordor', 'network.rpc.http.cors-allowed-origins': '*' },
      env: { SVC_NODE_NETWORK_RPC_APIS: 'eth,personal' },
    });
    expect(rpcExposure(anyPage)).toEqual({ address: '127.0.0.1', namespaces: ['personal'], cors: '*' });
  });

  it('a protected list naming nothing known is refused at start (a typo must not leave a method open)', () => {
    expect(() => loadConfig({ env: { SVC_NODE_NETWORK_RPC_AUTH_PROTECTED: 'personal,eth_sendTransactoin' } })).toThrow(
      /names no namespace or method: eth_sendTransactoin/,
    );
  });
});

describe('a mordor node and an etc node as started with no settings', () => {
  let mordor: NodeProcess;
  let etc: NodeProcess;
  beforeAll(async () => {
    [mordor, etc] = await Promise.all([
      startNode({ args: ['--network', 'mordor'] }),
      startNode({ args: ['--network', 'etc'] }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([mordor, etc].map((n) => n?.stop()));
  });

  it('answer -32601 for every personal, debug and qa method', async () => {
    for (const n of [mordor, etc]) {
      for (const method of PRIVILEGED) {
        const res = await post(n.url, request(method, []));
        expect(res.body.error?.code, method).toBe(-32601);
      }
    }
  });

  it('refuse net peer administration to every caller (auth is off), saying how to allow it; the rest of net answers', async () => {
    const administration = PEER_ADMIN_CALLS;
    for (const [n, name] of [
      [mordor, 'mordor'],
      [etc, 'etc'],
    ] as const) {
      for (const [method, params] of administration) {
        const res = await post(n.url, request(method, params));
        expect(res.body.error?.code, method).toBe(-40100);
        expect(res.body.error.message, method).toBe(
          `Unauthorized: ${method} administers this node's peers, which a ${name} node serves only to authenticated ` +
            'callers; turn authentication on (network.rpc.auth.enabled = true) and send "Authorization: Bearer ' +
            '<HS256 JWT>" or "X-API-Key: <key>", or serve it to every caller with ' +
            'network.rpc.auth.anonymous-peer-admin = true',
        );
      }
      // Nothing was blocked or dialled: the refused calls did not run.
      for (const method of ['net_version', 'net_listening', 'net_peerCount']) {
        const res = await post(n.url, request(method, []));
        expect(res.body.result, method).toBeDefined();
      }
    }
  });

  it('refuse a browser page from another origin (CORS deny by default)', async () => {
    for (const n of [mordor, etc]) {
      const res = await post(n.url, request('eth_chainId'), { headers: { origin: 'https://evil.example' } });
      expect(res.status).toBe(403);
      const preflight = await fetch(n.url, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(403);
    }
  });

  it('listen on 127.0.0.1 only, so no start-up warning about an open RPC port', () => {
    for (const n of [mordor, etc]) {
      expect(new URL(n.url).hostname).toBe('127.0.0.1');
      expect(n.logs.filter((l) => l.level === 'warn' && /^RPC open/.test(String(l.msg)))).toEqual([]);
    }
  });
});

describe('secrets never reach the log', () => {
  let dev: NodeProcess;
  let stderr = '';
  const passphrase = `pass-${randomBytes(8).toString('hex')}`;
  const importPassphrase = `imp-${randomBytes(8).toString('hex')}`;
  const wrongPassphrase = `wrong-${randomBytes(8).toString('hex')}`;
  const rawKey = randomBytes(32).toString('hex');

  beforeAll(async () => {
    // Debug level: the most the node ever writes. Light scrypt: a tenth of the CPU for its eight key derivations.
    dev = await startNode({ args: ['--log-level', 'debug', '--lightkdf'] });
    dev.child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  }, 60_000);
  afterAll(async () => {
    await dev?.stop();
  });

  const rpc = async (method: string, params: unknown[]) => (await post(dev.url, request(method, params))).body;

  it('after new, import, unlock (right and wrong), sign and send with passphrases, no passphrase or key appears', async () => {
    const created = await rpc('personal_newAccount', [passphrase]);
    expect(created.result).toMatch(/^0x[0-9a-f]{40}$/i);
    const imported = await rpc('personal_importRawKey', [rawKey, importPassphrase]);
    expect(imported.result).toMatch(/^0x[0-9a-f]{40}$/i);
    // The same key again fails (already held): an error path that must not echo the key either.
    await rpc('personal_importRawKey', [rawKey, importPassphrase]);
    await rpc('personal_importRawKey', [`0x${rawKey.slice(2)}zz`, importPassphrase]);
    expect((await rpc('personal_unlockAccount', [created.result, passphrase, 60])).result).toBe(true);
    expect((await rpc('personal_unlockAccount', [imported.result, wrongPassphrase, 60])).result).not.toBe(true);
    await rpc('personal_sign', ['0x68656c6c6f', imported.result, importPassphrase]);
    await rpc('personal_sign', ['0x68656c6c6f', imported.result, wrongPassphrase]);
    // Fund the new account from a dev account, then spend from it with its passphrase.
    const [funder] = (await rpc('eth_accounts', [])).result as string[];
    await rpc('eth_sendTransaction', [{ from: funder, to: created.result, value: '0xde0b6b3a7640000' }]);
    const sent = await rpc('personal_sendTransaction', [
      { from: created.result, to: imported.result, value: '0x1' },
      passphrase,
    ]);
    expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/);
    await rpc('personal_sendTransaction', [
      { from: imported.result, to: created.result, value: '0x1' },
      wrongPassphrase,
    ]);

    // Keystore files: 0600, in a 0700 directory.
    const keystore = join(dev.datadir, 'keystore');
    expect(statSync(keystore).mode & 0o777).toBe(0o700);
    const files = readdirSync(keystore).filter((f) => !f.startsWith('.'));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const f of files) expect(statSync(join(keystore, f)).mode & 0o777, f).toBe(0o600);
    // Written with the light parameters --lightkdf asks for.
    for (const f of files) expect(JSON.parse(readFileSync(join(keystore, f), 'utf8')).crypto.kdfparams.n, f).toBe(4096);

    const log = dev.logs.map((l) => JSON.stringify(l)).join('\n') + '\n' + stderr;
    expect(log.length).toBeGreaterThan(0);
    for (const secret of [passphrase, importPassphrase, wrongPassphrase, rawKey, rawKey.slice(2, 40)]) {
      expect(log.includes(secret), `log contains ${secret}`).toBe(false);
    }
  });
});
