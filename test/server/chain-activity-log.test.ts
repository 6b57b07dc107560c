/**
 * Chain activity at info (issue 24): a dev node that mines says so, block by block while blocks are few, in
 * aggregated "imported new chain segment" lines when many come at once, a reorganisation in its own line, nothing
 * of what came while anvil_setLoggingEnabled(false) had it quiet, and its last line is "stopped". One node serves the
 * cases in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

type Line = Record<string, unknown>;
const isBlockLine = (l: Line) => l.msg === 'mined block' || l.msg === 'imported block';
const isSegment = (l: Line) => l.msg === 'imported new chain segment';
const activity = (logs: Line[]) => logs.filter((l) => isBlockLine(l) || isSegment(l));
const blocksIn = (lines: Line[]) => lines.reduce((n, l) => n + (isSegment(l) ? (l.blocks as number) : 1), 0);
const txsIn = (lines: Line[]) => lines.reduce((n, l) => n + (l.txs as number), 0);

describe('chain activity in the log', () => {
  let node: NodeProcess;
  const call = async (method: string, params: unknown[] = []) => {
    const { body } = await post(node.url, request(method, params));
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };
  const head = async () => Number(await call('eth_blockNumber'));

  beforeAll(async () => {
    node = await startNode({ args: ['--no-p2p'] });
  });
  afterAll(async () => node?.stop());

  it('reports 20 mined blocks with their numbers, block counts adding up to 20', async () => {
    expect(await call('qa_mineBlocks', [20, false])).toBeDefined();
    await expect.poll(head, { timeout: 30_000 }).toBe(20);
    await expect.poll(() => blocksIn(activity(node.logs)), { timeout: 10_000 }).toBe(20);
    const lines = activity(node.logs);
    expect(lines.every((l) => l.source === 'mined' || (isSegment(l) && l.mined === l.blocks))).toBe(true);
    const block20 = await call('eth_getBlockByNumber', ['0x14', false]);
    const last = lines.at(-1)!;
    expect(last.number).toBe('20');
    expect(last.hash).toBe(`${block20.hash.slice(0, 8)}…${block20.hash.slice(-6)}`);
    for (const line of lines.filter(isBlockLine)) expect(line).toMatchObject({ txs: 0, gasUsed: '0' });
  }, 60_000);

  it('folds a burst of 200 sends into a few aggregated lines, not one per block', async () => {
    const before = activity(node.logs).length;
    const from = DEV_ACCOUNTS[0]!.address;
    const to = DEV_ACCOUNTS[1]!.address;
    const batch = Array.from({ length: 200 }, (_, i) =>
      request('eth_sendTransaction', [{ from, to, value: '0x1' }], i + 1),
    );
    const { body } = await post(node.url, batch);
    expect(body.filter((r: { result?: string }) => typeof r.result === 'string')).toHaveLength(200);
    await expect.poll(() => call('eth_getTransactionCount', [from, 'latest']), { timeout: 60_000 }).toBe('0xc8');
    const burstBlocks = (await head()) - 20;
    await expect.poll(() => blocksIn(activity(node.logs).slice(before)), { timeout: 10_000 }).toBe(burstBlocks);
    const lines = activity(node.logs).slice(before);
    expect(txsIn(lines)).toBe(200);
    expect(lines.some(isSegment)).toBe(true);
    expect(lines.length).toBeLessThanOrEqual(20);
    // The pool line reports the burst's size once it settled, not once per transaction.
    expect(node.logs.filter((l) => l.msg === 'transaction pool').length).toBeLessThan(10);
  }, 90_000);

  it('gives a reorganisation its own line: depth, old head, new head', async () => {
    const top = await head();
    const fork = await call('eth_getBlockByNumber', [`0x${(top - 2).toString(16)}`, false]);
    // Four empty blocks on the head's grandparent: a longer branch that replaces the last two blocks.
    await call('qa_mineBlocks', [4, false, fork.hash]);
    await expect.poll(() => node.logs.find((l) => l.msg === 'chain reorg'), { timeout: 30_000 }).toBeDefined();
    // The reorg line comes with the third block; the fourth may still be on its way, and the dropped blocks'
    // transactions go back to the pool and are mined again. The next case starts from a settled head.
    const settled = async () => (await head()) >= top + 2 && (await call('txpool_status')).pending === '0x0';
    await expect.poll(settled, { timeout: 30_000 }).toBe(true);
    const reorg = node.logs.find((l) => l.msg === 'chain reorg')!;
    expect(reorg).toMatchObject({ depth: 2, oldNumber: String(top), ancestor: String(top - 2) });
    expect(Number(reorg.newNumber)).toBeGreaterThan(top);
  }, 60_000);

  it('announces no block that came while anvil_setLoggingEnabled(false) had it quiet', async () => {
    // A line naming a block is written only after every block before it was (in its own line or a segment).
    // (A segment names its last block only: at or past n.)
    const logged = (n: number) => activity(node.logs).some((l) => Number(l.number) >= n);
    // Automine off first: a transaction the reorg above dropped may still be on its way back into a block, and
    // that block would land between the count below and the quiet blocks. anvil_mine mines either way.
    // A block already being sealed when automine went off can still land after it: the head is read once it has
    // stayed the same for half a second.
    await call('evm_setAutomine', [false]);
    let settled = await head();
    for (let stable = 0; stable < 10; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = await head();
      stable = now === settled ? stable + 1 : 0;
      settled = now;
    }
    await expect.poll(() => logged(settled), { timeout: 30_000 }).toBe(true);
    const before = blocksIn(activity(node.logs));
    await call('anvil_setLoggingEnabled', [false]);
    await call('anvil_mine', ['0x3']);
    await call('anvil_setLoggingEnabled', [true]);
    await call('anvil_mine', ['0x2']);
    await expect.poll(() => logged(settled + 5), { timeout: 30_000 }).toBe(true);
    expect(blocksIn(activity(node.logs))).toBe(before + 2);
    await call('evm_setAutomine', [true]);
  }, 60_000);

  it('ends with a "stopped" line after "shutting down"', async () => {
    const drained = new Promise((resolve) => node.child.stdout!.once('end', resolve));
    await node.stop();
    await drained;
    const messages = node.logs.map((l) => l.msg);
    expect(messages.at(-1)).toBe('stopped');
    expect(messages.lastIndexOf('shutting down')).toBeGreaterThan(-1);
  }, 30_000);
});
