/** HTTPS from a PKCS#12 keystore generated here with openssl (skipped, with the reason printed, without openssl). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { WsClient, request } from '../helpers/rpc.js';

function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const hasOpenssl = opensslAvailable();
if (!hasOpenssl) console.warn('skipping the HTTPS tests: the openssl command is not installed');

let dir: string;
let node: NodeProcess;
let cert: Buffer;

function postTls(url: string, body: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { method: 'POST', ca: cert, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe.skipIf(!hasOpenssl)('HTTPS with a PKCS#12 keystore', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-node-tls-'));
    const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    run([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]);
    run([
      'pkcs12',
      '-export',
      '-in',
      'cert.pem',
      '-inkey',
      'key.pem',
      '-out',
      'node.p12',
      '-passout',
      'pass:s3cret-pass',
    ]);
    writeFileSync(join(dir, 'password'), 's3cret-pass\n');
    cert = readFileSync(join(dir, 'cert.pem'));
    node = await startNode({
      env: {
        SVC_NODE_NETWORK_RPC_HTTP_MODE: 'https',
        SVC_NODE_NETWORK_RPC_HTTP_CERTIFICATE_KEYSTORE_PATH: join(dir, 'node.p12'),
        SVC_NODE_NETWORK_RPC_HTTP_CERTIFICATE_KEYSTORE_TYPE: 'pkcs12',
        SVC_NODE_NETWORK_RPC_HTTP_CERTIFICATE_PASSWORD_FILE: join(dir, 'password'),
      },
    });
  });
  afterAll(async () => {
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves JSON-RPC over TLS with the keystore certificate', async () => {
    expect(node.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    const res = await postTls(node.url, request('eth_chainId'));
    expect(res).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 1, result: '0x539' } });
  });

  it('serves WebSocket over TLS (wss)', async () => {
    expect(node.wsUrl).toMatch(/^wss:/);
    const ws = await WsClient.open(node.wsUrl, { ca: cert });
    expect((await ws.call(request('net_version'))).result).toBe('1337');
    ws.close();
  });

  it('refuses to start with a wrong keystore password', async () => {
    writeFileSync(join(dir, 'wrong'), 'nope\n');
    await expect(
      startNode({
        env: {
          SVC_NODE_NETWORK_RPC_HTTP_MODE: 'https',
          SVC_NODE_NETWORK_RPC_HTTP_CERTIFICATE_KEYSTORE_PATH: join(dir, 'node.p12'),
          SVC_NODE_NETWORK_RPC_HTTP_CERTIFICATE_PASSWORD_FILE: join(dir, 'wrong'),
        },
      }),
    ).rejects.toThrow(/cannot use keystore/);
  });
});
