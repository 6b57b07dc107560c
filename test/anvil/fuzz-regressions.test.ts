/**
 * Inputs the schema-driven fuzzer found answered -32603 (issue 37's fuzz runs): each is the caller's mistake, so
 * each is -32602 with a reason, and the node goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, post, request } from '../helpers/rpc.js';

let node: NodeProcess;

beforeAll(async () => {
  node = await startNode({ args: ['--no-p2p'] });
});

afterAll(async () => {
  await node?.stop();
});

describe('fuzz-found -32603s', () => {
  it('hardhat_reset / anvil_reset with a jsonRpcUrl that starts like a URL but does not parse (seed 403917343)', async () => {
    for (const method of ['hardhat_reset', 'anvil_reset']) {
      const refused = await post(node.url, request(method, [{ forking: { jsonRpcUrl: 'http://[\ud800' } }]));
      expect(refused.body.error.code).toBe(-32602);
      expect(refused.body.error.message).toContain('forking.jsonRpcUrl must be an http(s) URL');
    }
    expect(await call(node.url, 'eth_chainId')).toMatch(/^0x/);
  });
});
