/**
 * The client package in a browser bundle: esbuild with `platform: 'browser'` bundles its built JavaScript (what an
 * app bundler gets from node_modules) without marking anything external, so a Node built-in anywhere in it would fail
 * the build; the bundle, imported in Node with nothing but the global fetch (and ws's WebSocket, which browsers
 * have built in), talks to a real dev node.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type * as Client from '../../clients/typescript/src/index.js';
import { repoRoot, startNode, type NodeProcess } from '../helpers/node-process.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-node-client-bundle-'));
let node: NodeProcess | undefined;
let result: esbuild.BuildResult<{ write: false; metafile: true }>;

beforeAll(async () => {
  // The package's build step (its `prepare`): clients/typescript/dist/ from the generated sources.
  const build = spawnSync(process.execPath, ['bin/build.js', '--client'], { cwd: repoRoot, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  result = await esbuild.build({
    entryPoints: [join(repoRoot, 'clients/typescript/dist/index.js')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  node = await startNode({ args: ['--no-p2p'] });
}, 120_000);

afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('svc-node-client in a browser bundle', () => {
  it('bundles for the browser from the package alone, naming no Node module', () => {
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.length).toBeGreaterThanOrEqual(4);
    // Paths relative to esbuild's working directory: every one inside the package's dist/.
    const dist = relative(process.cwd(), join(repoRoot, 'clients/typescript/dist'));
    for (const input of inputs) expect(input.startsWith(`${dist}/`), input).toBe(true);
    const text = result.outputFiles[0]!.text;
    expect(text).not.toMatch(/["'`]node:/);
    expect(text).not.toMatch(/\brequire\(/);
    expect(text).toMatch(/eth_getTransactionReceipt/);
  });

  it('calls a real dev node through the bundle: HTTP with the global fetch, WebSocket, a transfer and its receipt', async () => {
    const file = join(dir, 'svc-node-client.browser.js');
    writeFileSync(file, result.outputFiles[0]!.text);
    const client = (await import(pathToFileURL(file).href)) as typeof Client;
    const http = client.createClient(client.httpTransport(node!.url));
    expect(client.fromHex(await http.eth_chainId())).toBe(1337n);
    const [from, to] = await http.eth_accounts();
    const before = client.fromHex(await http.eth_getBalance(to!));
    const hash = await http.eth_sendTransaction({ from: from!, to: to!, value: client.toHex(12345n) });
    const receipt = await client.waitForReceipt(http, hash, { timeoutMs: 30_000 });
    expect(receipt.status).toBe('0x1');
    expect(client.fromHex(await http.eth_getBalance(to!)) - before).toBe(12345n);

    const ws = client.createClient(client.webSocketTransport(node!.wsUrl, { WebSocket }));
    expect(await ws.eth_blockNumber()).toBe(receipt.blockNumber);
    await ws.close();
    const error = await http.request('eth_nope', []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.RpcClientError);
  });
});
