/**
 * evm_setBlockGasLimit moves the pool's admission with the blocks: a transaction is admitted exactly when the next
 * block can hold it. Raised above the head's limit, a transaction that needs more gas than the head allows is taken
 * and mined in a block with the new limit; lowered, one above the new limit is refused at once ("exceeds block gas
 * limit", as Anvil answers) instead of waiting in the pool for a block that can never hold it.
 *
 * Side by side with Anvil (same calls, same observations): eth_call and eth_estimateGas follow the new limit at
 * once, before any block carries it; and a transaction pooled before the limit was lowered under it waits in the
 * pool, unmined, until the limit is raised again, while other senders' transactions are mined one block each (the
 * waiting one makes the dev miner seal no extra empty block; turning automine back on seals one empty block on both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilNode, startAnvil } from '../helpers/anvil-node.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, post, request } from '../helpers/rpc.js';

const BOB = '0x4444444444444444444444444444444444444444';
const hex = (n: bigint) => `0x${n.toString(16)}`;

let node: NodeProcess;
let anvil: AnvilNode;
let from: string;
/** Dev account 1 (both nodes hold its key). */
let second: string;

beforeAll(async () => {
  [node, anvil] = await Promise.all([startNode({ args: ['--no-p2p'] }), startAnvil()]);
  [from, second] = await call<string[]>(node.url, 'eth_accounts');
});

afterAll(async () => {
  await Promise.all([node?.stop(), anvil?.stop()]);
});

/** Sends 1 wei to BOB with `gas`, and answers the block that holds it. */
async function mined(gas: bigint): Promise<{ gasLimit: string; number: string }> {
  const hash = await call<string>(node.url, 'eth_sendTransaction', [{ from, to: BOB, value: '0x1', gas: hex(gas) }]);
  const receipt = await call(node.url, 'eth_getTransactionReceipt', [hash]);
  expect(receipt.status).toBe('0x1');
  return call(node.url, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
}

describe('evm_setBlockGasLimit and the pool', () => {
  it('admits a transaction above the head gas limit once the limit is raised, and mines it under the new one', async () => {
    const head = await call(node.url, 'eth_getBlockByNumber', ['latest', false]);
    const raised = BigInt(head.gasLimit) + 10_000_000n;
    expect(await call(node.url, 'evm_setBlockGasLimit', [hex(raised)])).toBe(true);
    const block = await mined(BigInt(head.gasLimit) + 1_000_000n);
    expect(BigInt(block.gasLimit)).toBe(raised);
  });

  it('refuses a transaction above a lowered limit at admission, and mines one under it', async () => {
    const lowered = 100_000n;
    expect(await call(node.url, 'evm_setBlockGasLimit', [hex(lowered)])).toBe(true);
    const refused = await post(
      node.url,
      request('eth_sendTransaction', [{ from, to: BOB, value: '0x1', gas: hex(lowered + 1n) }]),
    );
    expect(refused.body.error?.message).toMatch(/exceeds block gas limit/);
    expect(refused.body.error.message).toContain(`${lowered}`);
    const block = await mined(21_000n);
    expect(BigInt(block.gasLimit)).toBe(lowered);
    expect(await call(node.url, 'txpool_status')).toEqual({ pending: '0x0', queued: '0x0' });
  });

  it('seals the next block at once for what did not fit the last one', async () => {
    // Five transfers sent together need 105,000 gas under the 100,000 limit: four fit one block, the fifth the next.
    const sends = [0, 1, 2, 3, 4].map((id) =>
      request('eth_sendTransaction', [{ from, to: BOB, value: '0x1', gas: hex(21_000n) }], id),
    );
    const hashes = ((await post(node.url, sends)).body as { result: string }[]).map((r) => r.result);
    const blocks = new Set<string>();
    for (const hash of hashes) {
      let receipt = null;
      for (let i = 0; i < 100 && receipt === null; i++) {
        receipt = await call(node.url, 'eth_getTransactionReceipt', [hash]);
        if (receipt === null) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(receipt?.status).toBe('0x1');
      blocks.add(receipt.blockNumber);
    }
    expect(blocks.size).toBe(2);
  });
});

/** Runtime code answering the gas it was given (GAS, then return it as one word). */
const GAS_PROBE = '0x5a60005260206000f3';
/** Runtime code that succeeds only when it starts with at least 35,000,000 gas (else INVALID). */
const NEEDS_35M = '0x5a6302160ec011600b57005bfe';
const PROBE_AT = '0x5555555555555555555555555555555555555555';
const HEAVY_AT = '0x6666666666666666666666666666666666666666';

/** What the same calls observe on one node (svc-node or Anvil). */
async function callsUnderLimits(url: string): Promise<Record<string, unknown>> {
  const gasSeen = async () => BigInt(await call<string>(url, 'eth_call', [{ from, to: PROBE_AT }, 'latest']));
  const estimateHeavy = () =>
    call<string>(url, 'eth_estimateGas', [{ from, to: HEAVY_AT }]).then(
      (gas) => BigInt(gas),
      () => 'refused',
    );
  await call(url, 'anvil_setCode', [PROBE_AT, GAS_PROBE]);
  await call(url, 'anvil_setCode', [HEAVY_AT, NEEDS_35M]);
  await call(url, 'evm_setBlockGasLimit', [hex(30_000_000n)]);
  await call(url, 'evm_mine', []);
  const out: Record<string, unknown> = { at30M: await gasSeen(), heavyAt30M: await estimateHeavy() };
  const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
  await call(url, 'evm_setBlockGasLimit', [hex(60_000_000n)]);
  // No block carries the new limit yet: the calls follow it all the same.
  out.headUnchanged = (await call(url, 'eth_getBlockByNumber', ['latest', false])).hash === head.hash;
  out.at60M = await gasSeen();
  const heavy = await estimateHeavy();
  out.heavyAt60M = typeof heavy === 'bigint' && heavy >= 35_000_000n && heavy <= 60_000_000n;
  await call(url, 'evm_setBlockGasLimit', [hex(1_000_000n)]);
  out.at1M = await gasSeen();
  await call(url, 'evm_setBlockGasLimit', [hex(30_000_000n)]);
  return out;
}

/** The head once it has stayed the same for 200 ms (polled every 25 ms, for at most 5 s). */
async function settledHead(number: () => Promise<bigint>): Promise<bigint> {
  let head = await number();
  for (let stable = 0, polls = 0; stable < 8 && polls < 200; polls++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const next = await number();
    stable = next === head ? stable + 1 : 0;
    head = next;
  }
  return head;
}

/** A transaction pooled with automine off, then the limit lowered under it: what happens to it. */
async function pooledAboveLoweredLimit(url: string): Promise<Record<string, unknown>> {
  await call(url, 'evm_setBlockGasLimit', [hex(30_000_000n)]);
  await call(url, 'evm_mine', []);
  await call(url, 'evm_setAutomine', [false]);
  const hash = await call<string>(url, 'eth_sendTransaction', [{ from, to: BOB, value: '0x1', gas: hex(100_000n) }]);
  await call(url, 'evm_setBlockGasLimit', [hex(50_000n)]);
  await call(url, 'evm_mine', []);
  await call(url, 'evm_mine', []);
  const out: Record<string, unknown> = {
    whileLowered: {
      receipt: await call(url, 'eth_getTransactionReceipt', [hash]),
      pool: await call(url, 'txpool_status', []),
      headGasLimit: BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).gasLimit),
    },
  };
  // Automining again, with it still waiting: both nodes seal one (empty) block for the pool as automine comes back,
  // Anvil from a task of its own that can land after the call has answered; so the head is read once it has settled.
  const number = async () => BigInt(await call<string>(url, 'eth_blockNumber', []));
  const atToggle = await number();
  await call(url, 'evm_setAutomine', [true]);
  const before = await settledHead(number);
  out.onAutomine = { blocks: before - atToggle };
  // Then another sender's transfer is mined in one block, and nothing more.
  const other = await call<string>(url, 'eth_sendTransaction', [
    { from: second, to: BOB, value: '0x1', gas: '0x5208' },
  ]);
  // Anvil's automine may answer the send a moment before its block is in: its receipt is asked for until it is.
  let otherReceipt = await call(url, 'eth_getTransactionReceipt', [other]);
  for (let tries = 0; otherReceipt === null && tries < 40; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    otherReceipt = await call(url, 'eth_getTransactionReceipt', [other]);
  }
  // A block the policy would seal after it lands within this wait (the dev gather window is 25 ms).
  await new Promise((resolve) => setTimeout(resolve, 200));
  out.otherSender = { status: otherReceipt?.status, blocks: (await number()) - before };
  await call(url, 'evm_setBlockGasLimit', [hex(30_000_000n)]);
  await call(url, 'evm_mine', []);
  const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
  out.afterRaise = { status: receipt?.status, pool: await call(url, 'txpool_status', []) };
  return out;
}

describe('evm_setBlockGasLimit side by side with Anvil', () => {
  it('eth_call and eth_estimateGas take the new limit at once, before a block carries it', async () => {
    const [svc, reference] = await Promise.all([callsUnderLimits(node.url), callsUnderLimits(anvil.url)]);
    // The probe starts with the cap less the 21,000 intrinsic gas and the 2 its GAS costs.
    expect(svc).toEqual({
      at30M: 30_000_000n - 21_002n,
      heavyAt30M: 'refused',
      headUnchanged: true,
      at60M: 60_000_000n - 21_002n,
      heavyAt60M: true,
      at1M: 1_000_000n - 21_002n,
    });
    expect(svc).toEqual(reference);
  });

  it('keeps a pooled transaction above a lowered limit waiting, unmined (sealing no extra blocks for it), and mines it once the limit is raised', async () => {
    const [svc, reference] = await Promise.all([pooledAboveLoweredLimit(node.url), pooledAboveLoweredLimit(anvil.url)]);
    expect(svc).toEqual({
      whileLowered: { receipt: null, pool: { pending: '0x1', queued: '0x0' }, headGasLimit: 50_000n },
      onAutomine: { blocks: 1n },
      otherSender: { status: '0x1', blocks: 1n },
      afterRaise: { status: '0x1', pool: { pending: '0x0', queued: '0x0' } },
    });
    expect(svc).toEqual(reference);
  });
});
