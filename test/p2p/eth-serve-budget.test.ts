/**
 * The per-peer eth serving budget on a real node (issue 37, item 1): a dev node with 1,100 blocks answers a peer
 * that pipelines within its budget in full and in order; a peer that pipelines 1,000 GetBlockHeaders for 1,024
 * headers each (~30 kB on the wire, gigabytes of answers) is disconnected once its queue bound is passed, with
 * the reason in the log, while the node keeps answering RPC, stays small, and stops working once the peer is gone.
 *
 * Memory and CPU are read from /proc/<pid>/status and /proc/<pid>/stat, with generous bounds (the node grew by
 * gigabytes and worked on for tens of seconds before the budget).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as eth from '../../src/p2p/eth/messages.js';
import { EthCode } from '../../src/p2p/eth/messages.js';
import { ETH_QUEUED_PER_PEER, ETH_REQUESTS_PER_PEER } from '../../src/p2p/eth/serve.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { DisconnectReason, type PeerClose, TestPeer } from '../helpers/test-peer.js';
import { call } from './multi-node-fixture.js';

const BLOCKS = 1100;
const HEADERS_PER_REQUEST = 1024;

let node: NodeProcess;
const peers: TestPeer[] = [];

const rssMiB = (pid: number): number => {
  const kb = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return Number(kb?.[1] ?? 0) / 1024;
};
/** CPU seconds the process has used (user + system), from /proc/<pid>/stat (clock ticks of 1/100 s). */
const cpuSeconds = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  node = await startNode({ args: ['--no-mine'], timeoutMs: 60_000 });
  await call(node.url, 'anvil_mine', [`0x${BLOCKS.toString(16)}`]);
  expect(Number(await call<string>(node.url, 'eth_blockNumber'))).toBe(BLOCKS);
}, 120_000);

afterAll(async () => {
  await Promise.all(peers.map((p) => p.destroy().catch(() => undefined)));
  await node?.stop();
});

async function dial(): Promise<TestPeer> {
  const peer = await TestPeer.dial(node.enode!);
  peers.push(peer);
  await peer.nodeStatus;
  return peer;
}

/** Sends GetBlockHeaders 1..count (all from block 0, 1,024 headers each) without waiting for any answer. */
function pipeline(peer: TestPeer, count: number): void {
  for (let i = 1; i <= count; i++)
    peer.send(
      EthCode.GetBlockHeaders,
      eth.encodeGetBlockHeaders({
        requestId: BigInt(i),
        origin: 0n,
        amount: HEADERS_PER_REQUEST,
        skip: 0,
        reverse: false,
      }),
    );
}

const answersOf = (peer: TestPeer) =>
  peer.messages
    .filter((m) => m.protocol === 'eth' && m.code === EthCode.BlockHeaders)
    .map((m) => eth.decodeBlockHeaders(m.payload));

describe('per-peer eth serving budget', () => {
  it('answers a peer that pipelines within its budget in full and in order, RPC answering meanwhile', async () => {
    const peer = await dial();
    // More than are answered at once, so most wait in the queue (answers of 1,024 headers take a while on a loaded machine).
    const count = ETH_REQUESTS_PER_PEER + 15;
    pipeline(peer, count);
    expect(await call(node.url, 'eth_blockNumber')).toBe(`0x${BLOCKS.toString(16)}`);
    await peer.waitForMessage(
      (m) => m.code === EthCode.BlockHeaders && eth.decodeBlockHeaders(m.payload).requestId === BigInt(count),
      `the answer to request ${count}`,
      60_000,
    );
    const answers = answersOf(peer);
    expect(answers.map((a) => Number(a.requestId))).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    for (const answer of answers) expect(answer.headers).toHaveLength(HEADERS_PER_REQUEST);
    expect(peer.isClosed).toBe(false);
    await peer.destroy();
  }, 90_000);

  it('disconnects a peer that pipelines 1,000 GetBlockHeaders past its queue bound; the node stays small and idle', async () => {
    const pid = node.child.pid!;
    const rssBefore = rssMiB(pid);
    const peer = await dial();
    pipeline(peer, 1000);

    // The node must end the link itself: before the budget it never did, and built every answer instead.
    let peakRss = rssBefore;
    const deadline = Date.now() + 30_000;
    while (!peer.isClosed && Date.now() < deadline) {
      peakRss = Math.max(peakRss, rssMiB(pid));
      expect(await call(node.url, 'eth_blockNumber', [], 10_000)).toBe(`0x${BLOCKS.toString(16)}`);
      await sleep(100);
    }
    expect(peer.isClosed, `the node still served the flooding peer after 30 s (RSS ${peakRss} MiB)`).toBe(true);
    const closed: PeerClose = await peer.closed;
    expect(closed).toMatchObject({ reason: DisconnectReason.SUBPROTOCOL_ERROR, byUs: false });

    // What did come before the disconnect came in request order, within the budget.
    const ids = answersOf(peer).map((a) => Number(a.requestId));
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
    expect(ids.length).toBeLessThanOrEqual(ETH_REQUESTS_PER_PEER + ETH_QUEUED_PER_PEER);

    const line = node.logs.find((e) => e.msg === 'p2p peer disconnected' && e.nodeId === peer.nodeId);
    expect(line).toMatchObject({ reason: 'SUBPROTOCOL_ERROR', byUs: true });
    expect(String(line?.detail)).toMatch(/too many requests: more than 64 requests waiting/);

    // Gone peer, no more work: CPU near idle and memory flat over the next 3 s.
    const cpuAtLeave = cpuSeconds(pid);
    for (let i = 0; i < 30; i++) {
      peakRss = Math.max(peakRss, rssMiB(pid));
      await sleep(100);
    }
    const cpuAfter = cpuSeconds(pid) - cpuAtLeave;
    expect(cpuAfter, 'CPU seconds the node used in the 3 s after the peer left').toBeLessThan(1.5);
    expect(peakRss - rssBefore, `RSS grew from ${rssBefore} to ${peakRss} MiB`).toBeLessThan(512);
    expect(await call(node.url, 'eth_blockNumber')).toBe(`0x${BLOCKS.toString(16)}`);
  }, 90_000);
});
