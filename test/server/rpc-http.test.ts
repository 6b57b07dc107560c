/** JSON-RPC over real HTTP against a dev node started as a process. */
import { keccak256, toUtf8Bytes } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

let node: NodeProcess;

beforeAll(async () => {
  node = await startNode();
});
afterAll(async () => {
  await node?.stop();
});

describe('JSON-RPC over HTTP (dev node)', () => {
  it('logs one listening line with the real port and network', () => {
    const line = node.logs.find((l) => l.msg === 'listening')!;
    expect(line).toMatchObject({ level: 'info', address: '127.0.0.1', network: 'dev' });
    expect(line.port).toBeGreaterThan(0);
    expect(line.port).not.toBe(8546);
    // Peering runs on dev by default; the test helper asks for a free devp2p port, reported with the enode.
    expect(line.enode).toMatch(/^enode:\/\/[0-9a-f]{128}@[^:@]+:\d+/);
    expect(line.p2pPort).toBeGreaterThan(0);
    expect(line.p2pPort).not.toBe(9076);
    expect(String(line.enode)).toContain(`:${String(line.p2pPort)}`);
    expect(node.enode).toBe(line.enode);
    expect(node.p2pPort).toBe(line.p2pPort);
  });

  it('serves the base methods', async () => {
    const res = await post(node.url, [
      request('web3_clientVersion', [], 1),
      request('net_version', [], 2),
      request('net_listening', [], 3),
      request('eth_chainId', [], 4),
      request('web3_sha3', ['0x68656c6c6f20776f726c64'], 5),
      request('rpc_modules', [], 6),
    ]);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const [version, net, listening, chainId, sha3, modules] = res.body;
    expect(version.result).toMatch(
      new RegExp(`^svc-node/v\\d+\\.\\d+\\.\\d+/${process.platform}-${process.arch}/node\\d+`),
    );
    expect(net.result).toBe('1337');
    expect(listening.result).toBe(true);
    expect(chainId.result).toBe('0x539');
    expect(sha3.result).toBe(keccak256(toUtf8Bytes('hello world')));
    expect(sha3.result).toBe('0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad');
    expect(Object.keys(modules.result).sort()).toEqual(
      [
        'admin',
        'anvil',
        'checkpointing',
        'debug',
        'eth',
        'iele',
        'mcp',
        'net',
        'ots',
        'personal',
        'qa',
        'rpc',
        'svc',
        'trace',
        'txpool',
        'web3',
      ].sort(),
    );
    expect(new Set(Object.values(modules.result))).toEqual(new Set(['1.0']));
  });

  it('answers a batch with mixed good and bad entries, one response per request with an id', async () => {
    const res = await post(node.url, [
      request('eth_chainId', [], 'first'),
      { jsonrpc: '2.0', method: 'eth_chainId' }, // notification: no entry
      request('eth_noSuchMethod', [], 3),
      request('web3_sha3', ['0x1'], 4), // odd-length hex
      request('web3_sha3', [], 5),
      { jsonrpc: '1.0', id: 6, method: 'eth_chainId' },
      42,
      { foo: 1 }, // not a request object: -32600, not -32006
      request('iele_call', [], null), // not available yet: -32004
      request('eth_chainId', [], { complex: ['id'] }),
    ]);
    expect(res.status).toBe(200);
    const byPosition = res.body as any[];
    expect(byPosition).toHaveLength(9);
    expect(byPosition[0]).toEqual({ jsonrpc: '2.0', id: 'first', result: '0x539' });
    expect(byPosition[1]).toMatchObject({ id: 3, error: { code: -32601 } });
    expect(byPosition[2]).toMatchObject({ id: 4, error: { code: -32602 } });
    expect(byPosition[2].error.message).toBe(
      'invalid params: data (param 1) must be hex-encoded bytes, two digits per byte; 0x is empty; got "0x1"',
    );
    expect(byPosition[3]).toMatchObject({ id: 5, error: { code: -32602 } });
    expect(byPosition[3].error.message).toBe(
      'invalid params: data (param 1) is missing: web3_sha3 takes 1 parameter (data), got 0',
    );
    expect(byPosition[4]).toMatchObject({ id: 6, error: { code: -32006 } });
    expect(byPosition[5]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(byPosition[6]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(byPosition[7]).toMatchObject({ id: null, error: { code: -32004 } });
    expect(byPosition[8]).toEqual({ jsonrpc: '2.0', id: { complex: ['id'] }, result: '0x539' });
  });

  it('reports the arity of a method with no params', async () => {
    const res = await post(node.url, request('eth_chainId', [1, 2]));
    expect(res.body.error).toMatchObject({
      code: -32602,
      message: 'invalid params: eth_chainId takes no parameters, got 2',
      data: { expected: { min: 0, max: 0 }, actual: 2 },
    });
  });

  it('words a refused param so a person can act on it, and suggests the method a near-miss name meant', async () => {
    const res = await post(node.url, [
      request('eth_getBalance', ['0x12', 'latest'], 1),
      request('eth_call', [{ to: '0x407d73d8a49eeb85d32cf465507dd71d507100c1', gas: 21000 }], 2),
      request('eth_getbalance', ['0x407d73d8a49eeb85d32cf465507dd71d507100c1'], 3),
      request('eth_blockNumbr', [], 4),
      request('test_mineBlock', [1], 5),
    ]);
    const [address, gas, caseSlip, typo, disabled] = res.body as any[];
    expect(address.error).toEqual({
      code: -32602,
      message:
        'invalid params: address (param 1) must be a 20-byte account address: 0x and 40 hex digits ' +
        '(checksum case allowed); got "0x12"',
      data: { index: 0, param: 'address', keyword: 'pattern', expected: expect.stringMatching(/^a 20-byte/) },
    });
    expect(gas.error.message).toMatch(
      /^invalid params: transaction \(param 1\) field gas must be a quantity: .*; got 21000, which is decimal: .*"0x5208"$/,
    );
    expect(caseSlip.error).toEqual({
      code: -32601,
      message: 'the method eth_getbalance does not exist/is not available; did you mean eth_getBalance?',
    });
    expect(typo.error.message).toBe(
      'the method eth_blockNumbr does not exist/is not available; did you mean eth_blockNumber?',
    );
    expect(disabled.error.message).toBe(
      'the method test_mineBlock does not exist/is not available; did you mean test_mineBlocks? ' +
        '(the test namespace is not enabled on this node: add it to network.rpc.apis, --apis)',
    );
  });

  it('answers -32700 for malformed JSON with HTTP 200', async () => {
    const res = await post(node.url, '{"jsonrpc":"2.0",', { raw: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('answers -32600 for a non-request and for an empty or oversized batch', async () => {
    expect((await post(node.url, 'true', { raw: true })).body).toMatchObject({ id: null, error: { code: -32600 } });
    const empty = await post(node.url, []);
    expect(empty.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid request: empty batch' },
    });
    const big = await post(
      node.url,
      Array.from({ length: 1001 }, (_, i) => request('eth_chainId', [], i)),
    );
    expect(big.body).toMatchObject({ id: null, error: { code: -32600 } });
    expect(big.body.error.message).toMatch(/batch too large: 1001 requests, at most 1000/);
    const max = await post(
      node.url,
      Array.from({ length: 1000 }, (_, i) => request('eth_chainId', [], i)),
    );
    expect(max.body).toHaveLength(1000);
  });

  it('answers -32004 for methods the engine cannot serve yet, without checking their params', async () => {
    const res = await post(node.url, request('iele_call', [42]));
    expect(res.body.error.code).toBe(-32004);
    expect(res.body.error.message).toMatch(/^Method not supported: iele_call/);
  });

  it('refuses WebSocket-only methods over HTTP with -32601 naming WebSocket', async () => {
    const res = await post(node.url, request('eth_subscribe', ['newHeads']));
    expect(res.body.error.code).toBe(-32601);
    expect(res.body.error.message).toMatch(/WebSocket/);
  });

  it('keeps the test namespace off without --testmode', async () => {
    const res = await post(node.url, request('test_mineBlocks', [1]));
    expect(res.body.error.code).toBe(-32601);
  });

  it('returns HTTP 204 with no body for a notification or an all-notification batch', async () => {
    const single = await post(node.url, { jsonrpc: '2.0', method: 'eth_chainId' });
    expect(single.status).toBe(204);
    expect(single.text).toBe('');
    const batch = await post(node.url, [
      { jsonrpc: '2.0', method: 'eth_chainId' },
      { jsonrpc: '2.0', method: 'no_such' },
    ]);
    expect(batch.status).toBe(204);
  });

  it('uses 415 for a non-JSON content type and 413 above the body limit', async () => {
    const form = await post(node.url, request('eth_chainId'), { headers: { 'content-type': 'text/plain' } });
    expect(form.status).toBe(415);
    expect(form.body).toMatchObject({ error: { code: -32600 } });
    const charset = await post(node.url, request('eth_chainId'), {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(charset.body.result).toBe('0x539');
    const huge = await post(node.url, request('web3_sha3', ['0x' + 'ab'.repeat(3 * 1024 * 1024)]));
    expect(huge.status).toBe(413);
  });

  it('serves the health endpoints with the product bodies and status codes', async () => {
    const health = await fetch(node.url + 'health');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ checks: [{ name: 'server', status: 'OK', info: 'running' }] });

    // A dev node with no peer configured is a single-node chain: ready without peers.
    const readiness = await fetch(node.url + 'readiness');
    expect(readiness.status).toBe(200);
    expect(await readiness.json()).toEqual({
      checks: [
        { name: 'peerCount', status: 'OK', info: '0 (single-node dev chain: no peers configured)' },
        { name: 'bestStoredBlock', status: 'OK', info: '0' },
        { name: 'updateStatus', status: 'OK' },
        { name: 'syncStatus', status: 'OK', info: 'STARTING' },
      ],
    });

    const healthcheck = await fetch(node.url + 'healthcheck');
    expect(healthcheck.status).toBe(200);
    const body = (await healthcheck.json()) as { checks: Array<{ name: string }> };
    expect(body.checks.map((c) => c.name)).toEqual([
      'peerCount',
      'bestStoredBlock',
      'bestKnownBlock',
      'bestFetchingBlock',
      'updateStatus',
      'syncStatus',
    ]);
  });

  it('serves the docs portal under /docs/ and redirects /docs', async () => {
    const redirect = await fetch(node.url + 'docs', { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/docs/');
    const traversal = await fetch(node.url + 'docs/..%2fpackage.json');
    expect(traversal.status).toBe(404);
  });
});
