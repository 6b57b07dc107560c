/**
 * The pool's own reasons to let a transaction go (issue 37, item 8): a transaction its sender can no longer pay for
 * stays in the pool, queued with the reason, and is mined once the balance returns (geth drops it); one the pool's
 * bounds let go (queued longer than the lifetime: expired; pushed out of a full pool: evicted) is logged at info
 * with hash, sender, nonce and reason, and svc_getDroppedTransaction tells why afterwards.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

const BOB = '0x4444444444444444444444444444444444444444';
const GWEI = 1_000_000_000n;
const ETHER = 10n ** 18n;
const hex = (n: bigint) => `0x${n.toString(16)}`;

const checksumKey = (content: Record<string, unknown>, address: string) =>
  Object.keys(content).find((k) => k.toLowerCase() === address.toLowerCase());

describe('a transaction its sender can no longer pay for', () => {
  let node: NodeProcess;
  let accounts: string[];

  beforeAll(async () => {
    node = await startNode({ args: ['--no-p2p'] });
    accounts = await call<string[]>(node.url, 'eth_accounts');
    await call(node.url, 'evm_setAutomine', [false]);
  });

  afterAll(async () => {
    await node?.stop();
  });

  it('waits queued with the reason while the balance is short, and is mined once it is back', async () => {
    const sender = accounts[5]!;
    await call(node.url, 'anvil_setBalance', [sender, hex(2n * ETHER)]);
    // Costs 1 ETC + 21,000 gas × 1 gwei = 1.000021 ETC.
    const hash = await call<string>(node.url, 'eth_sendTransaction', [
      { from: sender, to: BOB, value: hex(ETHER), gas: '0x5208', gasPrice: hex(GWEI) },
    ]);
    expect(checksumKey((await call(node.url, 'txpool_content')).pending, sender)).toBeDefined();

    await call(node.url, 'anvil_setBalance', [sender, hex(ETHER / 2n)]);
    const reason = 'sender balance 0.5 ETC is below the cost 1.000021 ETC';
    const content = await call(node.url, 'txpool_content');
    expect(checksumKey(content.pending, sender)).toBeUndefined();
    const key = checksumKey(content.queued, sender)!;
    expect(content.queued[key]['0']).toMatchObject({ hash, waiting: reason });
    expect((await call(node.url, 'txpool_contentFrom', [sender])).queued['0'].waiting).toBe(reason);
    expect((await call(node.url, 'txpool_inspect')).queued[key]['0']).toMatch(
      new RegExp(`gas × \\d+ wei; waiting: ${reason}$`),
    );
    expect(await call(node.url, 'txpool_status')).toMatchObject({ pending: '0x0', queued: '0x1' });

    // A block does not take it, nor lose it.
    await call(node.url, 'evm_mine');
    expect(await call(node.url, 'eth_getTransactionReceipt', [hash])).toBeNull();
    expect((await call(node.url, 'txpool_contentFrom', [sender])).queued['0']).toMatchObject({ hash, waiting: reason });
    expect(await call(node.url, 'svc_getDroppedTransaction', [hash])).toBeNull();

    await call(node.url, 'anvil_setBalance', [sender, hex(2n * ETHER)]);
    const back = await call(node.url, 'txpool_contentFrom', [sender]);
    expect(back.pending['0']).toMatchObject({ hash });
    expect(back.pending['0'].waiting).toBeUndefined();
    await call(node.url, 'evm_mine');
    expect(await call(node.url, 'eth_getTransactionReceipt', [hash])).toMatchObject({ status: '0x1' });
    expect(await call(node.url, 'txpool_status')).toMatchObject({ pending: '0x0', queued: '0x0' });
  });
});

describe('what the pool bounds let go is logged and remembered', () => {
  let node: NodeProcess;
  let accounts: string[];

  beforeAll(async () => {
    node = await startNode({
      args: ['--no-p2p'],
      env: { SVC_NODE_TXPOOL_TX_POOL_SIZE: '2', SVC_NODE_TXPOOL_TRANSACTION_TIMEOUT: '1s' },
    });
    accounts = await call<string[]>(node.url, 'eth_accounts');
    await call(node.url, 'evm_setAutomine', [false]);
  });

  afterAll(async () => {
    await node?.stop();
  });

  const dropLine = (hash: string) =>
    node.logs.find((line) => line.msg === 'transaction dropped from the pool' && line.hash === hash);

  it('logs a queued transaction that outlived the lifetime, and tells why it went', async () => {
    const sender = accounts[3]!;
    // Nonce 5 while the account's is 0: queued behind a gap.
    const hash = await call<string>(node.url, 'eth_sendTransaction', [
      { from: sender, to: BOB, value: '0x1', gas: '0x5208', gasPrice: hex(GWEI), nonce: '0x5' },
    ]);
    expect(await call(node.url, 'txpool_status')).toMatchObject({ queued: '0x1' });
    // The pool sweeps at each block: mine until the lifetime (1 s) has passed and a sweep took it.
    let dropped: Record<string, unknown> | null = null;
    for (let i = 0; i < 100 && dropped === null; i++) {
      await sleep(100);
      await call(node.url, 'evm_mine');
      dropped = await call(node.url, 'svc_getDroppedTransaction', [hash]);
    }
    expect(dropped).toMatchObject({
      hash,
      from: sender.toLowerCase(),
      nonce: '0x5',
      reason: 'expired',
      detail: "expired: queued longer than the pool's lifetime of 1 s (waiting for nonce 0 first)",
    });
    expect(await call(node.url, 'txpool_status')).toMatchObject({ pending: '0x0', queued: '0x0' });
    expect(await call(node.url, 'eth_getTransactionByHash', [hash])).toBeNull();
    await expect
      .poll(() => dropLine(hash), { timeout: 10_000 })
      .toMatchObject({
        level: 'info',
        sender: sender.toLowerCase(),
        nonce: '5',
        reason: 'expired',
      });
  });

  it('logs a transaction a better-paying one pushed out of the full pool, and tells why it went', async () => {
    const cheap = accounts[1]!;
    const rich = accounts[2]!;
    const send = (from: string, gasPrice: bigint) =>
      call<string>(node.url, 'eth_sendTransaction', [
        { from, to: BOB, value: '0x1', gas: '0x5208', gasPrice: hex(gasPrice) },
      ]);
    await send(cheap, GWEI);
    const tail = await send(cheap, GWEI);
    expect(await call(node.url, 'txpool_status')).toMatchObject({ pending: '0x2' });
    const better = await send(rich, 2n * GWEI);

    const pending = (await call(node.url, 'txpool_content')).pending;
    expect(pending[checksumKey(pending, rich)!]['0'].hash).toBe(better);
    expect(Object.keys(pending[checksumKey(pending, cheap)!])).toEqual(['0']);
    expect(await call(node.url, 'svc_getDroppedTransaction', [tail])).toMatchObject({
      hash: tail,
      from: cheap.toLowerCase(),
      nonce: '0x1',
      reason: 'evicted',
      detail: expect.stringContaining(`evicted: the pool was full (2 transactions) and ${better}`),
    });
    await expect
      .poll(() => dropLine(tail), { timeout: 10_000 })
      .toMatchObject({
        level: 'info',
        sender: cheap.toLowerCase(),
        nonce: '1',
        reason: 'evicted',
      });
  });
});
