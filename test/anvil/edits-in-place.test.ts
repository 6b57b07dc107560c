/**
 * anvil_setBalance and friends change the head's state in place, as Anvil's do (chain/state/edited-roots.ts). The
 * viem script (test-client.test.ts) compares block numbers and roots around edits with Anvil; this covers what it
 * cannot: calls and estimates see an edit, a restart keeps it, and a block built on edited state replays
 * (debug_traceTransaction) from that edited state rather than from its parent header's state root.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

const ALICE = '0x1111111111111111111111111111111111111111';
const BOB = '0x4444444444444444444444444444444444444444';
const CONTRACT = '0x3333333333333333333333333333333333333333';
/** Returns 42 as one word. */
const RETURNS_42 = '0x602a60005260206000f3';
const WORD_42 = `0x${'2a'.padStart(64, '0')}`;
const FIVE_ETHER = 5n * 10n ** 18n;

const datadir = mkdtempSync(join(tmpdir(), 'svc-node-edits-in-place-'));
let node: NodeProcess | undefined;
const start = async () => {
  node = await startNode({ args: ['--no-p2p', '--datadir', datadir] });
  return node.url;
};

afterAll(async () => {
  await node?.stop();
  rmSync(datadir, { recursive: true, force: true });
});

describe('state edits in place', () => {
  it('are seen by calls and estimates at once, survive a restart, and replay under the next block', async () => {
    let url = await start();
    const n0 = await call<string>(url, 'eth_blockNumber');
    await call(url, 'anvil_setBalance', [ALICE, `0x${FIVE_ETHER.toString(16)}`]);
    await call(url, 'anvil_setCode', [CONTRACT, RETURNS_42]);
    expect(await call(url, 'eth_blockNumber')).toBe(n0);
    // Both run on the edited state: without it Alice could not pay and the contract would return nothing.
    const transfer = { from: ALICE, to: BOB, value: '0xde0b6b3a7640000' };
    expect(await call(url, 'eth_estimateGas', [transfer, 'latest'])).toBe('0x5208');
    for (const tag of ['latest', 'pending', n0])
      expect(await call(url, 'eth_call', [{ to: CONTRACT }, tag]), String(tag)).toBe(WORD_42);

    await node!.stop();
    url = await start();
    expect(await call(url, 'eth_blockNumber')).toBe(n0);
    expect(BigInt(await call<string>(url, 'eth_getBalance', [ALICE, 'latest']))).toBe(FIVE_ETHER);
    expect(await call(url, 'eth_getCode', [CONTRACT, 'latest'])).toBe(RETURNS_42);

    await call(url, 'anvil_impersonateAccount', [ALICE]);
    const hash = await call<string>(url, 'eth_sendTransaction', [{ ...transfer, gas: '0x5208' }]);
    const receipt = await call<{ blockNumber: string; status: string }>(url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt).toMatchObject({ blockNumber: `0x${(BigInt(n0) + 1n).toString(16)}`, status: '0x1' });
    // Replayed on the parent's edited state; on its header's root Alice has nothing and the replay fails.
    const trace = await call<{ failed: boolean; gas: number }>(url, 'debug_traceTransaction', [hash]);
    expect(trace).toMatchObject({ failed: false, gas: 21_000 });
  }, 120_000);
});
