/**
 * anvil_reset onto a fork, as Anvil does it (node/fork/fork-switch.ts): a plain dev node re-forks an upstream svc-node
 * at a given block, dropping its own blocks; a second reset re-forks the same upstream at another block, dropping the
 * local block and the state read for the first one (viem's null block number: the default block); a plain reset
 * returns to a plain dev chain at genesis. A reset whose upstream does not answer fails and leaves the running chain
 * as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, RpcCallError } from '../helpers/rpc.js';

/** Dev account 0: both nodes hold its key. */
const FUNDED = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const ALICE = '0x1111111111111111111111111111111111111111';
const BOB = '0x4444444444444444444444444444444444444444';
const ONE_ETHER = 10n ** 18n;
const hex = (n: bigint) => `0x${n.toString(16)}`;

let upstream: NodeProcess | undefined;
let node: NodeProcess | undefined;

const send = (url: string, to: string, value: bigint) =>
  call<string>(url, 'eth_sendTransaction', [{ from: FUNDED, to, value: hex(value), gas: '0x5208' }]);
const blockNumber = async (url: string) => BigInt(await call<string>(url, 'eth_blockNumber'));
const balance = async (url: string, who: string) => BigInt(await call<string>(url, 'eth_getBalance', [who, 'latest']));
const blockAt = (url: string, n: bigint | 'latest') =>
  call<{ hash: string } | null>(url, 'eth_getBlockByNumber', [typeof n === 'bigint' ? hex(n) : n, false]);

/** Upstream: Alice gets 1 ether in block 4 and another in block 8, of 10 blocks. */
beforeAll(async () => {
  [upstream, node] = await Promise.all([startNode({ args: ['--no-p2p'] }), startNode({ args: ['--no-p2p'] })]);
  await call(upstream.url, 'anvil_mine', ['0x3']);
  await send(upstream.url, ALICE, ONE_ETHER);
  await call(upstream.url, 'anvil_mine', ['0x3']);
  await send(upstream.url, ALICE, ONE_ETHER);
  await call(upstream.url, 'anvil_mine', ['0x2']);
  expect(await blockNumber(upstream.url)).toBe(10n);
  // The node's own blocks, which a reset onto the fork drops.
  await call(node.url, 'anvil_mine', ['0x14']);
}, 90_000);

afterAll(async () => {
  await Promise.all([node?.stop(), upstream?.stop()]);
});

describe('anvil_reset onto a fork', () => {
  it('re-forks at the pinned block, again at another, and back to a plain dev chain', async () => {
    const url = node!.url;
    const up = upstream!.url;
    await call(url, 'anvil_reset', [{ forking: { jsonRpcUrl: up, blockNumber: 5 } }]);
    expect(await blockNumber(url)).toBe(5n);
    expect((await blockAt(url, 'latest'))?.hash).toBe((await blockAt(up, 5n))?.hash);
    expect(await blockAt(url, 20n)).toBeNull();
    expect(await balance(url, ALICE)).toBe(ONE_ETHER);
    expect(await call(url, 'anvil_nodeInfo')).toMatchObject({ forkConfig: { forkBlockNumber: 5 } });

    // A block of its own on the fork; the upstream is not written to.
    await send(url, BOB, 7n);
    expect(await blockNumber(url)).toBe(6n);
    expect(await balance(url, BOB)).toBe(7n);
    expect(await balance(up, BOB)).toBe(0n);

    // The same upstream, another block: the local block and the state read at block 5 are gone.
    await call(url, 'anvil_reset', [{ forking: { blockNumber: 9 } }]);
    expect(await blockNumber(url)).toBe(9n);
    expect(await balance(url, ALICE)).toBe(2n * ONE_ETHER);
    expect(await balance(url, BOB)).toBe(0n);

    // An upstream that does not answer: refused, and the running fork stays.
    const refused = await call(url, 'anvil_reset', [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1/' } }]).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(RpcCallError);
    expect((refused as RpcCallError).message).toMatch(/fork upstream http:\/\/127\.0\.0\.1:1\/ failed/);
    expect(await blockNumber(url)).toBe(9n);
    expect(await balance(url, ALICE)).toBe(2n * ONE_ETHER);

    // viem's reset() without arguments sends blockNumber null: the same upstream at its head minus 5, as Anvil.
    await call(url, 'anvil_reset', [{ forking: { blockNumber: null } }]);
    expect(await blockNumber(url)).toBe(5n);
    expect(await balance(url, ALICE)).toBe(ONE_ETHER);

    // No forking: a plain dev chain at genesis, the same genesis as the upstream's own.
    await call(url, 'anvil_reset', []);
    expect(await blockNumber(url)).toBe(0n);
    expect((await blockAt(url, 'latest'))?.hash).toBe((await blockAt(up, 0n))?.hash);
    expect(await balance(url, ALICE)).toBe(0n);
    expect(await call(url, 'anvil_nodeInfo')).toMatchObject({ forkConfig: { forkUrl: null } });
    await send(url, BOB, 3n);
    expect(await balance(url, BOB)).toBe(3n);
  }, 120_000);
});
