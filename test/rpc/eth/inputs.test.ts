/**
 * Issue 17 against a real node process: the inputs standard clients send, answered right. Storage slots in any
 * spelling of 0 to 32 bytes, EIP-1898 block objects (and block hashes, and no block at all) on every state
 * method with -32001 for an unknown block and -32000 for `requireCanonical` off the canonical chain, `safe` and
 * `finalized` as -39001, `input` beside `data`, null for optional params, decimal chainId refused with a clear
 * message, and the standard's transaction fields Ethereum Classic has no use for.
 *
 * The chain (test mode, Berlin rules): genesis holds contract C (slot 0 = 42; its code returns slot 1 and sets it
 * to 1); block 1 is empty; block 2 calls C (slot 1 becomes 1) and creates contract D. Every state method answers
 * differently at blocks 1 and 2, so a block param that were ignored would show.
 */
import { Wallet, getCreateAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { post, request } from '../../helpers/rpc.js';

const CHAIN_ID = 61;
const SENDER = new Wallet('0x45a915e4d060149eb4365960e6a7a45f334393093061116b197e3240065ff2d8');
const C = '0x0c0000000000000000000000000000000000000c';
/** PUSH1 1 SLOAD, MSTORE at 0; SSTORE(1, 1); RETURN the 32 bytes: the old value of slot 1. */
const C_CODE = '600154600052600160015560206000f3';
const D = getCreateAddress({ from: SENDER.address, nonce: 1 }).toLowerCase();
/** Init code of D: PUSH16 C_CODE, MSTORE at 0, RETURN its last 16 bytes (so D runs C's code). */
const D_INIT = `0x6f${C_CODE}60005260106010f3`;
const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`;

const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const q = (n: number) => `0x${n.toString(16)}`;

let node: NodeProcess;
let hash1: string;
let hash2: string;

type Answer = { result?: any; error?: { code: number; message: string } };

async function call(method: string, params: unknown[]): Promise<Answer> {
  return (await post(node.url, request(method, params))).body as Answer;
}

async function ok(method: string, params: unknown[]): Promise<any> {
  const body = await call(method, params);
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return body.result;
}

async function signed(nonce: number, to: string | null, data: string, gasLimit: number): Promise<string> {
  return SENDER.signTransaction({
    type: 0,
    chainId: CHAIN_ID,
    nonce,
    to,
    data,
    gasLimit,
    gasPrice: 1_000_000_000n,
    value: 0n,
  });
}

beforeAll(async () => {
  node = await startNode({ args: ['--testmode', '--network', 'dev'] });
  await ok('test_setChainParams', [
    {
      params: { fork: 'Berlin', chainID: q(CHAIN_ID) },
      sealEngine: 'NoProof',
      genesis: {
        author: '0x8888f1f195afa192cfee860698584c030f4c9db1',
        difficulty: '0x020000',
        gasLimit: '0x7a1200',
        extraData: '0x',
        timestamp: '0x54c98c81',
        nonce: '0x0000000000000000',
        mixHash: word(0),
      },
      accounts: {
        [SENDER.address.toLowerCase()]: { balance: '0x56bc75e2d63100000', nonce: '0x00', code: '0x', storage: {} },
        [C]: { balance: '0x00', nonce: '0x01', code: `0x${C_CODE}`, storage: { '0x00': '0x2a' } },
      },
    },
  ]);
  await ok('test_mineBlocks', [1]);
  await ok('eth_sendRawTransaction', [await signed(0, C, '0x', 100_000)]);
  await ok('eth_sendRawTransaction', [await signed(1, null, D_INIT, 200_000)]);
  await ok('test_mineBlocks', [1]);
  const [b1, b2] = await Promise.all([
    ok('eth_getBlockByNumber', ['0x1', false]),
    ok('eth_getBlockByNumber', ['0x2', false]),
  ]);
  expect(b2.transactions).toHaveLength(2);
  hash1 = b1.hash;
  hash2 = b2.hash;
}, 60_000);
afterAll(async () => node?.stop());

/** Each state method with its params before the block; `pick` keeps the part of the answer that depends on the block. */
const STATE_METHODS: ReadonlyArray<{ method: string; before: unknown[]; pick?: (r: any) => unknown }> = [
  { method: 'eth_getBalance', before: [SENDER.address] },
  { method: 'eth_getCode', before: [D] },
  { method: 'eth_getStorageAt', before: [C, '0x01'] },
  { method: 'eth_getTransactionCount', before: [SENDER.address] },
  { method: 'eth_getStorageRoot', before: [C] },
  { method: 'eth_getProof', before: [C, ['0x1']], pick: (r) => [r.storageHash, r.storageProof[0].value] },
  { method: 'eth_call', before: [{ to: C }] },
  { method: 'eth_estimateGas', before: [{ from: SENDER.address, to: C }] },
];

const answerAt = async (m: (typeof STATE_METHODS)[number], block: unknown): Promise<unknown> => {
  const result = await ok(m.method, [...m.before, block]);
  return m.pick ? m.pick(result) : result;
};

describe('storage slots in any spelling of 0 to 32 bytes', () => {
  it('0x, 0x0, 0x00, 20 and 32 zero bytes all read slot 0', async () => {
    for (const slot of ['0x', '0x0', '0x00', `0x${'00'.repeat(20)}`, word(0)]) {
      expect(await ok('eth_getStorageAt', [C, slot, 'latest']), slot).toBe(word(42));
    }
  });

  it('0x1, 0x01, a 20-byte and a 32-byte slot all read slot 1', async () => {
    for (const slot of ['0x1', '0x01', `0x${'00'.repeat(19)}01`, word(1)]) {
      expect(await ok('eth_getStorageAt', [C, slot, 'latest']), slot).toBe(word(1));
    }
    expect(await ok('eth_getStorageAt', [C, '0x02', 'latest'])).toBe(word(0));
  });

  it('more than 32 bytes is -32602', async () => {
    const answer = await call('eth_getStorageAt', [C, `0x${'00'.repeat(32)}01`, 'latest']);
    expect(answer.error?.code).toBe(-32602);
  });

  it('eth_getProof proves any spelling and answers each key in its strict form', async () => {
    const proof = await ok('eth_getProof', [C, ['0x01', '0x1', '0x', word(1)], 'latest']);
    expect(proof.storageProof.map((p: { key: string; value: string }) => [p.key, p.value])).toEqual([
      ['0x1', '0x1'],
      ['0x1', '0x1'],
      ['0x0', '0x2a'],
      [word(1), '0x1'],
    ]);
  });
});

describe('EIP-1898 block objects and block hashes on every state method', () => {
  it.each(STATE_METHODS)('$method: each form names the block it says, and blocks 1 and 2 differ', async (m) => {
    const at1 = await answerAt(m, '0x1');
    const at2 = await answerAt(m, '0x2');
    expect(at1).not.toEqual(at2);
    for (const [n, hash, expected] of [
      [1, hash1, at1],
      [2, hash2, at2],
    ] as const) {
      for (const form of [
        hash,
        { blockHash: hash },
        { blockHash: hash, requireCanonical: true },
        { blockHash: hash, requireCanonical: false },
        { blockNumber: q(n) },
      ]) {
        expect(await answerAt(m, form), JSON.stringify(form)).toEqual(expected);
      }
    }
    // No block (or null) is latest.
    expect(await ok(m.method, m.before).then((r) => (m.pick ? m.pick(r) : r))).toEqual(at2);
    expect(await answerAt(m, null)).toEqual(at2);
    expect(await answerAt(m, { blockNumber: 'latest' })).toEqual(at2);
  });

  it.each(STATE_METHODS)('$method: an unknown block is -32001, safe/finalized -39001', async (m) => {
    for (const form of [
      UNKNOWN_HASH,
      { blockHash: UNKNOWN_HASH },
      { blockHash: UNKNOWN_HASH, requireCanonical: true },
      { blockNumber: '0x9' },
      '0x9',
    ]) {
      const answer = await call(m.method, [...m.before, form]);
      expect(answer.error?.code, JSON.stringify(form)).toBe(-32001);
      expect(answer.error?.message).toMatch(/^Block 0x(ab){32}|^Block 0x9 not found/);
    }
    for (const tag of ['safe', 'finalized']) {
      const answer = await call(m.method, [...m.before, tag]);
      expect(answer.error).toEqual({
        code: -39001,
        message: `Unknown block: Ethereum Classic is proof-of-work, no block is ever ${tag}`,
      });
    }
  });

  it('eth_getBlockReceipts takes the objects too', async () => {
    const byNumber = await ok('eth_getBlockReceipts', ['0x2']);
    expect(byNumber).toHaveLength(2);
    expect(await ok('eth_getBlockReceipts', [{ blockHash: hash2, requireCanonical: true }])).toEqual(byNumber);
    expect(await ok('eth_getBlockReceipts', [{ blockNumber: '0x2' }])).toEqual(byNumber);
    expect(await ok('eth_getBlockReceipts', [{ blockHash: UNKNOWN_HASH }])).toBeNull();
  });
});

describe('call and transaction objects', () => {
  it('input is a synonym of data; both given and different is -32602', async () => {
    const viaData = await ok('eth_call', [{ to: C, data: '0x12' }, 'latest']);
    expect(await ok('eth_call', [{ to: C, input: '0x12' }, 'latest'])).toBe(viaData);
    expect(await ok('eth_call', [{ to: C, input: '0x12', data: '0x12' }, 'latest'])).toBe(viaData);
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const both = await call(method, [{ to: C, input: '0x12', data: '0x34' }]);
      expect(both.error?.code).toBe(-32602);
      expect(both.error?.message).toContain('both "data" and "input" are set and not equal');
    }
  });

  it('a decimal chainId is -32602 with the hex it should have been; the right hex one runs, another chain is refused', async () => {
    for (const chainId of [61, '61']) {
      const answer = await call('eth_call', [{ to: C, chainId }]);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toContain(
        `field chainId must be a quantity: lowercase hex with no leading zeros, 0x-prefixed; zero is 0x0; ` +
          `got ${JSON.stringify(chainId)}, which is decimal: quantities are 0x-prefixed hex, here "0x3d"`,
      );
    }
    expect(await ok('eth_call', [{ to: C, chainId: '0x3d' }])).toBe(word(1));
    const other = await call('eth_call', [{ to: C, chainId: '0x1' }]);
    expect(other.error).toEqual({
      code: -32000,
      message: 'invalid chain id: the request is for chain id 1, this network is chain id 61',
    });
    const send = await call('eth_sendTransaction', [{ from: SENDER.address, to: C, chainId: 61 }]);
    expect(send.error?.code).toBe(-32602);
    expect(send.error?.message).toContain('got 61, which is decimal');
  });

  it("the standard's fee-market fields run as geth runs them before London; blob and set-code fields are refused", async () => {
    expect(
      await ok('eth_call', [{ to: C, type: '0x2', maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1' }]),
    ).toBe(word(1));
    expect(await ok('eth_call', [{ to: C, blobVersionedHashes: [], authorizationList: [] }])).toBe(word(1));
    const both = await call('eth_call', [{ to: C, gasPrice: '0x1', maxFeePerGas: '0x1' }]);
    expect(both.error?.code).toBe(-32602);
    const blob = await call('eth_estimateGas', [{ to: C, blobVersionedHashes: [UNKNOWN_HASH] }]);
    expect(blob.error).toEqual({
      code: -32602,
      message:
        'invalid params for eth_estimateGas: blobVersionedHashes belongs to blob transactions (EIP-4844), which Ethereum Classic does not have',
    });
    const auth = await call('eth_call', [{ to: C, authorizationList: [{ address: C }] }]);
    expect(auth.error?.message).toContain('EIP-7702');
  });

  it('a nonce or gas wider than 64 bits, or a value or gas price wider than 256, is -32602 on calls and sends', async () => {
    // Found by the fuzzer: signing a send with such a field threw inside the library and answered -32603.
    const [from] = (await ok('eth_accounts', [])) as string[];
    const wide64 = `0x1${'0'.repeat(16)}`;
    const wide256 = `0x1${'0'.repeat(64)}`;
    const fields = [{ gas: wide64 }, { nonce: wide64 }, { value: wide256 }, { gasPrice: wide256 }];
    for (const method of ['eth_call', 'eth_estimateGas', 'eth_sendTransaction']) {
      for (const field of fields) {
        const answer = await call(method, [{ from, to: C, ...field }]);
        const [name, hex] = Object.entries(field)[0]!;
        expect(answer.error, `${method} ${name}`).toEqual({
          code: -32602,
          message: `invalid params: ${name} ${hex} is wider than ${hex === wide64 ? 64 : 256} bits`,
        });
      }
    }
    const gasLimit = await call('eth_sendTransaction', [{ from, to: C, gasLimit: wide64 }]);
    expect(gasLimit.error?.message).toBe(`invalid params: gasLimit ${wide64} is wider than 64 bits`);
    // The widest numbers that fit pass this check: a 64-bit gas runs with the gas cap, a 256-bit value runs out of funds.
    expect((await call('eth_call', [{ from, to: C, gas: `0x${'f'.repeat(16)}` }])).result).toMatch(/^0x/);
    expect((await call('eth_call', [{ from, to: C, value: `0x${'f'.repeat(64)}` }])).error?.message).toContain(
      'insufficient funds',
    );
  });

  it('null for an optional param is the param left out', async () => {
    expect(await ok('eth_call', [{ to: C }, null])).toBe(word(1));
    expect(await ok('eth_estimateGas', [{ from: SENDER.address, to: C }, null])).toBe(
      await ok('eth_estimateGas', [{ from: SENDER.address, to: C }]),
    );
    expect(await ok('eth_getTransactionCount', [SENDER.address, null])).toBe('0x2');
  });
});

describe('block tags the standard lists that a proof-of-work chain never has', () => {
  it('safe and finalized answer -39001 on block reads and log queries', async () => {
    for (const [method, params] of [
      ['eth_getBlockByNumber', ['safe', false]],
      ['eth_getBlockTransactionCountByNumber', ['finalized']],
      ['eth_getBlockReceipts', ['safe']],
      ['eth_getLogs', [{ fromBlock: 'finalized' }]],
      ['eth_newFilter', [{ toBlock: 'safe' }]],
    ] as const) {
      expect((await call(method, [...params])).error?.code, method).toBe(-39001);
    }
  });

  it('a filter with null address and topics matches any log', async () => {
    expect(await ok('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: null, topics: null }])).toEqual([]);
  });
});

// Last: the rewind changes the chain the tests above read.
describe('EIP-1898 requireCanonical, after a rewind leaves block 2 off the canonical chain', () => {
  let answersAt2: unknown[];
  beforeAll(async () => {
    answersAt2 = await Promise.all(STATE_METHODS.map((m) => answerAt(m, '0x2')));
    await ok('test_rewindToBlock', [1]);
    expect((await ok('eth_getBlockByNumber', ['latest', false])).hash).toBe(hash1);
  });

  it.each(STATE_METHODS.map((m, i) => [m.method, i] as const))(
    '%s: the hash still reads block 2, requireCanonical refuses it with -32000, its number is gone',
    async (_name, i) => {
      const m = STATE_METHODS[i]!;
      expect(await answerAt(m, hash2)).toEqual(answersAt2[i]);
      expect(await answerAt(m, { blockHash: hash2 })).toEqual(answersAt2[i]);
      const refused = await call(m.method, [...m.before, { blockHash: hash2, requireCanonical: true }]);
      expect(refused.error).toEqual({
        code: -32000,
        message: `Block ${hash2} is not on the canonical chain (requireCanonical is true)`,
      });
      expect((await call(m.method, [...m.before, { blockNumber: '0x2' }])).error?.code).toBe(-32001);
    },
  );

  it('eth_getBlockReceipts: requireCanonical refuses the side block too', async () => {
    expect(await ok('eth_getBlockReceipts', [{ blockHash: hash2 }])).toHaveLength(2);
    expect((await call('eth_getBlockReceipts', [{ blockHash: hash2, requireCanonical: true }])).error?.code).toBe(
      -32000,
    );
  });
});
