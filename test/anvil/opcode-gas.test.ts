/**
 * trace_transactionOpcodeGas and trace_blockOpcodeGas (reth's; Anvil has them only after 1.7.1, which answers
 * -32601, so the expected figures are the Yellow Paper's): a contract whose runtime is CALLVALUE, PUSH1 0, MSTORE,
 * PUSH1 7, PUSH1 32, PUSH1 0, LOG1, STOP, called once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, post, request } from '../helpers/rpc.js';

const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const LOGGER = '0x600c600c600039600c6000f334600052600760206000a100';

let node: NodeProcess;
beforeAll(async () => {
  node = await startNode({ args: ['--no-p2p'] });
});
afterAll(async () => {
  await node?.stop();
});

const receipt = (hash: string) =>
  call<{ contractAddress: string | null; blockNumber: string }>(node.url, 'eth_getTransactionReceipt', [hash]);

describe('trace_transactionOpcodeGas, trace_blockOpcodeGas', () => {
  it('count each opcode and the gas its steps cost', async () => {
    const deploy = await call<string>(node.url, 'eth_sendTransaction', [{ from: A0, data: LOGGER, gas: '0x30000' }]);
    const contract = (await receipt(deploy)).contractAddress!;
    const hash = await call<string>(node.url, 'eth_sendTransaction', [
      { from: A0, to: contract, value: '0x5', gas: '0x30000' },
    ]);
    const expected = [
      { opcode: 'CALLVALUE', count: 1, gasUsed: 2 },
      { opcode: 'PUSH1', count: 4, gasUsed: 12 },
      // 3, and 3 to grow memory to one word.
      { opcode: 'MSTORE', count: 1, gasUsed: 6 },
      // 375 + 375 per topic + 8 per byte of data.
      { opcode: 'LOG1', count: 1, gasUsed: 1006 },
      { opcode: 'STOP', count: 1, gasUsed: 0 },
    ];
    expect(await call(node.url, 'trace_transactionOpcodeGas', [hash])).toEqual({
      transactionHash: hash,
      opcodeGas: expected,
    });
    const { blockNumber } = await receipt(hash);
    const block = await call<{ hash: string }>(node.url, 'eth_getBlockByNumber', [blockNumber, false]);
    expect(await call(node.url, 'trace_blockOpcodeGas', [blockNumber])).toEqual({
      blockHash: block.hash,
      blockNumber: Number(blockNumber),
      transactions: [{ transactionHash: hash, opcodeGas: expected }],
    });
  });

  it('answer null for an unknown transaction and -32001 for an unknown block', async () => {
    expect(await call(node.url, 'trace_transactionOpcodeGas', [`0x${'11'.repeat(32)}`])).toBeNull();
    const { body } = await post(node.url, request('trace_blockOpcodeGas', ['0xffffff']));
    expect(body.error?.code).toBe(-32001);
  });
});
