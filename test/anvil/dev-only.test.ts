/**
 * The anvil namespace edits state and time at will: refused at start on mordor/etc even when --apis names it, on by
 * default on dev, and behind authentication there when auth is on (a caller without a credential gets HTTP 401).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, post, request } from '../helpers/rpc.js';

let node: NodeProcess | undefined;
afterAll(async () => {
  await node?.stop();
});

describe('anvil namespace: dev only, protected', () => {
  it('refuses to start mordor with --apis naming anvil, saying why', async () => {
    const datadir = mkdtempSync(join(tmpdir(), 'svc-node-anvil-mordor-'));
    const run = await runCli(['--network', 'mordor', '--datadir', datadir, '--no-p2p', '--apis', 'eth,anvil']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/"anvil" namespace .* serves the dev network only; remove it .* on mordor/);
  });

  it('is on by default on dev and needs a credential once auth is on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-node-anvil-auth-'));
    const keysFile = join(dir, 'keys.txt');
    writeFileSync(keysFile, 'anvil-test-key\n');
    node = await startNode({
      args: ['--no-p2p'],
      env: { SVC_NODE_NETWORK_RPC_AUTH_ENABLED: 'true', SVC_NODE_NETWORK_RPC_AUTH_API_KEYS_FILE: keysFile },
    });
    expect(await call<Record<string, string>>(node.url, 'rpc_modules')).toHaveProperty('anvil');
    const anonymous = await post(node.url, request('evm_snapshot', []));
    expect(anonymous.status).toBe(401);
    const withKey = await post(node.url, request('evm_snapshot', []), { headers: { 'x-api-key': 'anvil-test-key' } });
    expect(withKey.body).toMatchObject({ result: '0x0' });
    // A send as any account without its key is the anvil namespace's too, eth_ prefix or not.
    const send = [
      { from: '0x1111111111111111111111111111111111111111', to: '0x2222222222222222222222222222222222222222' },
    ];
    expect((await post(node.url, request('eth_sendUnsignedTransaction', send))).status).toBe(401);
  });
});
