/** JSON-RPC over a real WebSocket at /ws: the same dispatch as HTTP, plus the WebSocket-only methods. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { WsClient, request } from '../helpers/rpc.js';

let node: NodeProcess;
let ws: WsClient;

beforeAll(async () => {
  node = await startNode();
  ws = await WsClient.open(node.wsUrl);
});
afterAll(async () => {
  ws?.close();
  await node?.stop();
});

describe('JSON-RPC over WebSocket', () => {
  it('a plain GET of /ws (no upgrade) is 426 saying what the URL is for', async () => {
    const plain = await fetch(new URL('ws', node.url));
    expect(plain.status).toBe(426);
    expect(plain.headers.get('upgrade')).toBe('websocket');
    expect(await plain.text()).toMatch(
      /^\/ws is the JSON-RPC WebSocket endpoint: connect to it with a WebSocket client/,
    );
  });

  it('answers single requests and keeps ids', async () => {
    expect(await ws.call(request('eth_chainId', [], 'x1'))).toEqual({ jsonrpc: '2.0', id: 'x1', result: '0x539' });
    expect(await ws.call(request('net_version', [], 2))).toEqual({ jsonrpc: '2.0', id: 2, result: '1337' });
  });

  it('answers batches with mixed entries, leaving out notifications', async () => {
    const out = await ws.call([
      request('web3_clientVersion', [], 1),
      { jsonrpc: '2.0', method: 'eth_chainId' },
      request('eth_nope', [], 3),
      request('web3_sha3', [1], 4),
    ]);
    expect(out).toHaveLength(3);
    expect(out[0].result).toMatch(/^svc-node\//);
    expect(out[1]).toMatchObject({ id: 3, error: { code: -32601 } });
    expect(out[2]).toMatchObject({ id: 4, error: { code: -32602 } });
  });

  it('reports -32700 and -32600 like HTTP', async () => {
    expect(await ws.call('{nope', true)).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await ws.call([])).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await ws.call({ jsonrpc: '2.0', id: 9, method: 'eth_chainId', params: 'x' })).toMatchObject({
      id: 9,
      error: { code: -32600 },
    });
  });

  it('accepts WebSocket-only methods (over HTTP they are -32601)', async () => {
    const res = await ws.call(request('eth_subscribe', ['newHeads']));
    expect(res.result).toMatch(/^0x[0-9a-f]{1,32}$/);
  });

  it('sends nothing back for a notification', async () => {
    ws.send({ jsonrpc: '2.0', method: 'eth_chainId' });
    expect(await ws.call(request('eth_chainId', [], 'after'))).toMatchObject({ id: 'after' });
  });

  it('refuses upgrades on other paths', async () => {
    await expect(WsClient.open(node.wsUrl.replace(/\/ws$/, '/other'))).rejects.toThrow(/404/);
  });
});
