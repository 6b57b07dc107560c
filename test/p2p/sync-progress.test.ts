/**
 * A catch-up as an operator and a dapp see it: a node that joins a peer 400 blocks ahead reports the sync through
 * the `syncing` subscription (started, with the peer's height as highestBlock; then finished), answers
 * eth_syncing false once level, and counts as ready only with the peer it was told about.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { blockAt, call, waitFor } from './multi-node-fixture.js';

const AHEAD = 400;

describe('sync progress', () => {
  let source: NodeProcess;
  let joiner: NodeProcess;

  beforeAll(async () => {
    source = await startNode({ args: ['--no-mine'] });
    await call(source.url, 'qa_mineBlocks', [AHEAD, false]);
    joiner = await startNode({ args: ['--no-mine'] });
  });

  afterAll(async () => {
    await Promise.all([source?.stop(), joiner?.stop()]);
  });

  it('reports the catch-up through the syncing subscription and eth_syncing, and readiness follows the peer rule', async () => {
    // Alone and unconfigured, a dev node is a ready single-node chain.
    expect((await fetch(new URL('/readiness', joiner.url))).status).toBe(200);

    const ws = new WebSocket(joiner.wsUrl);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const notes: Array<{
      syncing: boolean;
      status?: { startingBlock: string; currentBlock: string; highestBlock: string };
    }> = [];
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { method?: string; params?: { result: (typeof notes)[number] } };
      if (msg.method === 'eth_subscription') notes.push(msg.params!.result);
    });
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['syncing'] }));
    await new Promise((resolve) => ws.once('message', resolve));

    expect(await call(joiner.url, 'net_connectToPeer', [source.enode])).toBe(true);
    await waitFor(
      async () => (await blockAt(joiner, 'latest'))!.number === `0x${AHEAD.toString(16)}`,
      'the joiner to reach the source head',
      { source, joiner },
      30_000,
    );
    await waitFor(async () => notes.some((n) => !n.syncing), 'a sync-finished notification', { joiner });
    ws.close();

    const started = notes.find((n) => n.syncing);
    expect(started, JSON.stringify(notes)).toBeDefined();
    expect(started!.status!.highestBlock).toBe(`0x${AHEAD.toString(16)}`);
    expect(started!.status!.startingBlock).toBe('0x0');
    expect(notes.at(-1)).toEqual({ syncing: false });
    expect(await call(joiner.url, 'eth_syncing')).toBe(false);
    expect((await blockAt(joiner, AHEAD))!.hash).toBe((await blockAt(source, AHEAD))!.hash);

    // Told about a peer, it is ready only while that peer is linked.
    expect((await fetch(new URL('/readiness', joiner.url))).status).toBe(200);
    await call(source.url, 'net_addToBlacklist', [joiner.enode!.slice(8, 136), 60, 'test: cut the link']);
    await waitFor(async () => (await call<string>(joiner.url, 'net_peerCount')) === '0x0', 'the link to go', {
      joiner,
    });
    const readiness = await fetch(new URL('/readiness', joiner.url));
    expect(readiness.status).toBe(503);
    expect(JSON.stringify(await readiness.json())).toContain('peer count is 0');
  });
});
