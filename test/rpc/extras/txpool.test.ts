/**
 * txpool_* against Anvil: the same signed transactions in both pools (two senders, one of them with a nonce gap)
 * give the same status, content, contentFrom and inspect answers, pending = executable and queued = gapped. The one
 * difference is letter case: this node keys senders (and names recipients in inspect) EIP-55 checksummed, as geth
 * does; Anvil writes them lowercase. Anvil 1.7.1 has no txpool_contentFrom: ours is compared with its content's part.
 */
import { HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { anvilPath, ok, startAnvil, type AnvilProcess } from './foundry.js';

const wallet = (i: number) => HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`);
const alice = wallet(1);
const bob = wallet(2);
const RECIPIENT = wallet(3).address;
const GAS_PRICE = 2_000_000_000n;

let node: NodeProcess;
let anvil: AnvilProcess;

const sign = (from: HDNodeWallet, nonce: number, fields: { to?: string; value?: bigint; data?: string }) =>
  from.signTransaction({ type: 0, chainId: 1337n, nonce, gasPrice: GAS_PRICE, gasLimit: 100_000n, ...fields });

/** Lowercase every key and string, so Anvil's lowercase addresses compare with geth's checksummed ones. */
const lower = (value: unknown): unknown => {
  if (typeof value === 'string') return value.toLowerCase();
  if (Array.isArray(value)) return value.map(lower);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.toLowerCase(), lower(v)]));
  return value;
};

beforeAll(async () => {
  [node, anvil] = await Promise.all([
    startNode({ env: { SVC_NODE_MINING_MINING_ENABLED: 'false' } }),
    startAnvil(['--no-mining']),
  ]);
  const raws = [
    await sign(alice, 0, { to: RECIPIENT, value: 5n }),
    await sign(alice, 1, { data: '0x6000' }),
    await sign(alice, 3, { to: RECIPIENT, value: 7n }),
    await sign(bob, 0, { to: RECIPIENT, value: 1n, data: '0x1234' }),
  ];
  for (const url of [node.url, anvil.url]) for (const raw of raws) await ok(url, 'eth_sendRawTransaction', [raw]);
}, 60_000);

afterAll(async () => {
  await Promise.all([node?.stop(), anvil?.stop()]);
});

describe.skipIf(anvilPath === undefined)('txpool_* compared with Anvil', () => {
  it('txpool_status: three executable, one behind the nonce gap', async () => {
    const ours = await ok(node.url, 'txpool_status');
    expect(ours).toEqual({ pending: '0x3', queued: '0x1' });
    expect(ours).toEqual(await ok(anvil.url, 'txpool_status'));
  });

  it('txpool_content: the same transactions under the same senders and nonces; senders checksummed', async () => {
    const ours = await ok(node.url, 'txpool_content');
    expect(Object.keys(ours.pending).sort()).toEqual([alice.address, bob.address].sort());
    expect(Object.keys(ours.pending[alice.address])).toEqual(['0', '1']);
    expect(Object.keys(ours.queued)).toEqual([alice.address]);
    expect(Object.keys(ours.queued[alice.address])).toEqual(['3']);
    expect(ours.queued[alice.address]['3']).toMatchObject({ nonce: '0x3', value: '0x7', blockHash: null });
    expect(lower(ours)).toEqual(lower(await ok(anvil.url, 'txpool_content')));
  });

  it("txpool_contentFrom: one sender's part of Anvil's content (Anvil 1.7.1 has no txpool_contentFrom)", async () => {
    const ours = await ok(node.url, 'txpool_contentFrom', [alice.address]);
    expect(Object.keys(ours.pending)).toEqual(['0', '1']);
    const theirs = lower(await ok(anvil.url, 'txpool_content')) as Record<string, Record<string, unknown>>;
    const key = alice.address.toLowerCase();
    expect(lower(ours)).toEqual({ pending: theirs.pending[key], queued: theirs.queued[key] });
    expect(await ok(node.url, 'txpool_contentFrom', [RECIPIENT])).toEqual({ pending: {}, queued: {} });
  });

  it("txpool_inspect: geth's one-line summaries, contract creation included", async () => {
    const ours = await ok(node.url, 'txpool_inspect');
    expect(ours.pending[alice.address]).toEqual({
      '0': `${RECIPIENT}: 5 wei + 100000 gas × 2000000000 wei`,
      '1': 'contract creation: 0 wei + 100000 gas × 2000000000 wei',
    });
    expect(lower(ours)).toEqual(lower(await ok(anvil.url, 'txpool_inspect')));
  });

  it('the gap filled, the queued transaction becomes pending', async () => {
    await ok(node.url, 'eth_sendRawTransaction', [await sign(alice, 2, { to: RECIPIENT, value: 6n })]);
    expect(await ok(node.url, 'txpool_status')).toEqual({ pending: '0x5', queued: '0x0' });
    const content = await ok(node.url, 'txpool_content');
    expect(Object.keys(content.pending[alice.address])).toEqual(['0', '1', '2', '3']);
  });
});
