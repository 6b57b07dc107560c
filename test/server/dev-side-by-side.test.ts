/**
 * Two dev nodes started side by side, each with its own HTTP port and nothing said about peering: both run. Dev
 * peers only when asked, so neither binds the default devp2p port (the second used to fail on it, "address already
 * in use 127.0.0.1:9076"), and each says at start that peering is off and how to turn it on.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

const nodes: NodeProcess[] = [];
afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
});

describe('dev nodes side by side', () => {
  it('both start on their own HTTP ports and answer, with peering off unless asked', async () => {
    // One after the other: the second starts while the first holds its ports.
    nodes.push(await startNode({ ownP2pDefaults: true }));
    nodes.push(await startNode({ ownP2pDefaults: true }));
    const [a, b] = nodes;
    expect(a.port).not.toBe(b.port);
    for (const node of nodes) {
      expect(await call<string>(node.url, 'eth_chainId')).toMatch(/^0x[0-9a-f]+$/);
      expect(node.p2pPort).toBeUndefined();
      expect(node.logs.find((l) => l.msg === 'p2p off')?.reason).toMatch(/--p2p/);
    }
  });
});
