/**
 * A transaction the dev node acknowledged is mined, waits in the pool with its reason, or is refused at submission:
 * never dropped unseen (issue 37, item 8). eth_sendTransaction from an impersonated contract (anvil_impersonateAccount)
 * is mined, as Anvil mines it (impersonation skips EIP-3607); one from a key-holding account that has code cannot be
 * mined and stays pending, its reason in txpool_content and txpool_inspect, until the code goes and it is mined.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

const BOB = '0x4444444444444444444444444444444444444444';
const CONTRACT = '0x5555555555555555555555555555555555555555';
const CODE = '0x600160005260206000f3';
const EIP3607 = 'invalid sender address, address is not EOA';

let node: NodeProcess;
let accounts: string[];

beforeAll(async () => {
  node = await startNode({ args: ['--no-p2p'] });
  accounts = await call<string[]>(node.url, 'eth_accounts');
});

afterAll(async () => {
  await node?.stop();
});

const checksumKey = (content: Record<string, unknown>, address: string) =>
  Object.keys(content).find((k) => k.toLowerCase() === address.toLowerCase());

describe('acknowledged transactions are never dropped unseen', () => {
  it('mines eth_sendTransaction from an impersonated address that has code, leaving its code in place', async () => {
    await call(node.url, 'anvil_setCode', [CONTRACT, CODE]);
    await call(node.url, 'anvil_setBalance', [CONTRACT, '0xde0b6b3a7640000']);
    await call(node.url, 'anvil_impersonateAccount', [CONTRACT]);
    const hash = await call<string>(node.url, 'eth_sendTransaction', [
      { from: CONTRACT, to: BOB, value: '0x7', gas: '0x5208' },
    ]);
    const receipt = await call(node.url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt).toMatchObject({ status: '0x1', from: CONTRACT });
    expect(await call(node.url, 'eth_getCode', [CONTRACT, 'latest'])).toBe(CODE);
    expect(await call(node.url, 'eth_getTransactionCount', [CONTRACT, 'latest'])).toBe('0x1');
    expect(await call(node.url, 'eth_getBalance', [BOB, 'latest'])).toBe('0x7');
  });

  it('keeps a transaction that cannot be mined pending with its reason, and mines it once it can be', async () => {
    // A dev account (its key held, not impersonated) given code: its signed transaction is admitted, but a block
    // cannot take it (EIP-3607). It used to be removed from the pool with no trace and no receipt.
    const sender = accounts[3];
    await call(node.url, 'anvil_setCode', [sender, CODE]);
    const hash = await call<string>(node.url, 'eth_sendTransaction', [
      { from: sender, to: BOB, value: '0x1', gas: '0x5208' },
    ]);
    const head = Number(await call<string>(node.url, 'eth_blockNumber'));

    const content = await call(node.url, 'txpool_content');
    const key = checksumKey(content.pending, sender)!;
    expect(key).toBeDefined();
    expect(content.pending[key]['0']).toMatchObject({ hash, blockHash: null });
    expect(content.pending[key]['0'].waiting).toBe(`left out of block ${head}: ${EIP3607}`);
    const from = await call(node.url, 'txpool_contentFrom', [sender]);
    expect(from.pending['0'].waiting).toContain(EIP3607);
    const inspect = await call(node.url, 'txpool_inspect');
    expect(inspect.pending[key]['0']).toMatch(/ wei \+ 21000 gas × \d+ wei; waiting: left out of block \d+: /);
    expect(inspect.pending[key]['0']).toContain(EIP3607);
    expect(await call(node.url, 'txpool_status')).toMatchObject({ pending: '0x1' });
    expect(await call(node.url, 'eth_getTransactionReceipt', [hash])).toBeNull();

    // More blocks do not lose it (the last one tried it again, on the head).
    await call(node.url, 'anvil_mine', ['0x3']);
    await call(node.url, 'anvil_mine', ['0x1']);
    const later = (await call(node.url, 'txpool_content')).pending[key]['0'];
    expect(later).toMatchObject({ hash, waiting: `left out of block ${head + 4}: ${EIP3607}` });

    // The code goes (an edit of the head's state, no new block): the very next block takes it.
    await call(node.url, 'anvil_setCode', [sender, '0x']);
    await call(node.url, 'anvil_mine', ['0x1']);
    expect(await call(node.url, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' });
    expect(await call(node.url, 'txpool_status')).toMatchObject({ pending: '0x0', queued: '0x0' });
  });
});
