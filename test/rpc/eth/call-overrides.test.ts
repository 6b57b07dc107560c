/**
 * State and block overrides on eth_call / eth_estimateGas (geth's shapes), on svc-node and on Anvil with the same
 * contract at the same address: the same calls give the same answers. The probe contract returns its two storage
 * slots, its own balance and the block environment (NUMBER, TIMESTAMP, GASLIMIT, COINBASE, DIFFICULTY), so each
 * override shows in one word. Anvil runs London: the dev chain's EVM (Spiral) without PUSH0, which the probe does
 * not use, and with DIFFICULTY still the block's difficulty (not PREVRANDAO).
 */
import { HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../../src/chain/networks/devAccounts.js';
import { startAnvil, type AnvilNode } from '../../helpers/anvil-node.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { post, request } from '../../helpers/rpc.js';

/** slot0, slot1, balance(this), number, timestamp, gaslimit, coinbase, difficulty → 8 words. */
const PROBE_RUNTIME =
  '6000546000526001546020523031604052436060524260805245' + '60a0524160c0524460e052610100' + '6000f3';
/** Stores 7 in slot 0 and 9 in slot 1, then returns the probe. */
const deployCode = () => {
  const len = (PROBE_RUNTIME.length / 2).toString(16).padStart(2, '0');
  // PUSH1 7 PUSH1 0 SSTORE PUSH1 9 PUSH1 1 SSTORE PUSH1 len DUP1 PUSH1 off PUSH1 0 CODECOPY PUSH1 0 RETURN
  const prefix = `6007600055600960015560${len}80601560003960${'00'}f3`;
  return `0x${prefix}${PROBE_RUNTIME}`;
};
/** SSTORE(0, 5); STOP. */
const STORE_FIVE = '0x6005600055' + '00';

const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
const slot = (n: number) => `0x${word(n)}`;
const deployer = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/6");

let node: NodeProcess;
let anvil: AnvilNode;
let probe: string;

async function rpc(url: string, method: string, params: unknown[]): Promise<{ result?: any; error?: any }> {
  const res = await post(url, request(method, params));
  return res.body;
}

async function both(method: string, params: unknown[]) {
  const [ours, theirs] = await Promise.all([rpc(node.url, method, params), rpc(anvil.url, method, params)]);
  return { ours, theirs };
}

beforeAll(async () => {
  [node, anvil] = await Promise.all([
    startNode(),
    startAnvil({ hardfork: 'london', args: ['--gas-limit', '30000000'] }),
  ]);
  const raw = await deployer.signTransaction({
    type: 0,
    chainId: 1337,
    nonce: 0,
    gasLimit: 200_000,
    gasPrice: 2_000_000_000,
    data: deployCode(),
  });
  for (const url of [node.url, anvil.url]) {
    const sent = await rpc(url, 'eth_sendRawTransaction', [raw]);
    expect(sent.error).toBeUndefined();
    let receipt: any;
    for (let i = 0; i < 100 && !receipt; i++) {
      receipt = (await rpc(url, 'eth_getTransactionReceipt', [sent.result])).result;
      if (!receipt) await new Promise((r) => setTimeout(r, 50));
    }
    expect(receipt.status).toBe('0x1');
    probe ??= receipt.contractAddress;
    expect(receipt.contractAddress).toBe(probe);
  }
}, 60_000);

afterAll(async () => {
  await Promise.all([node?.stop(), anvil?.stop()]);
});

const env = {
  number: '0x3039',
  time: '0x65000000',
  gasLimit: '0x1c9c380',
  coinbase: '0x00000000000000000000000000000000000000c0',
  difficulty: '0x2540be400',
};
const envWords = word(0x3039) + word(0x65000000) + word(0x1c9c380) + word(0xc0) + word(0x2540be400);

describe('eth_call with overrides, against Anvil', () => {
  it('stateDiff replaces the listed slots only; balance and the block environment are replaced', async () => {
    const { ours, theirs } = await both('eth_call', [
      { to: probe },
      'latest',
      { [probe]: { balance: '0x1234', stateDiff: { [slot(1)]: slot(42) } } },
      env,
    ]);
    expect(ours.result).toBe(`0x${word(7)}${word(42)}${word(0x1234)}${envWords}`);
    expect(ours).toEqual(theirs);
  });

  it('state replaces the whole storage: unlisted slots read zero', async () => {
    const { ours, theirs } = await both('eth_call', [
      { to: probe },
      'latest',
      { [probe]: { state: { [slot(1)]: slot(42) } } },
      env,
    ]);
    expect(ours.result).toBe(`0x${word(0)}${word(42)}${word(0)}${envWords}`);
    expect(ours).toEqual(theirs);
  });

  it('code placed on an empty account runs with its overridden storage', async () => {
    const fresh = '0x00000000000000000000000000000000000fe11e';
    const params = [
      { to: fresh },
      'latest',
      { [fresh]: { code: `0x${PROBE_RUNTIME}`, stateDiff: { [slot(0)]: slot(5) } } },
      env,
    ];
    const { ours, theirs } = await both('eth_call', params);
    expect(ours.result).toBe(`0x${word(5)}${word(0)}${word(0)}${envWords}`);
    expect(ours).toEqual(theirs);
    // Without the override the account has no code: the call returns nothing.
    expect((await rpc(node.url, 'eth_call', [{ to: fresh }, 'latest'])).result).toBe('0x');
  });

  it('an overridden slot is the original value for SSTORE gas (EIP-2200), as in geth and Anvil', async () => {
    const target = '0x00000000000000000000000000000000000005e7';
    const call = { from: deployer.address, to: target };
    const fresh = await both('eth_estimateGas', [call, 'latest', { [target]: { code: STORE_FIVE } }]);
    const reset = await both('eth_estimateGas', [
      call,
      'latest',
      { [target]: { code: STORE_FIVE, stateDiff: { [slot(0)]: slot(3) } } },
    ]);
    expect(fresh.ours).toEqual(fresh.theirs);
    expect(reset.ours).toEqual(reset.theirs);
    // 0 → 5 sets a fresh slot (20,000); 3 → 5 resets a slot whose original value is 3 (2,900): were 3 only the
    // current value over an original 0, the write would count as a dirty one (100) and cost 2,800 less.
    expect(BigInt(fresh.ours.result) - BigInt(reset.ours.result)).toBe(17_100n);
  });

  it('a balance override lets an unfunded sender pass the affordability checks', async () => {
    const poor = '0x00000000000000000000000000000000000000aa';
    const transfer = { from: poor, to: deployer.address, value: '0xde0b6b3a7640000', gasPrice: '0x3b9aca00' };
    const funded = await both('eth_estimateGas', [transfer, 'latest', { [poor]: { balance: '0x56bc75e2d63100000' } }]);
    expect(funded.ours.result).toBe('0x5208');
    expect(funded.ours).toEqual(funded.theirs);
    const unfunded = await rpc(node.url, 'eth_estimateGas', [transfer, 'latest']);
    expect(unfunded.error.code).toBe(-32000);
  });
});

describe('debug_traceCall with stateOverrides and blockOverrides in its config', () => {
  it('traces the overridden call: the top frame returns what eth_call returns, on both nodes', async () => {
    const overrides = { [probe]: { balance: '0x1234', state: { [slot(0)]: slot(3) } } };
    const config = { tracer: 'callTracer', stateOverrides: overrides, blockOverrides: env };
    const { ours, theirs } = await both('debug_traceCall', [{ to: probe }, 'latest', config]);
    const expected = `0x${word(3)}${word(0)}${word(0x1234)}${envWords}`;
    expect(ours.result.output).toBe(expected);
    expect(theirs.result.output).toBe(expected);
    expect((await rpc(node.url, 'eth_call', [{ to: probe }, 'latest', overrides, env])).result).toBe(expected);
    // Without them the block's storage and environment show.
    const plain = await rpc(node.url, 'debug_traceCall', [{ to: probe }, 'latest', { tracer: 'callTracer' }]);
    expect(plain.result.output.slice(2, 130)).toBe(word(7) + word(9));
  });

  it('refuses random on a proof-of-work chain with -32602, as eth_call does', async () => {
    const { error } = await rpc(node.url, 'debug_traceCall', [
      { to: probe },
      'latest',
      { tracer: 'callTracer', blockOverrides: { random: slot(1) } },
    ]);
    expect(error.code).toBe(-32602);
  });
});

describe('overrides the node refuses', () => {
  it('state together with stateDiff: -32602 naming the account', async () => {
    const { error } = await rpc(node.url, 'eth_call', [
      { to: probe },
      'latest',
      { [probe]: { state: {}, stateDiff: {} } },
    ]);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(`account ${probe.toLowerCase()} has both state and stateDiff`);
  });

  it('random (PREVRANDAO) and baseFee on a proof-of-work chain without EIP-1559: -32602', async () => {
    for (const [field, value] of [
      ['random', slot(1)],
      ['baseFee', '0x7'],
    ]) {
      const { error } = await rpc(node.url, 'eth_call', [{ to: probe }, 'latest', {}, { [field]: value }]);
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(`blockOverrides.${field}`);
    }
  });

  it('an unknown field in an override is refused by the schema', async () => {
    const { error } = await rpc(node.url, 'eth_call', [{ to: probe }, 'latest', { [probe]: { storage: {} } }]);
    expect(error.code).toBe(-32602);
  });
});
