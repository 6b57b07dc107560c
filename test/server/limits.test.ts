/**
 * Every request limit on a real node with the limits set low: each refusal is immediate and names the limit,
 * its value and its setting (issue 14 item 4). Body size (HTTP 413), batch size, WebSocket message size (close
 * 1009), WebSocket requests in flight, debug_* page size; and the eth_call / eth_estimateGas gas cap, which is no
 * refusal: more gas is lowered to it, as in geth.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { WsClient, post, request } from '../helpers/rpc.js';

const ZERO32 = `0x${'00'.repeat(32)}`;
const DEV_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
let node: NodeProcess;

beforeAll(async () => {
  node = await startNode({
    env: {
      SVC_NODE_NETWORK_RPC_HTTP_MAX_BODY_SIZE: '4000',
      SVC_NODE_NETWORK_RPC_MAX_BATCH_SIZE: '5',
      SVC_NODE_NETWORK_RPC_WS_MAX_OUTSTANDING_REQUESTS: '2',
      SVC_NODE_NETWORK_RPC_CALL_GAS_CAP: '100000',
      SVC_NODE_NETWORK_RPC_DEBUG_MAX_RANGE_RESULTS: '10',
    },
  });
}, 60_000);
afterAll(async () => {
  await node?.stop();
});

describe('transport limits', () => {
  it('a body over max-body-size is HTTP 413 naming the size and the setting', async () => {
    const body = JSON.stringify(request('web3_sha3', [`0x${'ab'.repeat(2500)}`]));
    const res = await post(node.url, body, { raw: true });
    expect(res.status).toBe(413);
    expect(res.body.error.message).toMatch(/at most 4000 bytes \(network\.rpc\.http\.max-body-size\)/);
  });

  it('a batch over max-batch-size is -32600 naming both counts and the setting', async () => {
    const res = await post(
      node.url,
      Array.from({ length: 6 }, (_, i) => request('eth_chainId', [], i)),
    );
    expect(res.status).toBe(200);
    expect(res.body.error.code).toBe(-32600);
    expect(res.body.error.message).toMatch(/6 requests, at most 5 allowed \(network\.rpc\.max-batch-size\)/);
    const ok = await post(
      node.url,
      Array.from({ length: 5 }, (_, i) => request('eth_chainId', [], i)),
    );
    expect(ok.body).toHaveLength(5);
  });

  it('a WebSocket message over max-body-size closes the connection with 1009 (message too big)', async () => {
    const socket = new WebSocket(node.wsUrl);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    socket.send(JSON.stringify(request('web3_sha3', [`0x${'ab'.repeat(2500)}`])));
    const { code } = await closed;
    expect(code).toBe(1009);
  });

  it('WebSocket requests in flight beyond max-outstanding-requests are answered -32005 at once, the rest normally', async () => {
    const client = await WsClient.open(node.wsUrl);
    try {
      // Batches are always answered asynchronously, so each one stays in flight until its answer is sent.
      const count = 20;
      for (let i = 0; i < count; i++) client.send([request('eth_blockNumber', [], i)]);
      const answers: any[] = [];
      for (let i = 0; i < count; i++) answers.push(await client.next());
      const refused = answers.flat().filter((a) => a.error?.code === -32005);
      const served = answers.flat().filter((a) => typeof a.result === 'string');
      expect(refused.length).toBeGreaterThan(0);
      expect(served.length).toBeGreaterThanOrEqual(2);
      expect(refused.length + served.length).toBe(count);
      expect(refused[0].error.message).toMatch(/at most 2 \(network\.rpc\.ws\.max-outstanding-requests\)/);
      expect(refused[0].error.data).toEqual({ limit: 2 });
      // The connection is still usable once the backlog is answered.
      expect((await client.call(request('eth_chainId', [], 99))).result).toBe('0x539');
    } finally {
      client.close();
    }
  });
});

describe('execution limits', () => {
  it('eth_call and eth_estimateGas with gas above the cap run with the cap, as geth does (no -32005 to retry)', async () => {
    // An endless loop (JUMPDEST PUSH1 0 JUMP) put in place by a state override: it uses all the gas it is given.
    const loop = '0x000000000000000000000000000000000000100f';
    const endless = [
      { from: DEV_ACCOUNT, to: loop, gas: '0xffffffffffffffff' },
      'latest',
      { [loop]: { code: '0x5b600056' } },
    ];
    for (const method of ['eth_call', 'eth_estimateGas']) {
      for (const gas of ['0x186a1', '0xffffffffffffffff']) {
        const over = await post(node.url, request(method, [{ from: DEV_ACCOUNT, to: DEV_ACCOUNT, gas }]));
        expect(over.body, `${method} ${gas}`).toMatchObject({ result: method === 'eth_call' ? '0x' : '0x5208' });
      }
    }
    const call = await post(node.url, request('eth_call', endless));
    expect(call.body.error).toEqual({ code: -32000, message: 'out of gas' });
    const estimate = await post(node.url, request('eth_estimateGas', endless));
    expect(estimate.body.error).toEqual({ code: -32000, message: 'gas required exceeds allowance (0x186a0)' });
  });

  it('debug_accountRange / debug_storageRangeAt with maxResults above the cap are -32602 naming it', async () => {
    const over = await post(node.url, request('debug_accountRange', ['0x00', 0, ZERO32, 11]));
    expect(over.body.error).toMatchObject({ code: -32602, data: { limit: 10, requested: 11 } });
    expect(over.body.error.message).toMatch(
      /maxResults 11 is above the limit of 10 \(network\.rpc\.debug\.max-range-results\)/,
    );
    const storage = await post(node.url, request('debug_storageRangeAt', ['0x00', 0, DEV_ACCOUNT, ZERO32, '0xb']));
    expect(storage.body.error.code).toBe(-32602);
    const atCap = await post(node.url, request('debug_accountRange', ['0x00', 0, ZERO32, 10]));
    expect(Object.keys(atCap.body.result.accounts ?? atCap.body.result.addressMap ?? {}).length).toBeLessThanOrEqual(
      10,
    );
  });
});
