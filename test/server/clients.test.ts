/**
 * Real clients against a node process: the generated SDK over HTTP and WebSocket, ethers v6, and `rpc.discover`
 * returning exactly `openrpc.json`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  createClient,
  httpTransport,
  RpcClientError,
  webSocketTransport,
  type RpcClient,
} from '../../clients/typescript/src/client.js';
import { repoRoot, startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

let node: NodeProcess;

beforeAll(async () => {
  node = await startNode();
});
afterAll(async () => {
  await node?.stop();
});

describe('rpc.discover', () => {
  it('returns openrpc.json exactly', async () => {
    const onDisk = JSON.parse(readFileSync(join(repoRoot, 'openrpc.json'), 'utf8'));
    const res = await post(node.url, request('rpc.discover'));
    expect(res.body.result).toEqual(onDisk);
  });
});

describe.each([
  ['HTTP', () => createClient(httpTransport(node.url))],
  ['WebSocket', () => createClient(webSocketTransport(node.wsUrl, { WebSocket }))],
])('the generated client over %s', (_name, makeClient) => {
  let client: RpcClient;
  beforeAll(() => {
    client = makeClient();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('calls typed methods', async () => {
    expect(await client.eth_chainId()).toBe('0x539');
    expect(await client.net_version()).toBe('1337');
    expect(await client.web3_sha3('0x')).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect((await client.rpc_modules()).rpc).toBe('1.0');
  });

  it('sends batches and surfaces JSON-RPC errors as RpcClientError', async () => {
    const [chainId, version, balance] = await client.batch((b) => [
      b.eth_chainId(),
      b.web3_clientVersion(),
      b.iele_call({ to: '0x095e7baea6a6c7c4c2dfeb977efac326af552d87', function: 'get()', arguments: [] }, 'latest'), // not available yet: -32004
    ]);
    expect(chainId).toBe('0x539');
    expect(version).toMatch(/^svc-node\//);
    expect(balance).toBeInstanceOf(RpcClientError);
    expect((balance as RpcClientError).code).toBe(-32004);
    await expect(client.request('no_such_method')).rejects.toMatchObject({ code: -32601 });
  });
});

describe('ethers v6', () => {
  it('reads eth_chainId through JsonRpcProvider', async () => {
    const provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: false });
    try {
      expect((await provider.getNetwork()).chainId).toBe(1337n);
      expect(await provider.send('eth_chainId', [])).toBe('0x539');
    } finally {
      provider.destroy();
    }
  });
});
