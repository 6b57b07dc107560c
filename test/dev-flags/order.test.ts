/**
 * `--order fifo` vs the default `fees`, seen in a block's transaction order: with automine off, a cheap transaction
 * sent first and a dear one sent second (two senders) land dear-first by fees and cheap-first in fifo, as Anvil's
 * `--order` orders them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

const A = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const B = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const TO = '0x7777777777777777777777777777777777777777';
let fees: NodeProcess;
let fifo: NodeProcess;

beforeAll(async () => {
  [fees, fifo] = await Promise.all([
    startNode({ args: ['--no-p2p'] }),
    startNode({ args: ['--no-p2p', '--order', 'fifo'] }),
  ]);
});

afterAll(async () => {
  await Promise.all([fees?.stop(), fifo?.stop()]);
});

/** The block's transaction hashes after a cheap send from A, then a dear one from B, mined together. */
async function orderIn(url: string): Promise<{ cheap: string; dear: string; block: string[] }> {
  await call(url, 'evm_setAutomine', [false]);
  const cheap = await call<string>(url, 'eth_sendTransaction', [
    { from: A, to: TO, value: '0x1', gasPrice: '0x3b9aca00' },
  ]);
  const dear = await call<string>(url, 'eth_sendTransaction', [
    { from: B, to: TO, value: '0x1', gasPrice: '0x12a05f200' },
  ]);
  await call(url, 'evm_mine', []);
  const block = await call<{ transactions: string[] }>(url, 'eth_getBlockByNumber', ['latest', false]);
  return { cheap, dear, block: block.transactions };
}

describe('--order', () => {
  it('fees: the dearer transaction first', async () => {
    const { cheap, dear, block } = await orderIn(fees.url);
    expect(block).toEqual([dear, cheap]);
  });

  it('fifo: the first sent first, whatever it pays', async () => {
    const { cheap, dear, block } = await orderIn(fifo.url);
    expect(block).toEqual([cheap, dear]);
  });
});
