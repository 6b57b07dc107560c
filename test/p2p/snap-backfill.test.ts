/**
 * History below the snap pivot, end to end. A dev miner holds blocks with transactions and logs under a run of
 * empty blocks; a fresh `--sync snap` node snap-syncs from it and is killed (SIGKILL) the moment it hands over.
 * Restarted with a lying peer as its only peer, it answers -32000 for blocks whose bodies and receipts it does not
 * hold (never an empty block), reports the backfill in eth_syncing, and drops the liar, which serves true bodies
 * but made-up receipts. Restarted once more with the miner as its peer, it backfills every block and answers
 * eth_getBlockByNumber (full transactions), eth_getTransactionByHash, eth_getTransactionReceipt, eth_getLogs and
 * eth_getBlockReceipts below its pivot exactly as the miner does.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import * as eth from '../../src/p2p/eth/messages.js';
import { EthCode, type RawBody } from '../../src/p2p/eth/messages.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { RpcCallError } from '../helpers/rpc.js';
import { newPeerKey, type ReceivedMessage, type TestPeer, TestPeerListener } from '../helpers/test-peer.js';
import { call, datadirWithStaticPeers, waitFor } from './multi-node-fixture.js';

const PIVOT_DISTANCE = 8;
const SNAP_ARGS = ['--no-mine', '--sync', 'snap', '--sync.pivot-distance', String(PIVOT_DISTANCE)];
/** Empty blocks mined over the transactions, so the backfill spans several requests. */
const EMPTY_BLOCKS = 600;
const hexOf = (n: number | bigint) => `0x${n.toString(16)}`;
const started: NodeProcess[] = [];
let miner: NodeProcess;
const txHashes: string[] = [];

/** Init code that emits LOG1(topic = k) with 32 bytes of data and deploys no code. */
const loggingInit = (k: number) => `0x602a6000527f${k.toString(16).padStart(64, '0')}60206000a100`;

async function start(args: string[], env?: NodeJS.ProcessEnv): Promise<NodeProcess> {
  const node = await startNode({ args, ...(env ? { env } : {}), timeoutMs: 60_000 });
  started.push(node);
  return node;
}

async function killed(node: NodeProcess): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  const exited = new Promise((resolve) => node.child.once('exit', resolve));
  node.child.kill('SIGKILL');
  await exited;
}

/** The JSON-RPC error a call ends with (the test fails if it answers). */
async function errorOf(node: NodeProcess, method: string, params: unknown[]): Promise<RpcCallError> {
  const answer = await call(node.url, method, params).then(
    (result) => ({ result }),
    (err: unknown) => err,
  );
  if (!(answer instanceof RpcCallError)) throw new Error(`${method} answered ${JSON.stringify(answer)}`);
  return answer;
}

const hexOfBytes = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const fromHex = (h: string) => Uint8Array.from(Buffer.from(h.slice(2), 'hex'));

/** Headers it answers empty (a peer may lack them); bodies and receipts as `bodies` and `receipts` make them. */
function historyLiar(
  bodies: (hashes: Uint8Array[]) => Promise<RawBody[]>,
  receipts: (hashes: Uint8Array[]) => Promise<unknown[][]>,
): (message: ReceivedMessage, peer: TestPeer) => void {
  return (message, peer) => {
    if (message.protocol !== 'eth') return;
    if (message.code === EthCode.GetBlockHeaders) {
      const requestId = eth.decodeGetBlockHeaders(message.payload).requestId;
      peer.send(EthCode.BlockHeaders, eth.encodeBlockHeaders(requestId, []));
    } else if (message.code === EthCode.GetBlockBodies) {
      const { requestId, hashes } = eth.decodeGetBlockBodies(message.payload);
      void bodies(hashes)
        .then((b) => peer.send(EthCode.BlockBodies, eth.encodeBlockBodies(requestId, b)))
        .catch(() => undefined);
    } else if (message.code === EthCode.GetReceipts) {
      const { requestId, hashes } = eth.decodeGetReceipts(message.payload);
      void receipts(hashes)
        .then((r) => peer.send(EthCode.Receipts, eth.encodeReceipts(requestId, r as eth.RawReceipt[][])))
        .catch(() => undefined);
    }
  };
}

/** The miner's true bodies. */
const trueBodies = (hashes: Uint8Array[]) =>
  Promise.all(
    hashes.map(async (h) => {
      const raw = await call<string>(miner.url, 'debug_getRawBlock', [hexOfBytes(h)]);
      const [, txs, uncles] = RLP.decode(fromHex(raw)) as unknown as [unknown, RawBody['txs'], RawBody['uncles']];
      return { txs, uncles };
    }),
  );

/** The miner's receipts with every transaction's status turned to failure (count, gas and logs kept). */
const failedReceipts = (hashes: Uint8Array[]) =>
  Promise.all(
    hashes.map(async (h) => {
      const raws = await call<string[]>(miner.url, 'debug_getRawReceipts', [hexOfBytes(h)]);
      return raws.map((raw) => {
        const fields = RLP.decode(fromHex(raw)) as Uint8Array[];
        return [new Uint8Array(0), ...fields.slice(1)];
      });
    }),
  );

/**
 * A body with one transaction that does not decode for every block below the pivot asked (the history), the true
 * one for the others (full sync reads the head's body from a peer that claims it, and would drop the liar first).
 */
const garbageBodies = (below: number) => async (hashes: Uint8Array[]) => {
  const truth = await trueBodies(hashes);
  const numbers = await Promise.all(
    hashes.map((h) => call<{ number: string }>(miner.url, 'eth_getBlockByHash', [hexOfBytes(h), false])),
  );
  const garbage = { txs: [Uint8Array.of(0x01, 0xc3, 0x01, 0x02)], uncles: [] } as unknown as RawBody;
  return truth.map((body, i) => (Number(numbers[i]!.number) < below ? garbage : body));
};

beforeAll(async () => {
  miner = await start(['--datadir', datadirWithStaticPeers([])], { SVC_NODE_MINING_BLOCK_TIME: '1s' });
  const from = DEV_ACCOUNTS[0]!.address;
  for (let k = 1; k <= 4; k++) {
    txHashes.push(
      await call<string>(miner.url, 'eth_sendTransaction', [{ from, data: loggingInit(k), gas: '0x30000' }]),
    );
    txHashes.push(
      await call<string>(miner.url, 'eth_sendTransaction', [{ from, to: `0x${'7'.repeat(39)}${k}`, value: '0x1' }]),
    );
  }
  await waitFor(
    async () => (await call(miner.url, 'eth_getTransactionReceipt', [txHashes.at(-1)])) !== null,
    'the transactions to be mined',
    { miner },
  );
  await call(miner.url, 'qa_mineBlocks', [EMPTY_BLOCKS]);
}, 120_000);

afterAll(async () => {
  await Promise.all(started.map((node) => node.stop()));
});

describe('history below the snap pivot', () => {
  it('is answered -32000 until backfilled, a liar is dropped, then every block reads as on the serving node', async () => {
    const datadir = datadirWithStaticPeers([miner.enode!]);
    const first = await start(['--datadir', datadir, ...SNAP_ARGS]);
    // Killed the moment the handover is logged: the snap base is stored, the history below it (mostly) is not.
    first.child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('"snap sync done"')) first.child.kill('SIGKILL');
    });
    await waitFor(async () => first.child.signalCode !== null, 'the handover (and the kill)', { first }, 120_000);
    await killed(first);
    const pivot = Number(first.logs.find((l) => l.msg === 'snap sync done')?.pivot);
    expect(pivot).toBeGreaterThan(EMPTY_BLOCKS);

    // Only liars to backfill from: one sends bodies that are not the blocks', the other true bodies with receipts
    // whose status was changed. Both are dropped; what they sent right (empty blocks) may be kept, nothing else.
    const liars = [
      new TestPeerListener(newPeerKey().privateKey, { onMessage: historyLiar(garbageBodies(pivot), failedReceipts) }),
      new TestPeerListener(newPeerKey().privateKey, { onMessage: historyLiar(trueBodies, failedReceipts) }),
    ];
    let lying: NodeProcess;
    try {
      for (const liar of liars) await liar.start();
      writeFileSync(join(datadir, 'static-nodes.json'), JSON.stringify(liars.map((l) => l.enode)));
      lying = await start(['--datadir', datadir, ...SNAP_ARGS]);
      const dropped = () => lying.logs.filter((l) => l.msg === 'p2p peer dropped for a bad block or answer');
      await waitFor(async () => dropped().length === 2, 'both liars to be dropped', { lying }, 120_000);
      expect(
        dropped()
          .map((l) => l.reason)
          .sort(),
      ).toEqual([
        expect.stringMatching(/^history backfill: sent body \d+ that matches none of the headers asked for/),
        expect.stringMatching(/^history backfill: sent receipts that match none of the blocks .* have root 0x/),
      ]);
      const blocked = await call<{ id: string }[]>(lying.url, 'net_listBlacklistedPeers', []);
      expect(blocked.map((b) => b.id)).toEqual(expect.arrayContaining(liars.map((l) => l.nodeId)));
    } finally {
      for (const liar of liars) await liar.close();
    }
    const notHeld =
      /-32000 body and receipts of block \d+ are not held yet: history below the snap pivot \d+ is being backfilled/;
    // A block with a transaction: the miner's first block can be empty (its block time may pass before the first send),
    // and an empty block's true body and (no) receipts from the second liar are rightly kept.
    const withTx = (await call<{ blockNumber: string }>(miner.url, 'eth_getTransactionReceipt', [txHashes[0]]))
      .blockNumber;
    const block = await errorOf(lying, 'eth_getBlockByNumber', [withTx, true]);
    expect([block.code, block.message]).toEqual([-32000, expect.stringMatching(notHeld)]);
    expect((await errorOf(lying, 'eth_getBlockReceipts', [withTx])).code).toBe(-32000);
    expect((await errorOf(lying, 'eth_getBlockTransactionCountByNumber', [withTx])).code).toBe(-32000);
    const logs = await errorOf(lying, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: hexOf(pivot) }]);
    expect([logs.code, logs.message]).toEqual([-32000, expect.stringMatching(notHeld)]);
    const filter = await call<string>(lying.url, 'eth_newFilter', [{ fromBlock: '0x0', toBlock: hexOf(pivot) }]);
    expect((await errorOf(lying, 'eth_getFilterLogs', [filter])).message).toMatch(notHeld);
    expect(await call(lying.url, 'eth_getTransactionReceipt', [txHashes[0]])).toBeNull();
    const syncing = await call<{ backfilledBlocks: string; backfillTarget: string }>(lying.url, 'eth_syncing', []);
    expect(Number(syncing.backfillTarget)).toBe(pivot);
    // The empty blocks the second liar served truly were kept (each run checked and stored with the cursor).
    const backfilled = Number(syncing.backfilledBlocks);
    expect(backfilled).toBeGreaterThan(0);
    expect(backfilled).toBeLessThan(pivot);
    const mcp = await call<{ structuredContent: Record<string, unknown> }>(lying.url, 'tools/call', [
      { name: 'mcp_sync_status', arguments: {} },
    ]);
    expect(mcp.structuredContent).toMatchObject({ pivotBlock: pivot, backfillTarget: pivot });
    await killed(lying);

    // With the miner back as its peer it backfills everything and answers as the miner does.
    writeFileSync(join(datadir, 'static-nodes.json'), JSON.stringify([miner.enode]));
    const fresh = await start(['--datadir', datadir, ...SNAP_ARGS]);
    const done = () => fresh.logs.find((l) => l.msg === 'history backfill done');
    await waitFor(async () => done() !== undefined, 'history backfill done', { fresh, miner }, 120_000);
    // Killed and restarted, it went on from its cursor, not from the pivot.
    const resumed = fresh.logs.find((l) => l.msg === 'history backfill started');
    expect(resumed?.heldFrom).toBe(String(pivot - backfilled + 1));
    // Full sync may still be taking the miner's newest block: wait for it, the backfill is not in the answer.
    await waitFor(
      async () => (await call(fresh.url, 'eth_syncing', [])) === false,
      'eth_syncing false',
      { fresh },
      30_000,
    );
    const both = (method: string, params: unknown[]) =>
      Promise.all([fresh, miner].map((n) => call(n.url, method, params)));
    for (let n = 1; n <= pivot; n += n < 40 ? 1 : 37) {
      const [ours, theirs] = await both('eth_getBlockByNumber', [hexOf(n), true]);
      expect(ours, `block ${n}`).toEqual(theirs);
    }
    for (const hash of txHashes) {
      for (const method of ['eth_getTransactionByHash', 'eth_getTransactionReceipt']) {
        const [ours, theirs] = await both(method, [hash]);
        expect(theirs).not.toBeNull();
        expect(ours, `${method} ${hash}`).toEqual(theirs);
      }
    }
    const range = { fromBlock: '0x0', toBlock: hexOf(pivot) };
    const [ourLogs, theirLogs] = await both('eth_getLogs', [range]);
    expect((theirLogs as unknown[]).length).toBe(4);
    expect(ourLogs).toEqual(theirLogs);
    const [ourTopic, theirTopic] = await both('eth_getLogs', [{ ...range, topics: [`0x${'0'.repeat(63)}3`] }]);
    expect(ourTopic).toEqual(theirTopic);
    const receiptBlock = (theirLogs as { blockNumber: string }[])[0]!.blockNumber;
    const [ourReceipts, theirReceipts] = await both('eth_getBlockReceipts', [receiptBlock]);
    expect(ourReceipts).toEqual(theirReceipts);
  }, 360_000);
});
