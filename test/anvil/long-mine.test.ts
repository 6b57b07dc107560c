/**
 * One long mining request does not starve the others (issue 37, item 9): anvil_mine with a large count runs while
 * eth_chainId and eth_blockNumber are answered, it stops when its client goes away, and a count above the cap is
 * refused with -32602 naming the constant. (The project's fuzzer found anvil_mine(358598) keeping every other request
 * waiting for over a minute: the bulk run's buffered writes never gave the event loop a turn.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, post, request } from '../helpers/rpc.js';

let node: NodeProcess;

beforeAll(async () => {
  node = await startNode({ args: ['--no-p2p'] });
});

afterAll(async () => {
  await node?.stop();
});

const LARGE = 10_000;
const blockNumber = async () => Number(await call<string>(node.url, 'eth_blockNumber'));

/** Polls until `probe` holds, for at most `limitMs` (a bound against hanging, not a timing assertion). */
async function until(probe: () => Promise<boolean>, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('long dev mining and other requests', () => {
  it('answers eth_chainId while anvil_mine(10,000) runs, and stops mining once its client has gone', async () => {
    const start = await blockNumber();
    const client = new AbortController();
    let mineSettled = false;
    const mine = fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request('anvil_mine', [`0x${LARGE.toString(16)}`])),
      signal: client.signal,
    }).then(
      () => {
        mineSettled = true;
      },
      () => {
        mineSettled = true;
      },
    );
    // The mine is under way (blocks are coming) ...
    await until(async () => (await blockNumber()) > start, 60_000);
    // ... and other requests are answered meanwhile, long before its million blocks exist.
    expect(await call<string>(node.url, 'eth_chainId')).toMatch(/^0x[0-9a-f]+$/);
    const during = await blockNumber();
    expect(mineSettled).toBe(false);
    expect(during).toBeLessThan(start + LARGE);

    // The client goes away: the run ends at the next block or chunk, far short of its count.
    client.abort();
    await mine;
    let last = -1;
    await until(async () => {
      const now = await blockNumber();
      const still = now === last;
      last = now;
      if (!still) await new Promise((r) => setTimeout(r, 1_000));
      return still;
    }, 90_000);
    expect(last).toBeLessThan(start + LARGE);
    // And the node mines on demand again (the stopped run released the miner).
    await call(node.url, 'anvil_mine', ['0x1']);
    expect(await blockNumber()).toBe(last + 1);
  }, 180_000);

  it('refuses a count above the cap with -32602, naming the constant', async () => {
    for (const method of ['anvil_mine', 'hardhat_mine']) {
      const refused = await post(node.url, request(method, [`0x${(LARGE + 1).toString(16)}`]));
      expect(refused.body.error.code).toBe(-32602);
      expect(refused.body.error.message).toContain(`${LARGE + 1} is above the limit of ${LARGE} (MAX_MINE_BLOCKS`);
    }
    const evm = await post(node.url, request('evm_mine', [{ blocks: LARGE + 1 }]));
    expect(evm.body.error.code).toBe(-32602);
    expect(evm.body.error.message).toContain('MAX_MINE_BLOCKS');
    // The detailed form holds and answers every block: its cap is lower.
    const detailed = await post(node.url, request('evm_mine_detailed', [{ blocks: 1_001 }]));
    expect(detailed.body.error.code).toBe(-32602);
    expect(detailed.body.error.message).toContain('1001 is above the limit of 1000 (MAX_DETAILED_BLOCKS');
  });

  it('refuses a block timestamp past 2^64 - 1 with -32602 (a huge interval used to answer -32603)', async () => {
    // Found by the fuzzer (seed 524861086): the interval pushed timestamps past what a header holds.
    expect(await call(node.url, 'anvil_setBlockTimestampInterval', [`0x1${'0'.repeat(64)}`])).toBeDefined();
    for (const [method, params] of [
      ['evm_mine', [{ blocks: '0x2' }]],
      ['anvil_mine', ['0x2']],
    ] as const) {
      const refused = await post(node.url, request(method, [...params]));
      expect(refused.body.error.code).toBe(-32602);
      expect(refused.body.error.message).toContain('is past the largest a header holds (2^64 - 1)');
    }
    await call(node.url, 'anvil_removeBlockTimestampInterval');
    const before = await blockNumber();
    await call(node.url, 'evm_mine');
    expect(await blockNumber()).toBe(before + 1);
  });
});
