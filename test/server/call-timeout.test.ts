/**
 * `network.rpc.call.timeout` (issue 14 item 4): an eth_call / eth_estimateGas of a contract that loops for
 * ever, under a gas cap high enough that gas would stop it only after minutes, is stopped at the time limit
 * and answered -32005 naming the limit, its value and its setting; the node keeps serving calls afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

const DEV_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
/** Init code returning the runtime `JUMPDEST PUSH1 0 JUMP` (5b600056): an endless loop at 8 gas a turn... */
const LOOP_DEPLOY = '0x6004600c60003960046000f35b600056';
/** 2,000,000,000 gas of that loop: about two minutes of execution here. */
const HIGH_GAS = '0x77359400';
let node: NodeProcess;
let loop: string;

const call = async (method: string, params: unknown[]) => (await post(node.url, request(method, params))).body;

beforeAll(async () => {
  node = await startNode({
    args: ['--no-p2p'],
    env: { SVC_NODE_NETWORK_RPC_CALL_GAS_CAP: '2000000000', SVC_NODE_NETWORK_RPC_CALL_TIMEOUT: '1s' },
  });
  const sent = await call('eth_sendTransaction', [{ from: DEV_ACCOUNT, data: LOOP_DEPLOY, gas: '0x30000' }]);
  const receipt = (await call('eth_getTransactionReceipt', [sent.result])).result;
  expect(receipt.status).toBe('0x1');
  loop = receipt.contractAddress;
}, 60_000);
afterAll(async () => {
  await node?.stop();
});

describe('eth_call / eth_estimateGas time limit', () => {
  it('an endless loop under a high gas cap is stopped at the limit and answered -32005 naming it', async () => {
    const began = Date.now();
    const answer = await call('eth_call', [{ to: loop, gas: HIGH_GAS }, 'latest']);
    const took = Date.now() - began;
    expect(answer.error.code).toBe(-32005);
    expect(answer.error.message).toBe(
      'eth_call: execution aborted after the time limit of 1s (network.rpc.call.timeout)',
    );
    expect(answer.error.data).toEqual({ limit: 1000 });
    expect(took).toBeLessThan(10_000);
  });

  it('eth_estimateGas: the whole search shares one limit', async () => {
    const began = Date.now();
    const answer = await call('eth_estimateGas', [{ from: DEV_ACCOUNT, to: loop, gas: HIGH_GAS }]);
    expect(answer.error.code).toBe(-32005);
    expect(answer.error.message).toBe(
      'eth_estimateGas: execution aborted after the time limit of 1s (network.rpc.call.timeout)',
    );
    expect(Date.now() - began).toBeLessThan(10_000);
  });

  it('the node keeps serving calls, and a call within the limit runs to its end', async () => {
    // The same loop with little gas ends in "out of gas" well within the limit.
    const short = await call('eth_call', [{ to: loop, gas: '0x100000' }, 'latest']);
    expect(short.error.message).toMatch(/out of gas/);
    const identity = await call('eth_call', [
      { to: '0x0000000000000000000000000000000000000004', data: '0x1234' },
      'latest',
    ]);
    expect(identity.result).toBe('0x1234');
    expect((await call('eth_blockNumber', [])).result).toMatch(/^0x/);
  });
});

describe('eth_sendTransaction without gas', () => {
  it('estimates under the same limit, answers -32005 naming the method, and sends nothing', async () => {
    // The estimate of the loop against the block gas limit takes about a second here: a 50 ms limit stops it.
    const strict = await startNode({ args: ['--no-p2p'], env: { SVC_NODE_NETWORK_RPC_CALL_TIMEOUT: '50ms' } });
    try {
      const rpc = async (method: string, params: unknown[]) => (await post(strict.url, request(method, params))).body;
      const sent = await rpc('eth_sendTransaction', [{ from: DEV_ACCOUNT, data: LOOP_DEPLOY, gas: '0x30000' }]);
      const target = (await rpc('eth_getTransactionReceipt', [sent.result])).result.contractAddress;
      const nonce = (await rpc('eth_getTransactionCount', [DEV_ACCOUNT, 'pending'])).result;
      const answer = await rpc('eth_sendTransaction', [{ from: DEV_ACCOUNT, to: target }]);
      expect(answer.error).toEqual({
        code: -32005,
        message: 'eth_sendTransaction: execution aborted after the time limit of 50 ms (network.rpc.call.timeout)',
        data: { limit: 50 },
      });
      expect((await rpc('eth_getTransactionCount', [DEV_ACCOUNT, 'pending'])).result).toBe(nonce);
    } finally {
      await strict.stop();
    }
  }, 60_000);
});
