/**
 * `npx tsx bench/eth-request-flood.ts` (after `node bin/build.js`): what one eth peer that pipelines requests costs
 * the node (issue 37, item 1). A dev node (the bundle, as `svc-node` runs it) mines FLOOD_BLOCKS blocks (1,100),
 * a scripted devp2p peer (test/helpers/test-peer.ts) completes the handshake and sends FLOOD_REQUESTS (1,000)
 * GetBlockHeaders for 1,024 headers each in one go (~30 kB on the wire), then reads whatever comes back for
 * FLOOD_HOLD_MS (10 s) and leaves. The node's VmRSS (/proc/<pid>/status) is sampled every 200 ms throughout
 * and for FLOOD_AFTER_MS (10 s) after the peer left; `eth_blockNumber` is timed meanwhile.
 *
 * Prints one JSON line: RSS at start, the peak while the peer was connected, the RSS at the end, answers received
 * (and whether in request order), how the link ended, and the slowest eth_blockNumber. Loopback only; the node is
 * stopped at the end.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as eth from '../src/p2p/eth/messages.js';
import { EthCode } from '../src/p2p/eth/messages.js';
import { startNode } from '../test/helpers/node-process.js';
import { call } from '../test/helpers/rpc.js';
import { TestPeer } from '../test/helpers/test-peer.js';

const BLOCKS = Number(process.env.FLOOD_BLOCKS ?? 1100);
const REQUESTS = Number(process.env.FLOOD_REQUESTS ?? 1000);
const HOLD_MS = Number(process.env.FLOOD_HOLD_MS ?? 10_000);
const AFTER_MS = Number(process.env.FLOOD_AFTER_MS ?? 10_000);

const rssMiB = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line === null ? 0 : Math.round(Number(line[1]) / 1024);
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const node = await startNode({ args: ['--p2p', '--no-mine'], timeoutMs: 60_000 });
const pid = node.child.pid!;
try {
  await call(node.url, 'anvil_mine', [`0x${BLOCKS.toString(16)}`]);
  const head = Number(await call<string>(node.url, 'eth_blockNumber'));
  await sleep(1000);
  const startRss = rssMiB(pid);

  const peer = await TestPeer.dial(node.enode!);
  await peer.nodeStatus;
  await sleep(500);
  let peakConnected = startRss;
  let slowestRpcMs = 0;
  let rpcFailures = 0;
  const sample = async (until: number) => {
    while (performance.now() < until) {
      peakConnected = Math.max(peakConnected, rssMiB(pid));
      const t0 = performance.now();
      try {
        await call(node.url, 'eth_blockNumber', [], 5_000);
      } catch {
        rpcFailures++;
      }
      slowestRpcMs = Math.max(slowestRpcMs, performance.now() - t0);
      await sleep(200);
    }
  };
  for (let i = 1; i <= REQUESTS; i++)
    peer.send(
      EthCode.GetBlockHeaders,
      eth.encodeGetBlockHeaders({ requestId: BigInt(i), origin: 0n, amount: 1024, skip: 0, reverse: false }),
    );
  await sample(performance.now() + HOLD_MS);
  const answers = peer.messages
    .filter((m) => m.protocol === 'eth' && m.code === EthCode.BlockHeaders)
    .map((m) => eth.decodeBlockHeaders(m.payload).requestId);
  const inOrder = answers.every((id, i) => id === BigInt(i + 1));
  const closedByNode = peer.isClosed ? await peer.closed : undefined;
  await peer.destroy();
  const leftAt = performance.now();
  const peakRssMiB = peakConnected;
  let peakAfter = rssMiB(pid);
  const rpcBefore = slowestRpcMs;
  slowestRpcMs = 0;
  while (performance.now() - leftAt < AFTER_MS) {
    peakAfter = Math.max(peakAfter, rssMiB(pid));
    await sleep(200);
  }
  const endRss = rssMiB(pid);
  console.log(
    JSON.stringify({
      head,
      requests: REQUESTS,
      startRssMiB: startRss,
      peakRssMiBWhileConnected: peakRssMiB,
      peakRssMiBAfterLeaving: peakAfter,
      rssMiBTenSecondsAfter: endRss,
      answers: answers.length,
      answersInOrder: inOrder,
      linkEnded: closedByNode ?? 'still open (the test peer left)',
      slowestEthBlockNumberMs: Math.round(rpcBefore),
      rpcFailures,
    }),
  );
} finally {
  await node.stop();
}
