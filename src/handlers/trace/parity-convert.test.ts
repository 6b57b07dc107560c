/** The callTracer → OpenEthereum conversion on hand-made frames: order, addresses, markers, errors. */
import { describe, expect, it } from 'vitest';
import type { CallFrameJson } from '../../chain/index.js';
import { flattenCallFrame, localize, rewardTrace, stateDiffOf } from './parity-convert.js';

const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const C = '0x00000000000000000000000000000000000000cc';
const NEW = '0x00000000000000000000000000000000000000dd';
const D = '0x00000000000000000000000000000000000000d0';
const SHA256 = '0x0000000000000000000000000000000000000002';
const opts = { intrinsicGas: 21_000n, isPrecompile: (a: string) => BigInt(a) >= 1n && BigInt(a) <= 9n };

const tree: CallFrameJson = {
  from: A,
  gas: '0x30d40', // 200,000
  gasUsed: '0x7530', // 30,000
  to: B,
  input: '0x1234',
  output: '0x01',
  calls: [
    { from: B, gas: '0x100', gasUsed: '0x3c', to: SHA256, input: '0x', output: '0xab', type: 'STATICCALL' },
    {
      from: B,
      gas: '0x2000',
      gasUsed: '0x200',
      to: C,
      input: '0x',
      error: 'execution reverted',
      output: '0x08c379a0',
      value: '0x0',
      type: 'DELEGATECALL',
    },
    {
      from: B,
      gas: '0x1000',
      gasUsed: '0x800',
      to: NEW,
      input: '0x6000',
      output: '0x60ff',
      value: '0x5',
      type: 'CREATE',
      calls: [{ from: NEW, gas: '0x0', gasUsed: '0x0', to: A, input: '0x', value: '0x9', type: 'SELFDESTRUCT' }],
    },
    { from: B, gas: '0x10', gasUsed: '0x10', to: C, input: '0x', error: 'write protection', type: 'STATICCALL' },
  ],
  value: '0x7',
  type: 'CALL',
};

describe('flattenCallFrame', () => {
  const traces = flattenCallFrame(tree, opts);

  it('lists parents before children with trace addresses, leaving precompile calls out', () => {
    expect(traces.map((t) => [t.type, t.traceAddress, t.subtraces])).toEqual([
      ['call', [], 3],
      ['call', [0], 0],
      ['create', [1], 1],
      ['suicide', [1, 0], 0],
      ['call', [2], 0],
    ]);
  });

  it('takes the intrinsic gas off the top trace', () => {
    expect(traces[0]).toEqual({
      action: { callType: 'call', from: A, gas: '0x2bb38', input: '0x1234', to: B, value: '0x7' },
      result: { gasUsed: '0x2328', output: '0x01' },
      subtraces: 3,
      traceAddress: [],
      type: 'call',
    });
  });

  it('words a revert as "Reverted" without a result; a DELEGATECALL takes its parent\'s value', () => {
    expect(traces[1]).toEqual({
      action: { callType: 'delegatecall', from: B, gas: '0x2000', input: '0x', to: C, value: '0x7' },
      error: 'Reverted',
      subtraces: 0,
      traceAddress: [0],
      type: 'call',
    });
  });

  it('shapes creations and self-destructs as OpenEthereum does', () => {
    expect(traces[2]).toEqual({
      action: { from: B, gas: '0x1000', init: '0x6000', value: '0x5' },
      result: { address: NEW, code: '0x60ff', gasUsed: '0x800' },
      subtraces: 1,
      traceAddress: [1],
      type: 'create',
    });
    expect(traces[3]).toEqual({
      action: { address: NEW, balance: '0x9', refundAddress: A },
      subtraces: 0,
      traceAddress: [1, 0],
      type: 'suicide',
    });
  });

  it('keeps an error OpenEthereum has no word for, with the gas used; STATICCALL value is zero', () => {
    expect(traces[4]).toMatchObject({
      action: { callType: 'staticcall', value: '0x0' },
      error: 'write protection',
      result: { gasUsed: '0x10' },
    });
  });

  it('localizes traces and makes reward traces', () => {
    const place = {
      blockHash: `0x${'1'.repeat(64)}`,
      blockNumber: 5n,
      transactionHash: `0x${'2'.repeat(64)}`,
      transactionPosition: 0,
    };
    expect(localize(traces[1], place)).toMatchObject({ blockNumber: 5, transactionPosition: 0, error: 'Reverted' });
    expect(rewardTrace(A, 4n * 10n ** 18n, 'block', place)).toEqual({
      action: { author: A, rewardType: 'block', value: '0x3782dace9d900000' },
      blockHash: place.blockHash,
      blockNumber: 5,
      result: null,
      subtraces: 0,
      traceAddress: [],
      transactionHash: null,
      transactionPosition: null,
      type: 'reward',
    });
  });
});

describe('stateDiffOf', () => {
  const w = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
  it('marks born, died, changed and unchanged fields and slots', () => {
    const diff = stateDiffOf({
      pre: {
        [A]: { balance: '0x100', nonce: 1 },
        [B]: { balance: '0x0', code: '0x60', nonce: 1, storage: { [w(1)]: w(5), [w(2)]: w(6) } },
        [C]: { balance: '0x9', code: '0xff', nonce: 1 },
        [D]: { balance: '0x0' },
      },
      post: {
        [A]: { balance: '0x90', nonce: 2 },
        [B]: { storage: { [w(1)]: w(7), [w(3)]: w(8) } },
        [NEW]: { code: '0x60ff', nonce: 1 },
        [D]: { balance: '0x5' },
      },
    });
    expect(diff[A]).toEqual({
      balance: { '*': { from: '0x100', to: '0x90' } },
      code: '=',
      nonce: { '*': { from: '0x1', to: '0x2' } },
      storage: {},
    });
    expect(diff[B]).toEqual({
      balance: '=',
      code: '=',
      nonce: '=',
      storage: {
        [w(1)]: { '*': { from: w(5), to: w(7) } },
        [w(2)]: { '*': { from: w(6), to: w(0) } },
        [w(3)]: { '*': { from: w(0), to: w(8) } },
      },
    });
    expect(diff[C]).toEqual({ balance: { '-': '0x9' }, code: { '-': '0xff' }, nonce: { '-': '0x1' }, storage: {} });
    // An empty account that receives value is born, as in core-geth.
    expect(diff[D]).toEqual({ balance: { '+': '0x5' }, code: { '+': '0x' }, nonce: { '+': '0x0' }, storage: {} });
    expect(diff[NEW]).toEqual({ balance: { '+': '0x0' }, code: { '+': '0x60ff' }, nonce: { '+': '0x1' }, storage: {} });
  });
});
