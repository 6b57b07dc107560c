/**
 * An automined send answers once its block is the head; the pool's refresh for that block (the mined transaction out,
 * its sender's nonce and balance read again) runs after the answer is written (txpool/settle.ts, TxPool.onBlockAdded).
 * Whatever the client asks next must still see all of it: here the next requests are pipelined behind the send on one
 * connection, the tightest a client can follow (the fast path has them before the answer is even written).
 * The second case signs its transaction here, so its receipt and logs can be asked for by hash behind it.
 */
import { connect, type Socket } from 'node:net';
import { keccak256, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
beforeAll(async () => {
  node = await startNode();
});
afterAll(async () => {
  await node?.stop();
});

const request = (id: number, method: string, params: unknown[]) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  return `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

/** The JSON bodies of the first `count` answers on `socket` (each with a Content-Length). */
function answers(socket: Socket, count: number): Promise<Array<{ id: number; result?: unknown; error?: unknown }>> {
  return new Promise((resolve, reject) => {
    let text = '';
    const bodies: string[] = [];
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      for (;;) {
        const head = text.indexOf('\r\n\r\n');
        if (head < 0) break;
        const length = Number(/content-length: (\d+)/i.exec(text.slice(0, head))?.[1]);
        if (text.length < head + 4 + length) break;
        bodies.push(text.slice(head + 4, head + 4 + length));
        text = text.slice(head + 4 + length);
      }
      if (bodies.length >= count) resolve(bodies.map((b) => JSON.parse(b)));
    });
  });
}

describe('requests right behind an automined send', () => {
  it('see the pool, the nonces and the block of the send, pipelined on its connection', async () => {
    const from = DEV_ACCOUNTS[7]!.address;
    const to = DEV_ACCOUNTS[8]!.address;
    for (let round = 0; round < 5; round++) {
      const socket = await new Promise<Socket>((resolve) => {
        const s = connect(node.port, '127.0.0.1', () => resolve(s));
      });
      const got = answers(socket, 6);
      socket.write(
        request(1, 'eth_sendTransaction', [{ from, to, value: '0x1' }]) +
          request(2, 'txpool_status', []) +
          request(3, 'eth_getTransactionCount', [from, 'pending']) +
          request(4, 'eth_getTransactionCount', [from, 'latest']) +
          request(5, 'txpool_content', []) +
          request(6, 'eth_getBlockByNumber', ['latest', false]),
      );
      const [sent, status, pending, latest, content, block] = await got;
      socket.destroy();
      expect(sent!.error).toBeUndefined();
      expect(status!.result).toEqual({ pending: '0x0', queued: '0x0' });
      expect(pending!.result).toBe(`0x${(round + 1).toString(16)}`);
      expect(latest!.result).toBe(`0x${(round + 1).toString(16)}`);
      expect(content!.result).toEqual({ pending: {}, queued: {} });
      expect((block!.result as { transactions: string[] }).transactions).toEqual([sent!.result]);
    }
  });

  it('see the receipt and the logs of a signed send, pipelined on its connection', async () => {
    const wallet = new Wallet(DEV_ACCOUNTS[9]!.privateKey);
    // A creation whose constructor logs one word (LOG0 of 0x…2a) and leaves no code.
    const data = '0x602a60005260206000a000';
    for (let nonce = 0; nonce < 3; nonce++) {
      const raw = await wallet.signTransaction({
        nonce,
        to: null,
        data,
        gasLimit: 100_000,
        gasPrice: 10n ** 9n,
        chainId: 1337,
      });
      const hash = keccak256(raw);
      const socket = await new Promise<Socket>((resolve) => {
        const s = connect(node.port, '127.0.0.1', () => resolve(s));
      });
      const got = answers(socket, 4);
      socket.write(
        request(1, 'eth_sendRawTransaction', [raw]) +
          request(2, 'eth_getTransactionReceipt', [hash]) +
          request(3, 'eth_getLogs', [{ fromBlock: 'latest', toBlock: 'latest' }]) +
          request(4, 'eth_getTransactionCount', [wallet.address, 'pending']),
      );
      const [sent, receipt, logs, pending] = await got;
      socket.destroy();
      expect(sent!.result).toBe(hash);
      const r = receipt!.result as { status: string; logs: { data: string }[]; blockNumber: string };
      expect(r.status).toBe('0x1');
      expect(r.logs.map((l) => l.data)).toEqual([`0x${'2a'.padStart(64, '0')}`]);
      const found = logs!.result as { transactionHash: string; data: string }[];
      expect(found.map((l) => [l.transactionHash, l.data])).toEqual([[hash, `0x${'2a'.padStart(64, '0')}`]]);
      expect(pending!.result).toBe(`0x${(nonce + 1).toString(16)}`);
    }
  });
});
