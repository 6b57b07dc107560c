/**
 * Block ranges that cannot mean anything, on a dev node process: fromBlock after toBlock (eth_getLogs, eth_newFilter,
 * trace_filter) and a range wholly past the head (eth_getLogs, trace_filter) answer -32602 with geth's words ("invalid
 * block range params", "block range extends beyond current head block") and what was given, where the node used to
 * answer [] and a client took "no logs" for a fact. A range that starts at or below the head and ends past it is cut
 * at the head, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

let node: NodeProcess;

async function rpc(method: string, params: unknown[] = []) {
  return (await post(node.url, request(method, params))).body;
}

beforeAll(async () => {
  node = await startNode({ args: ['--no-p2p'] });
  await rpc('qa_mineBlocks', [5]);
  for (let i = 0; i < 200 && (await rpc('eth_blockNumber')).result !== '0x5'; i++)
    await new Promise((r) => setTimeout(r, 20));
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('fromBlock after toBlock', () => {
  it('eth_getLogs answers -32602 "invalid block range params" naming both bounds', async () => {
    const { error } = await rpc('eth_getLogs', [{ fromBlock: '0x4', toBlock: '0x2' }]);
    expect(error).toEqual({
      code: -32602,
      message:
        'invalid block range params: eth_getLogs got fromBlock 0x4 after toBlock 0x2; fromBlock must not be after toBlock',
      data: { fromBlock: '0x4', toBlock: '0x2' },
    });
    // A tag is shown with the height it stood for.
    const tagged = await rpc('eth_getLogs', [{ fromBlock: 'latest', toBlock: '0x1' }]);
    expect(tagged.error.code).toBe(-32602);
    expect(tagged.error.message).toBe(
      'invalid block range params: eth_getLogs got fromBlock "latest" (0x5) after toBlock 0x1; fromBlock must not be ' +
        'after toBlock',
    );
  });

  it('eth_newFilter refuses two fixed bounds out of order, and still installs a filter waiting for future blocks', async () => {
    const { error } = await rpc('eth_newFilter', [{ fromBlock: '0x4', toBlock: '0x2' }]);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^invalid block range params: eth_newFilter got fromBlock 0x4 after toBlock 0x2/);
    expect((await rpc('eth_newFilter', [{ fromBlock: '0x40', toBlock: '0x50' }])).result).toMatch(/^0x/);
    expect((await rpc('eth_newFilter', [{ fromBlock: '0x40' }])).result).toMatch(/^0x/);
  });

  it('trace_filter answers -32602 "invalid block range params"', async () => {
    const { error } = await rpc('trace_filter', [{ fromBlock: '0x3', toBlock: '0x1' }]);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(
      'invalid block range params: trace_filter got fromBlock 0x3 after toBlock 0x1; fromBlock must not be after toBlock',
    );
  });
});

describe('a range wholly past the head', () => {
  it('eth_getLogs answers -32602 "block range extends beyond current head block" with the head', async () => {
    const { error } = await rpc('eth_getLogs', [{ fromBlock: '0x64', toBlock: '0x70' }]);
    expect(error).toEqual({
      code: -32602,
      message:
        'block range extends beyond current head block: eth_getLogs got fromBlock 0x64, past the head 0x5; no block ' +
        'of the range exists yet',
      data: { fromBlock: '0x64', head: '0x5' },
    });
    // fromBlock past the head with toBlock latest is out of order, as geth says.
    expect((await rpc('eth_getLogs', [{ fromBlock: '0x64' }])).error.message).toMatch(
      /^invalid block range params: eth_getLogs got fromBlock 0x64 after toBlock \(absent: latest, 0x5\)/,
    );
  });

  it('trace_filter answers the same', async () => {
    const { error } = await rpc('trace_filter', [{ fromBlock: '0x64', toBlock: '0x70' }]);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^block range extends beyond current head block: trace_filter got fromBlock 0x64/);
  });

  it('a range reaching past the head from below it is cut at the head (eth_getLogs and trace_filter answer)', async () => {
    expect((await rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x70' }])).result).toEqual([]);
    const traces = (await rpc('trace_filter', [{ fromBlock: '0x4', toBlock: '0x70' }])).result;
    // Blocks 4 and 5: their block rewards.
    expect(traces.map((t: { blockNumber: number }) => t.blockNumber)).toEqual([4, 5]);
  });
});
