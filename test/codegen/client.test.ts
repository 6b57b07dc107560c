import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import {
  createClient,
  httpTransport,
  RpcClientError,
  webSocketTransport,
} from '../../clients/typescript/src/client.js';

type Request = { jsonrpc: '2.0'; id: number; method: string; params: unknown[] };
const received: Request[] = [];

/** A stand-in node: eth_chainId works, anything else is -32601; eth_subscribe pushes one notification. */
function answer(request: Request): object {
  received.push(request);
  if (request.method === 'eth_chainId') return { jsonrpc: '2.0', id: request.id, result: '0x3d' };
  if (request.method === 'eth_getBalance')
    return { jsonrpc: '2.0', id: request.id, result: request.params.length === 1 ? '0x1' : '0x2' };
  if (request.method === 'eth_subscribe') return { jsonrpc: '2.0', id: request.id, result: '0xabc' };
  return { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found', data: request.method } };
}
const reply = (body: Request | Request[]) => (Array.isArray(body) ? body.map(answer) : answer(body));

let server: http.Server;
let wss: WebSocketServer;
let url: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(reply(JSON.parse(body))));
    });
  });
  wss = new WebSocketServer({ server, path: '/ws' });
  wss.on('connection', (socket) =>
    socket.on('message', (data) => {
      const body = JSON.parse(String(data));
      socket.send(JSON.stringify(reply(body)));
      if (!Array.isArray(body) && body.method === 'eth_subscribe') {
        socket.send(
          JSON.stringify({
            jsonrpc: '2.0',
            method: 'eth_subscription',
            params: { subscription: '0xabc', result: { number: '0x5' } },
          }),
        );
      }
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  wss.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('generated client over HTTP', () => {
  const client = () => createClient(httpTransport(`http://${url}`));

  it('calls a method with its JSON-RPC name and returns the result', async () => {
    expect(await client().eth_chainId()).toBe('0x3d');
    expect(received.at(-1)).toMatchObject({ jsonrpc: '2.0', method: 'eth_chainId', params: [] });
  });

  it('maps member names back to method names and drops trailing undefined params', async () => {
    await expect(client().tools_list()).rejects.toThrow(RpcClientError);
    expect(received.at(-1)?.method).toBe('tools/list');
    await client()
      .rpc_discover()
      .catch(() => undefined);
    expect(received.at(-1)?.method).toBe('rpc.discover');
    const omitted = await client().request('eth_getBalance', [
      '0x407d73d8a49eeb85d32cf465507dd71d507100c1',
      undefined,
    ] as never);
    expect(omitted).toBe('0x1');
  });

  it('throws RpcClientError with code and data', async () => {
    const error = await client()
      .request('eth_nope', [])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcClientError);
    expect(error).toMatchObject({ code: -32601, message: 'Method not found', data: 'eth_nope' });
  });

  it('batches, with a per-entry error', async () => {
    const [chainId, tools] = await client().batch((b) => [b.eth_chainId(), b.tools_list()]);
    expect(chainId).toBe('0x3d');
    expect(tools).toBeInstanceOf(RpcClientError);
    expect(await client().batch(() => [])).toEqual([]);
  });

  it('sends the configured headers through the given fetch', async () => {
    const seen: Record<string, string>[] = [];
    const transport = httpTransport(`http://${url}`, {
      headers: { 'x-test': 'yes' },
      fetch: (u, init) => {
        seen.push(init.headers);
        return fetch(u, init);
      },
    });
    expect(await createClient(transport).eth_chainId()).toBe('0x3d');
    expect(seen[0]).toMatchObject({ 'x-test': 'yes', 'content-type': 'application/json' });
  });
});

describe('generated client over WebSocket', () => {
  it('requests, batches and delivers eth_subscription notifications', async () => {
    const transport = webSocketTransport(`ws://${url}/ws`, { WebSocket });
    const client = createClient(transport);
    expect(await client.eth_chainId()).toBe('0x3d');
    expect(await client.batch((b) => [b.eth_chainId(), b.web3_clientVersion()])).toMatchObject([
      '0x3d',
      { code: -32601 },
    ]);
    const heads: unknown[] = [];
    const subscription = await client.eth_subscribe('newHeads');
    const delivered = new Promise<void>((resolve) =>
      transport.subscribe(subscription, (head) => {
        heads.push(head);
        resolve();
      }),
    );
    await delivered;
    expect(heads).toEqual([{ number: '0x5' }]);
    await client.close();
    await expect(client.eth_chainId()).rejects.toThrow(/closed|not open/);
  });
});
