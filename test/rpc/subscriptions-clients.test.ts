/**
 * What dapps do: viem `watchContractEvent` and ethers v6 `contract.on`, each over HTTP polling (filters)
 * and over WebSocket subscriptions, all watching one contract while a burst of 200 transactions is
 * mined by the dev miner. Every watcher must receive all 200 events in order, exactly once.
 */
import { Contract, JsonRpcProvider, WebSocketProvider } from 'ethers';
import { createPublicClient, defineChain, http, webSocket, type Log } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addToPool,
  deployEmitter,
  hex,
  pingAbi,
  pingTx,
  startInProcessNode,
  until,
  type InProcessNode,
} from './logs-fixture.js';

const BURST = 200;
let node: InProcessNode;
let emitter: `0x${string}`;

beforeAll(async () => {
  node = await startInProcessNode({ mine: true });
  emitter = hex(await deployEmitter(node.engine));
});

afterAll(async () => {
  await node?.stop();
});

describe('a burst of 200 event transactions', () => {
  it('reaches viem and ethers watchers over HTTP polling and WebSocket subscriptions, in order, exactly once', async () => {
    const seen: Record<string, bigint[]> = { 'viem http': [], 'viem ws': [], 'ethers http': [], 'ethers ws': [] };
    const chain = defineChain({
      id: 1337,
      name: 'svc dev',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [node.url], webSocket: [node.wsUrl] } },
    });
    const viemHttp = createPublicClient({ chain, transport: http(node.url), pollingInterval: 50 });
    const viemWs = createPublicClient({ chain, transport: webSocket(node.wsUrl) });
    const errors: unknown[] = [];
    const collect = (name: string) => (logs: Log[]) => {
      for (const log of logs as Array<Log & { args: { n: bigint } }>) seen[name].push(log.args.n);
    };
    const watch = { address: emitter, abi: pingAbi, eventName: 'Ping', onError: (e: Error) => errors.push(e) } as const;
    const unwatch = [
      viemHttp.watchContractEvent({ ...watch, poll: true, pollingInterval: 50, onLogs: collect('viem http') }),
      viemWs.watchContractEvent({ ...watch, poll: false, onLogs: collect('viem ws') }),
    ];

    const ethersHttp = new JsonRpcProvider(node.url, 1337, { staticNetwork: true, pollingInterval: 50 });
    const ethersWs = new WebSocketProvider(node.wsUrl, 1337, { staticNetwork: true });
    const contracts = [ethersHttp, ethersWs].map((p) => new Contract(emitter, pingAbi, p));
    await contracts[0].on('Ping', (n: bigint) => seen['ethers http'].push(n));
    await contracts[1].on('Ping', (n: bigint) => seen['ethers ws'].push(n));

    // Two polled filters (viem, ethers) and two subscriptions must be in place before the burst.
    const filters = node.engine.logs.filters;
    await until(() => filters.filterCount >= 2 && filters.subscriptionCount >= 2, 'the four watchers to be installed');

    const start = node.engine.chain.getHead().header.number;
    await addToPool(
      node.engine,
      Array.from({ length: BURST }, (_, i) => pingTx(node.engine, hexBytes(emitter), BigInt(i + 1), i)),
    );
    await until(() => Object.values(seen).every((xs) => xs.length >= BURST), 'every watcher to see 200 events', 60_000);
    // Let a few more polls run: a duplicate would show up here.
    await new Promise((r) => setTimeout(r, 500));

    const expected = Array.from({ length: BURST }, (_, i) => BigInt(i));
    for (const [name, values] of Object.entries(seen)) expect(values, name).toEqual(expected);
    expect(node.engine.chain.getHead().header.number).toBeGreaterThan(start);
    expect(errors).toEqual([]);

    for (const u of unwatch) u();
    await Promise.all(contracts.map((c) => c.removeAllListeners()));
    ethersHttp.destroy();
    await ethersWs.destroy();
  });
});

function hexBytes(h: `0x${string}`): Uint8Array {
  return Uint8Array.from(Buffer.from(h.slice(2), 'hex'));
}
