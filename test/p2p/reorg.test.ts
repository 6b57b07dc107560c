/**
 * A reorganisation that arrives over the wire: two dev nodes on the same genesis, no peers, each mining its own
 * chain (A more blocks than B, so A's chain is heavier at the dev chain's fixed difficulty). B emits a contract
 * event on its chain while a WebSocket client is subscribed to it. Then B is linked to A with net_connectToPeer:
 * B must switch to A's chain (same head hash) and the subscriber must get that log again with `removed: true`;
 * B's /metrics counts the switch and the blocks it replaced, A's counts none. A, a dev node with no peers of its
 * own to dial, is ready alone at first, but once B has peered with it and gone, A is not ready.
 */
import { ContractFactory, Interface } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { WsClient } from '../rpc/logs-fixture.js';
import { Counter } from '../rpc/contracts.js';
import { blockAt, blockNumberOf, call, peerCountOf, waitFor } from './multi-node-fixture.js';

let nodeA: NodeProcess;
let nodeB: NodeProcess;
let subscriber: WsClient | undefined;

beforeAll(async () => {
  // Dev defaults: no static peers, the miner seals each transaction as it arrives.
  [nodeA, nodeB] = await Promise.all([startNode({ timeoutMs: 60_000 }), startNode({ timeoutMs: 60_000 })]);
}, 90_000);

afterAll(async () => {
  subscriber?.close();
  await Promise.all([nodeA, nodeB].filter(Boolean).map((node) => node.stop()));
});

type Receipt = { blockHash: string; blockNumber: string; contractAddress: string | null; status: string } | null;

/** eth_sendTransaction on an automining dev node answers once the block is sealed: the receipt is there. */
async function send(node: NodeProcess, tx: Record<string, string>): Promise<NonNullable<Receipt>> {
  const hash = await call<string>(node.url, 'eth_sendTransaction', [tx]);
  const receipt = await call<Receipt>(node.url, 'eth_getTransactionReceipt', [hash]);
  expect(receipt, `receipt of ${hash}`).not.toBeNull();
  expect(receipt!.status).toBe('0x1');
  return receipt!;
}

/** The chain reorganisation counters of a node's /metrics. */
async function reorgMetrics(node: NodeProcess): Promise<{ reorgs: number; droppedBlocks: number }> {
  const metrics = parsePrometheusText(await (await fetch(new URL('/metrics', node.url))).text());
  return {
    reorgs: sampleValue(metrics, 'svc_chain_reorgs_total') ?? Number.NaN,
    droppedBlocks: sampleValue(metrics, 'svc_chain_reorg_dropped_blocks_total') ?? Number.NaN,
  };
}

const readiness = async (node: NodeProcess) => {
  const res = await fetch(new URL('/readiness', node.url));
  const { checks } = (await res.json()) as { checks: Array<{ name: string; status: string; info?: string }> };
  return { status: res.status, peerCount: checks.find((c) => c.name === 'peerCount') };
};

describe('reorg over devp2p', () => {
  it('switches the lighter node to the heavier chain and sends its removed logs to subscribers', async () => {
    const nodes = { nodeA, nodeB };
    expect([await peerCountOf(nodeA), await peerCountOf(nodeB)]).toEqual([0, 0]);
    const genesisA = (await blockAt(nodeA, 0))!.hash;
    expect((await blockAt(nodeB, 0))!.hash).toBe(genesisA);

    // B's own chain: deploy Counter, subscribe to its logs, emit Incremented.
    const deployer = DEV_ACCOUNTS[0].address;
    const deploy = await new ContractFactory(Counter.abi, Counter.bytecode).getDeployTransaction(41n);
    const deployed = await send(nodeB, { from: deployer, data: deploy.data });
    const contract = deployed.contractAddress!;
    subscriber = await WsClient.open(nodeB.wsUrl);
    const subscription = (await subscriber.call('eth_subscribe', ['logs', { address: contract }])).result as string;
    expect(subscription).toMatch(/^0x[0-9a-f]+$/);
    const data = new Interface(Counter.abi).encodeFunctionData('increment', [5n]);
    const incremented = await send(nodeB, { from: deployer, to: contract, data });
    await waitFor(async () => subscriber!.of(subscription).length >= 1, 'the Incremented log on B', nodes, 10_000);
    const [emitted] = subscriber.of(subscription);
    expect(emitted).toMatchObject({ address: contract, blockHash: incremented.blockHash, removed: false });

    // A's chain: more blocks than B's (transfers from an account B never used), so more total difficulty.
    const heightB = await blockNumberOf(nodeB);
    for (let i = 0; i < heightB + 3; i++)
      await send(nodeA, { from: DEV_ACCOUNTS[3].address, to: DEV_ACCOUNTS[4].address, value: '0x1' });
    // Both miners stop, so the heads only move by sync: B's re-queued transactions are not sealed again after
    // the switch, and both heads can be compared exactly.
    expect(await call(nodeA.url, 'miner_stop')).toBe(true);
    expect(await call(nodeB.url, 'miner_stop')).toBe(true);
    const headA = (await blockAt(nodeA, 'latest'))!;
    const headB = (await blockAt(nodeB, 'latest'))!;
    expect(Number(headA.number)).toBeGreaterThan(Number(headB.number));
    expect(BigInt(headA.totalDifficulty)).toBeGreaterThan(BigInt(headB.totalDifficulty));
    expect(await reorgMetrics(nodeB)).toEqual({ reorgs: 0, droppedBlocks: 0 });
    expect(await readiness(nodeA)).toMatchObject({ status: 200, peerCount: { status: 'OK' } });

    expect(await call(nodeB.url, 'net_connectToPeer', [nodeA.enode])).toBe(true);
    await waitFor(
      async () => (await blockAt(nodeB, 'latest'))!.hash === headA.hash,
      "B's head to become A's head",
      nodes,
      30_000,
      async () => {
        const head = (await blockAt(nodeB, 'latest'))!;
        return `A's head ${Number(headA.number)} ${headA.hash}; B's head ${Number(head.number)} ${head.hash}`;
      },
    );
    // A kept its chain; B's block with the log is no longer canonical there.
    expect((await blockAt(nodeA, 'latest'))!.hash).toBe(headA.hash);
    expect((await blockAt(nodeB, Number(incremented.blockNumber)))!.hash).not.toBe(incremented.blockHash);
    expect(await call(nodeB.url, 'eth_getTransactionReceipt', [emitted.transactionHash])).toBeNull();
    // One switch on B, replacing every block B had mined (the chains share only the genesis); none on A.
    expect(await reorgMetrics(nodeB)).toEqual({ reorgs: 1, droppedBlocks: Number(headB.number) });
    expect(await reorgMetrics(nodeA)).toEqual({ reorgs: 0, droppedBlocks: 0 });

    await waitFor(
      async () => subscriber!.of(subscription).some((log) => log.removed === true),
      'the removed log on B',
      nodes,
      10_000,
      async () => `notifications: ${JSON.stringify(subscriber!.of(subscription))}`,
    );
    const removed = subscriber.of(subscription).filter((log) => log.removed === true);
    expect(removed).toEqual([{ ...emitted, removed: true }]);

    // B leaves: A lost the network it was part of, and its readiness says so (the single-node exception is gone).
    await nodeB.stop();
    await waitFor(
      async () => (await readiness(nodeA)).status === 503,
      "A's readiness to fail without B",
      { nodeA },
      20_000,
    );
    expect((await readiness(nodeA)).peerCount).toMatchObject({
      status: 'ERROR',
      info: expect.stringMatching(/^peer count is 0/),
    });
  }, 60_000);
});
