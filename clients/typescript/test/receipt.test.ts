/** waitForReceipt against a real dev node (miner off, so the receipt appears only once the test mines a block). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../../../test/helpers/node-process.js';
import {
  createClient,
  httpTransport,
  ReceiptTimeoutError,
  RpcClientError,
  waitForReceipt,
  type RpcClient,
} from '../src/index.js';

const DEV_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

let node: NodeProcess;
let client: RpcClient;
beforeAll(async () => {
  node = await startNode({ args: ['--no-mine', '--no-p2p'] });
  client = createClient(httpTransport(node.url));
});
afterAll(() => node?.stop());

/** The client, counting the receipt polls the helper makes. */
function counted(): { polls: () => number; client: Pick<RpcClient, 'eth_getTransactionReceipt'> } {
  let polls = 0;
  return {
    polls: () => polls,
    client: {
      eth_getTransactionReceipt: (...params) => {
        polls++;
        return client.eth_getTransactionReceipt(...params);
      },
    },
  };
}

describe('waitForReceipt', () => {
  it('polls until the transaction is mined and returns its receipt', async () => {
    const hash = await client.eth_sendTransaction({ from: DEV_ACCOUNT, to: OTHER, value: '0x1' });
    expect(await client.eth_getTransactionReceipt(hash)).toBeNull(); // pending: the miner is off
    const counter = counted();
    const waiting = waitForReceipt(counter.client, hash, { intervalMs: 50, timeoutMs: 30_000 });
    // Mined only once the helper has polled twice and seen nothing (a fixed pause gave one poll under load).
    while (counter.polls() < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    await client.qa_mineBlocks(1);
    const receipt = await waiting;
    expect(receipt).toMatchObject({ transactionHash: hash, status: '0x1', to: OTHER, gasUsed: '0x5208' });
    expect(counter.polls()).toBeGreaterThan(1);
  });

  it('gives up after the timeout with an error naming the transaction', async () => {
    const unknown = `0x${'ab'.repeat(32)}` as const;
    const counter = counted();
    const started = Date.now();
    const error = await waitForReceipt(counter.client, unknown, { timeoutMs: 1_500, intervalMs: 50 }).catch(
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(error).toBeInstanceOf(ReceiptTimeoutError);
    expect(error).toMatchObject({ transactionHash: unknown, timeoutMs: 1_500 });
    expect((error as Error).message).toMatch(new RegExp(`no receipt for transaction ${unknown} after 1500 ms`));
    expect((error as ReceiptTimeoutError).polls).toBe(counter.polls());
    expect(counter.polls()).toBeGreaterThanOrEqual(2); // at least one pause between two polls
  });

  it('stops at once on an error the node answers', async () => {
    const counter = counted();
    const error = await waitForReceipt(counter.client, '0x12', { timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcClientError);
    expect(error).toMatchObject({ code: -32602 });
    expect(counter.polls()).toBe(1);
  });
});
