/**
 * svc_getAccountTransactions: the transactions an address sent or received in a block range, newest block
 * first and the last transaction first within a block, then its pending ones; the extension fields; the
 * configurable block limit with the reference's message; blocks a reorganisation dropped are not listed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addToPool, addresses, hex, rpc, signedTx, startInProcessNode, type InProcessNode } from './logs-fixture.js';

let node: InProcessNode;
const q = (n: bigint) => `0x${n.toString(16)}`;

beforeAll(async () => {
  node = await startInProcessNode({ env: { SVC_NODE_NETWORK_RPC_ACCOUNT_TRANSACTIONS_MAX_BLOCKS: '100' } });
});

afterAll(async () => {
  await node?.stop();
});

describe('svc_getAccountTransactions', () => {
  it('lists sent and received transactions newest first, then pending ones, with the extension fields', async () => {
    const [a, b, c] = [addresses[5], addresses[6], addresses[7]];
    const send = (from: number, nonce: bigint, to: Uint8Array, value: bigint) =>
      signedTx(node.engine.chain, { from, nonce, to, value });
    const t1 = send(5, 0n, b, 1n); // a → b
    const t2 = send(7, 0n, c, 2n); // unrelated: c → c
    await addToPool(node.engine, [t1, t2]);
    const [first] = await node.engine.miner.mineBlocks(1);
    const t3 = send(6, 0n, a, 3n); // b → a
    const t4 = send(5, 1n, c, 4n); // a → c
    await addToPool(node.engine, [t3, t4]);
    const [second] = await node.engine.miner.mineBlocks(1);
    const t5 = send(5, 2n, b, 5n); // a → b, stays pending
    await addToPool(node.engine, [t5]);

    const { result } = await rpc(node.url, 'svc_getAccountTransactions', [
      hex(a),
      '0x0',
      q(second.block.header.number),
    ]);
    const txs = result.transactions;
    expect(txs.map((t: any) => t.hash)).toEqual([t4, t3, t1, t5].map((t) => hex(t.hash())));
    expect(txs.map((t: any) => [t.isOutgoing, t.isPending])).toEqual([
      [true, false],
      [false, false],
      [true, false],
      [true, true],
    ]);
    expect(txs[0]).toMatchObject({
      from: hex(a),
      to: hex(c),
      value: '0x4',
      blockHash: hex(second.block.hash()),
      blockNumber: q(second.block.header.number),
      transactionIndex: '0x1',
      gasUsed: '0x5208',
      timestamp: q(second.block.header.timestamp),
      isCheckpointed: false,
    });
    expect(txs[3]).toMatchObject({ blockHash: null, gasUsed: null, timestamp: null });
    // The range is inclusive and respected: only the first block.
    const firstOnly = await rpc(node.url, 'svc_getAccountTransactions', [
      hex(a),
      q(first.block.header.number),
      q(first.block.header.number),
    ]);
    expect(firstOnly.result.transactions.map((t: any) => t.hash)).toEqual([t1, t5].map((t) => hex(t.hash())));
    await node.engine.miner.mineBlocks(1);
  });

  it('does not list transactions of blocks a reorganisation dropped', async () => {
    const who = addresses[8];
    const forkPoint = node.engine.chain.getHead();
    await addToPool(node.engine, [signedTx(node.engine.chain, { from: 8, nonce: 0n, to: addresses[9], value: 1n })]);
    await node.engine.miner.mineBlocks(1);
    const head = node.engine.chain.getHead().header.number;
    expect(
      (await rpc(node.url, 'svc_getAccountTransactions', [hex(who), '0x0', q(head)])).result.transactions,
    ).toHaveLength(1);
    await node.engine.miner.mineBlocks(2, { parentHash: forkPoint.hash(), withTransactions: false });
    const after = (await rpc(node.url, 'svc_getAccountTransactions', [hex(who), '0x0', q(head + 1n)])).result
      .transactions;
    // Only the re-injected pool copy remains, as pending.
    expect(after.map((t: any) => t.isPending)).toEqual([true]);
  });

  it('refuses a range wider than the configured limit with -32602, as the original node; from > to is empty', async () => {
    const { error } = await rpc(node.url, 'svc_getAccountTransactions', [hex(addresses[5]), '0x0', '0x64']);
    expect(error).toMatchObject({
      code: -32602,
      message: 'Maximum number of blocks to search is 100, requested: 101. Split the range into smaller requests.',
    });
    expect(
      (await rpc(node.url, 'svc_getAccountTransactions', [hex(new Uint8Array(20).fill(0x42)), '0x5', '0x4'])).result,
    ).toEqual({ transactions: [] });
  });
});
