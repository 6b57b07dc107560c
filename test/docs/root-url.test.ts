/**
 * `GET /`, the first URL a person opens: a browser is sent to the portal, an API client gets a JSON pointer whose
 * every path answers on the same node, and `POST /` is still JSON-RPC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET / on a dev node', () => {
  let node: NodeProcess;
  let noMcp: NodeProcess;
  beforeAll(async () => {
    [node, noMcp] = await Promise.all([
      startNode({ args: ['--no-p2p'] }),
      startNode({ args: ['--no-p2p', '--apis', 'eth,net,web3'] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([node?.stop(), noMcp?.stop()]);
  });

  it('redirects a browser to the docs portal, which serves its front page', async () => {
    const response = await fetch(node.url, { headers: { accept: BROWSER_ACCEPT }, redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/docs/');
    expect(response.headers.get('vary')?.toLowerCase()).toContain('accept');

    const followed = await fetch(node.url, { headers: { accept: BROWSER_ACCEPT } });
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(new URL('/docs/', node.url).href);
    expect(followed.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await followed.text()).toContain('<title>Overview');
  });

  it('answers an API client with a JSON pointer whose paths all answer', async () => {
    for (const accept of [undefined, 'application/json', '*/*']) {
      const response = await fetch(node.url, { headers: accept ? { accept } : {}, redirect: 'manual' });
      expect(response.status, `Accept: ${accept}`).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const pointer = (await response.json()) as Record<string, string>;
      expect(pointer).toMatchObject({
        name: 'svc-node',
        jsonrpc: 'POST /',
        websocket: '/ws',
        docs: '/docs/',
        mcp: '/mcp',
      });
    }
    const pointer = (await (await fetch(node.url)).json()) as Record<string, string>;

    for (const key of ['docs', 'gettingStarted', 'health', 'metrics']) {
      const response = await fetch(new URL(pointer[key], node.url));
      expect(response.status, `${key}: GET ${pointer[key]}`).toBe(200);
    }
    const mcp = await fetch(new URL(pointer.mcp, node.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(200);
    expect(JSON.stringify(await mcp.json())).toContain('mcp_node_status');

    const rpc = await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: pointer.openrpc, params: [] }),
    });
    expect(((await rpc.json()) as { result: { openrpc: string } }).result.openrpc).toMatch(/^1\./);
  });

  it('leaves out /mcp when the mcp namespace is off', async () => {
    const pointer = (await (await fetch(noMcp.url)).json()) as Record<string, string>;
    expect(pointer.jsonrpc).toBe('POST /');
    expect(pointer).not.toHaveProperty('mcp');
  });
});
