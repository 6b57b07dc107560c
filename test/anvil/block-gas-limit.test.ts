/**
 * evm_setBlockGasLimit moves the pool's admission with the blocks: a transaction is admitted exactly when the next
 * block can hold it. Raised above the head's limit, a transaction that needs more gas than the head allows is taken
 * and mined in a block with the new limit; lowered, one above the new limit is refused at once ("exceeds block gas
 * limit", as Anvil answers) instead of waiting in the pool for a block that can never hold it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, post, request } from '../helpers/rpc.js';

const BOB = '0x4444444444444444444444444444444444444444';
const hex = (n: bigint) => `0x${n.toString(16)}`;

let node: NodeProcess;
let from: string;

beforeAll(async () => {
  node = await startNode({ args: ['--no-p2p'] });
  [from] = await call<string[]>(node.url, 'eth_accounts');
});

afterAll(async () => {
  await node?.stop();
});

/** Sends 1 wei to BOB with `gas`, and answers the block that holds it. */
async function mined(gas: bigint): Promise<{ gasLimit: string; number: string }> {
  const hash = await call<string>(node.url, 'eth_sendTransaction', [{ from, to: BOB, value: '0x1', gas: hex(gas) }]);
  const receipt = await call(node.url, 'eth_getTransactionReceipt', [hash]);
  expect(receipt.status).toBe('0x1');
  return call(node.url, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
}

describe('evm_setBlockGasLimit and the pool', () => {
  it('admits a transaction above the head gas limit once the limit is raised, and mines it under the new one', async () => {
    const head = await call(node.url, 'eth_getBlockByNumber', ['latest', false]);
    const raised = BigInt(head.gasLimit) + 10_000_000n;
    expect(await call(node.url, 'evm_setBlockGasLimit', [hex(raised)])).toBe(true);
    const block = await mined(BigInt(head.gasLimit) + 1_000_000n);
    expect(BigInt(block.gasLimit)).toBe(raised);
  });

  it('refuses a transaction above a lowered limit at admission, and mines one under it', async () => {
    const lowered = 100_000n;
    expect(await call(node.url, 'evm_setBlockGasLimit', [hex(lowered)])).toBe(true);
    const refused = await post(
      node.url,
      request('eth_sendTransaction', [{ from, to: BOB, value: '0x1', gas: hex(lowered + 1n) }]),
    );
    expect(refused.body.error?.message).toMatch(/exceeds block gas limit/);
    expect(refused.body.error.message).toContain(`${lowered}`);
    const block = await mined(21_000n);
    expect(BigInt(block.gasLimit)).toBe(lowered);
    expect(await call(node.url, 'txpool_status')).toEqual({ pending: '0x0', queued: '0x0' });
  });
});
