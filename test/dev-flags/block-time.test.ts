/**
 * `--block-time <s>` mines from the start with nothing sent, as Anvil's does: the head climbs by itself, and
 * anvil_getIntervalMining reports the period in whole seconds, as Anvil's does (0 for half a second). Polled until the blocks come (no timed assertion).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

let node: NodeProcess;

beforeAll(async () => {
  node = await startNode({ args: ['--no-p2p', '--block-time', '0.5'] });
});

afterAll(async () => {
  await node?.stop();
});

describe('--block-time', () => {
  it('seals blocks by itself from the start, automine off', async () => {
    // Whole seconds, as Anvil 1.7.1 answers for --block-time 0.5.
    expect(await call(node.url, 'anvil_getIntervalMining', [])).toBe(0);
    expect(await call(node.url, 'anvil_getAutomine', [])).toBe(false);
    let head = 0;
    while (head < 2) {
      await new Promise((r) => setTimeout(r, 100));
      head = Number(await call<string>(node.url, 'eth_blockNumber', []));
    }
    const block = await call<{ transactions: unknown[] }>(node.url, 'eth_getBlockByNumber', ['0x2', false]);
    expect(block.transactions).toEqual([]);
  });
});
