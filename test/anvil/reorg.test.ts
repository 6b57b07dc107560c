/**
 * anvil_reorg and anvil_rollback, sent through viem's `request`, with the same script on svc-node and on Anvil 1.7.1
 * (@foundry-rs/anvil): a contract that logs its call value, two calls, then a reorg of depth 2 whose new branch holds
 * a signed call (the same bytes on both nodes) and a request the node signs. Afterwards the heads, the receipts of
 * the dropped and the replacing transactions and every log must match; on svc-node a log subscription also gets the
 * dropped logs again with removed: true, newHeads announces the new blocks, and the node logs `chain reorg`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createPublicClient,
  createTestClient,
  defineChain,
  type Hex,
  http,
  type Log,
  numberToHex,
  webSocket,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { besideAnvil, haveAnvil } from '../helpers/beside-anvil.js';

const chain = defineChain({
  id: 1337,
  name: 'dev',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
});
const deployer = privateKeyToAccount(DEV_ACCOUNTS[0]!.privateKey as Hex);
const second = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
/** Runtime: LOG1(topic 7, data = callvalue). Init code copies the 12 runtime bytes and returns them. */
const LOGGER = '0x600c600c600039600c6000f334600052600760206000a100' as Hex;
const CONTRACT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

const both = besideAnvil();

/** A legacy transaction signed here: the same bytes and hash on both nodes. */
function signed(nonce: number, to: Hex | null, value: bigint, data?: Hex): Promise<Hex> {
  return deployer.signTransaction({
    type: 'legacy',
    chainId: 1337,
    nonce,
    gas: 200_000n,
    gasPrice: 10_000_000_000n,
    ...(to === null ? {} : { to }),
    value,
    ...(data !== undefined ? { data } : {}),
  });
}

/** Waits for `done` (a subscription's messages trail the request), giving up after 10 s for the assertions to say why. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

interface Outcome {
  head: bigint;
  dropped: unknown[];
  replacing: unknown[];
  blocks: { number: bigint; txs: number }[];
  logs: unknown[];
  subscribed: { removed: boolean; data: Hex; blockNumber: bigint | null }[];
  heads: bigint[];
}

/** The script, through viem's `request`; what it leaves behind, in a form both nodes can match. */
async function script(url: string, wsUrl?: string): Promise<Outcome> {
  const client = createTestClient({ chain, mode: 'anvil', transport: http(url) });
  // Uncached: viem keeps a block number for its polling interval, and the receipt waits below read one just before
  // the reorg (a CI run read the head from before it on Anvil).
  const pub = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
  const send = (raw: Hex) => pub.request({ method: 'eth_sendRawTransaction', params: [raw] });
  const subscribed: Outcome['subscribed'] = [];
  const heads: bigint[] = [];
  const unwatch: (() => void)[] = [];
  if (wsUrl !== undefined) {
    const ws = createPublicClient({ chain, transport: webSocket(wsUrl) });
    unwatch.push(
      await ws.transport
        .subscribe({
          params: ['logs', { address: CONTRACT }],
          onData: (data) => {
            const result = (data as unknown as { result: Log }).result;
            subscribed.push({
              removed: result.removed,
              data: result.data,
              blockNumber: result.blockNumber === null ? null : BigInt(result.blockNumber),
            });
          },
          onError: () => undefined,
        })
        .then((s) => s.unsubscribe as () => void),
      await ws.transport
        .subscribe({
          params: ['newHeads'],
          onData: (data) => {
            heads.push(BigInt((data as unknown as { result: { number: Hex } }).result.number));
          },
          onError: () => undefined,
        })
        .then((s) => s.unsubscribe as () => void),
    );
  }
  // Each mined before the next is sent, so each has a block of its own: a loaded CI run saw Anvil's automine put
  // the three in one block, and its reorg then had no two blocks to replace.
  const mined = async (raw: Hex) => {
    const hash = await send(raw);
    await pub.waitForTransactionReceipt({ hash });
    return hash;
  };
  await mined(await signed(0, null, 0n, LOGGER));
  const first = await mined(await signed(1, CONTRACT, 1n));
  const secondCall = await mined(await signed(2, CONTRACT, 2n));
  const replacement = await signed(1, CONTRACT, 5n);
  const headsBefore = heads.length;
  const logsBefore = subscribed.length;
  await client.request({
    method: 'anvil_reorg' as never,
    params: [
      2,
      [
        [replacement, 0],
        [{ from: second, to: CONTRACT, value: numberToHex(7n) }, 1],
      ],
    ] as never,
  });
  const head = await pub.getBlockNumber();
  const receipt = async (hash: Hex) => {
    const r = await pub.getTransactionReceipt({ hash }).catch(() => null);
    return r === null ? null : { status: r.status, blockNumber: r.blockNumber, index: r.transactionIndex };
  };
  const blocks = [];
  for (let n = 1n; n <= head; n++) {
    const b = await pub.getBlock({ blockNumber: n });
    blocks.push({ number: b.number, txs: b.transactions.length });
  }
  const logs = (await pub.getLogs({ address: CONTRACT, fromBlock: 0n, toBlock: 'latest' })).map((l) => ({
    data: l.data,
    topics: l.topics,
    blockNumber: l.blockNumber,
    transactionIndex: l.transactionIndex,
    removed: l.removed,
  }));
  // The subscription's last messages come a moment after the request that caused them. The head's number is the
  // same before and after (3), so wait for the two new heads and the four log messages (two removed, two new).
  if (wsUrl !== undefined)
    await until(() => heads.length >= headsBefore + 2 && heads.at(-1) === head && subscribed.length >= logsBefore + 4);
  for (const stop of unwatch) stop();
  const { keccak256 } = await import('viem');
  return {
    head,
    dropped: [await receipt(first), await receipt(secondCall)],
    replacing: [await receipt(keccak256(replacement))],
    blocks,
    logs,
    subscribed,
    heads,
  };
}

describe('anvil_reorg', () => {
  let ours: Outcome;
  beforeAll(async () => {
    ours = await script(both.node.url, both.node.wsUrl);
  });

  it('puts the new branch in place of the top blocks: head, receipts and logs follow it', () => {
    expect(ours.head).toBe(3n);
    expect(ours.dropped).toEqual([null, null]);
    expect(ours.replacing).toEqual([{ status: 'success', blockNumber: 2n, index: 0 }]);
    expect(ours.blocks.map((b) => b.txs)).toEqual([1, 1, 1]);
    expect(ours.logs.map((l) => (l as { data: Hex }).data)).toEqual([
      numberToHex(5n, { size: 32 }),
      numberToHex(7n, { size: 32 }),
    ]);
  });

  it('tells subscriptions: the dropped logs come again with removed: true, newHeads names the new blocks', () => {
    const removed = ours.subscribed.filter((l) => l.removed).map((l) => BigInt(l.data));
    expect(removed.sort()).toEqual([1n, 2n]);
    const after = ours.subscribed.slice(ours.subscribed.findIndex((l) => l.removed));
    expect(after.filter((l) => !l.removed).map((l) => BigInt(l.data))).toEqual([5n, 7n]);
    expect(ours.heads.slice(-2)).toEqual([2n, 3n]);
  });

  it('logs a chain reorg line', async () => {
    await expect.poll(() => both.node.logs.find((l) => l.msg === 'chain reorg'), { timeout: 10_000 }).toBeDefined();
    expect(both.node.logs.find((l) => l.msg === 'chain reorg')).toMatchObject({ depth: 2, ancestor: '1' });
  });

  it.runIf(haveAnvil)('leaves the same heads, receipts and logs as Anvil after the same script', async () => {
    const theirs = await script(both.anvil!.url, both.anvil!.url.replace('http', 'ws'));
    // Anvil 1.7.1 sends no removed logs to subscriptions (its later versions do, as real nodes and svc-node do):
    // the rest of what the subscriptions got must match.
    const kept = (o: Outcome) => ({ ...o, subscribed: o.subscribed.filter((l) => !l.removed) });
    expect(kept(ours)).toEqual(kept(theirs));
  });
});

describe('anvil_rollback', () => {
  /** The same calls on `url`: each answer's result or error code and message, and the head after each. */
  async function answers(url: string): Promise<unknown[]> {
    const client = createTestClient({ chain, mode: 'anvil', transport: http(url) });
    const out: unknown[] = [];
    const ask = async (method: string, params: unknown[]) => {
      try {
        out.push(await client.request({ method: method as never, params: params as never }));
      } catch (err) {
        const e = err as { code?: number; details?: string };
        out.push({ code: e.code, message: e.details });
      }
      out.push(await client.request({ method: 'eth_blockNumber' as never }));
    };
    await client.mine({ blocks: 3 });
    const height = BigInt(await client.request({ method: 'eth_blockNumber' as never }));
    await ask('anvil_rollback', [1]);
    await ask('anvil_rollback', [null]);
    await ask('anvil_rollback', [Number(height) + 5]);
    await ask('anvil_reorg', [Number(height) + 5, []]);
    await ask('anvil_reorg', [1, [[{ to: second, value: '0x1' }, 1]]]);
    return [height, ...out];
  }

  it('removes the top blocks, one by default, and refuses a depth past the genesis', async () => {
    const got = await answers(both.node.url);
    const height = got[0] as bigint;
    expect(got[1]).toBeNull();
    expect(BigInt(got[2] as Hex)).toBe(height - 1n);
    expect(BigInt(got[4] as Hex)).toBe(height - 2n);
    expect(got[5]).toMatchObject({ code: -32602 });
  });

  it.runIf(haveAnvil)('answers as Anvil does, call for call', async () => {
    const [ourHeight, ...ours] = await answers(both.node.url);
    const [theirHeight, ...theirs] = await answers(both.anvil!.url);
    // The chains differ in length by the script above; what each call did relative to it must not.
    const relative = (height: bigint, list: unknown[]) =>
      list.map((v) => (typeof v === 'string' && v.startsWith('0x') ? height - BigInt(v) : v));
    const strip = (list: unknown[]) =>
      list.map((v) =>
        typeof v === 'object' && v !== null && 'message' in v
          ? { ...v, message: String((v as { message: string }).message).replace(/\d+/g, 'N') }
          : v,
      );
    expect(strip(relative(ourHeight as bigint, ours))).toEqual(strip(relative(theirHeight as bigint, theirs)));
  });
});
