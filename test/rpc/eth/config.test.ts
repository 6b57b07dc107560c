/**
 * eth_config (EIP-7910) on running nodes, through the generated client: what a fresh dev chain and a Mordor node at
 * its genesis report, and that each reported fork id is the one the node's eth STATUS sends a peer (a scripted test
 * peer dials it and reads its STATUS).
 */
import { bytesToHex } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, httpTransport, type RpcClient } from '../../../clients/typescript/src/client.js';
import type { Status } from '../../../src/p2p/eth/messages.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { TestPeer } from '../../helpers/test-peer.js';

const started: NodeProcess[] = [];
const clients: RpcClient[] = [];
const peers: TestPeer[] = [];
let dev: { node: NodeProcess; client: RpcClient };
let mordor: { node: NodeProcess; client: RpcClient };

async function start(args: string[]): Promise<{ node: NodeProcess; client: RpcClient }> {
  const node = await startNode({ args, timeoutMs: 60_000 });
  started.push(node);
  const client = createClient(httpTransport(node.url));
  clients.push(client);
  return { node, client };
}

async function statusOf(node: NodeProcess): Promise<Status> {
  const peer = await TestPeer.dial(node.enode!, { status: 'none' });
  peers.push(peer);
  return peer.nodeStatus;
}

beforeAll(async () => {
  [dev, mordor] = await Promise.all([start([]), start(['--network', 'mordor', '--no-mine'])]);
}, 90_000);

afterAll(async () => {
  await Promise.all(peers.map((p) => p.destroy().catch(() => undefined)));
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(started.map((node) => node.stop()));
}, 60_000);

const SPIRAL_PRECOMPILES = {
  ECREC: '0x0000000000000000000000000000000000000001',
  SHA256: '0x0000000000000000000000000000000000000002',
  RIPEMD160: '0x0000000000000000000000000000000000000003',
  ID: '0x0000000000000000000000000000000000000004',
  MODEXP: '0x0000000000000000000000000000000000000005',
  BN256_ADD: '0x0000000000000000000000000000000000000006',
  BN256_MUL: '0x0000000000000000000000000000000000000007',
  BN256_PAIRING: '0x0000000000000000000000000000000000000008',
  BLAKE2F: '0x0000000000000000000000000000000000000009',
};

describe('eth_config', () => {
  it('dev: Spiral in force from block 0 with chain id 1337, nothing scheduled, the fork id STATUS sends', async () => {
    const config = await dev.client.eth_config();
    expect(config.current).toEqual({
      activationBlock: 0,
      blobSchedule: null,
      chainId: '0x539',
      forkId: config.current.forkId,
      precompiles: SPIRAL_PRECOMPILES,
      systemContracts: {},
    });
    expect([config.next, config.last]).toEqual([null, null]);
    const status = await statusOf(dev.node);
    expect(config.current.forkId).toBe(bytesToHex(status.forkId.hash));
    expect(status.forkId.next).toBe(0n);
  });

  it('mordor at genesis: the block-0 rules now, Agharta next, Spiral last; current and next agree with STATUS', async () => {
    const config = await mordor.client.eth_config();
    const status = await statusOf(mordor.node);
    expect(config.current.forkId).toBe(bytesToHex(status.forkId.hash));
    expect(config.current.forkId).toBe('0x175782aa');
    expect(config.current.chainId).toBe('0x3f');
    expect(Object.keys(config.current.precompiles)).not.toContain('BLAKE2F');
    expect(config.next?.activationBlock).toBe(Number(status.forkId.next));
    expect(config.next?.activationBlock).toBe(301_243);
    expect(config.last?.activationBlock).toBe(9_957_000);
    expect(config.last?.forkId).toBe('0x3a6b00d7');
    expect(config.last?.precompiles).toEqual(SPIRAL_PRECOMPILES);
  });
});
