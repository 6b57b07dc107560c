/**
 * eth_sendRawTransaction against the node process: every pool rejection reason surfaces as -32003 with the
 * pool's message, undecodable bytes as -32602; and eth_sendTransaction / eth_sign from node-held dev accounts
 * and from a locked keystore account.
 */
import { HDNodeWallet, Transaction, Wallet, verifyMessage, type TransactionLike } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, DEV_MNEMONIC } from '../../../src/chain/networks/devAccounts.js';
import { createClient, httpTransport, RpcClientError, type RpcClient } from '../../../clients/typescript/src/client.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { asHex } from '../contracts.js';
import { sendRawBatch } from './read-helpers.js';

let node: NodeProcess;
let client: RpcClient;
const sender = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/3");
const recipient = asHex(Wallet.createRandom().address);
const GWEI = 1_000_000_000n;

beforeAll(async () => {
  node = await startNode({ args: ['--lightkdf'] }); // light scrypt for the one keystore account made here
  client = createClient(httpTransport(node.url));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await node?.stop();
});

const transfer = (fields: TransactionLike = {}): TransactionLike => ({
  type: 0,
  chainId: 1337n,
  to: recipient,
  value: 1n,
  gasLimit: 21_000n,
  gasPrice: GWEI,
  nonce: 0,
  ...fields,
});

async function rpcError(call: Promise<unknown>): Promise<RpcClientError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(RpcClientError);
    return error as RpcClientError;
  }
  throw new Error('expected the node to answer an error');
}

const sign = async (fields: TransactionLike) => asHex(await sender.signTransaction(fields));

async function nextNonce(address: string): Promise<number> {
  return Number(BigInt(await client.eth_getTransactionCount(asHex(address), 'pending')));
}

describe('eth_sendRawTransaction', () => {
  it('pools and (dev automine) mines a signed transfer before answering', async () => {
    const hash = await client.eth_sendRawTransaction(await sign(transfer({ nonce: await nextNonce(sender.address) })));
    const receipt = await client.eth_getTransactionReceipt(hash);
    expect(receipt).toMatchObject({ transactionHash: hash, status: '0x1', from: sender.address.toLowerCase() });
  });

  it('answers a batch of sends once all are mined, and lets them share blocks instead of one block each', async () => {
    const first = await nextNonce(sender.address);
    const raws = await Promise.all(Array.from({ length: 30 }, (_, i) => sign(transfer({ nonce: first + i }))));
    const before = BigInt(await client.eth_blockNumber());
    const hashes = await sendRawBatch(node.url, raws);
    const receipts = await Promise.all(hashes.map((hash) => client.eth_getTransactionReceipt(asHex(hash))));
    expect(receipts.map((r) => r?.status)).toEqual(hashes.map(() => '0x1'));
    const blocks = new Set(receipts.map((r) => r!.blockNumber));
    expect(BigInt(await client.eth_blockNumber()) - before).toBe(BigInt(blocks.size));
    // Sharing, not a fixed packing: with the dev write-behind a block is sealed as soon as the one before is the
    // in-memory head, so how many sends one block catches depends on the machine; one block each would be 30.
    expect(blocks.size).toBeLessThan(hashes.length / 2);
  });

  it.each([
    ['nonce too low', async () => transfer({ nonce: 0 }), /^nonce too low: /],
    [
      'insufficient funds',
      async () => transfer({ gasPrice: 10n ** 30n, nonce: await nextNonce(sender.address) }),
      /^insufficient funds for gas \* price \+ value: /,
    ],
    [
      'intrinsic gas too low',
      async () => transfer({ gasLimit: 20_999n, nonce: await nextNonce(sender.address) }),
      /^intrinsic gas too low: /,
    ],
    [
      'gas limit above the block limit',
      async () => transfer({ gasLimit: 100_000_000n, nonce: await nextNonce(sender.address) }),
      /^exceeds block gas limit: /,
    ],
    [
      'chain id mismatch',
      async () => transfer({ chainId: 61n, nonce: await nextNonce(sender.address) }),
      /^invalid chain id: .*chain id 61, this network is chain id 1337$/,
    ],
  ])('rejects %s with -32003 and the reason', async (_name, fields, message) => {
    const error = await rpcError(client.eth_sendRawTransaction(await sign(await fields())));
    expect(error.code).toBe(-32003);
    expect(error.message).toMatch(message);
  });

  it('rejects an underpriced replacement and a known transaction with -32003', async () => {
    // A nonce gap keeps the transaction queued in the pool (automine only seals executable ones).
    const nonce = (await nextNonce(sender.address)) + 5;
    const queued = await sign(transfer({ nonce }));
    await client.eth_sendRawTransaction(queued);
    const known = await rpcError(client.eth_sendRawTransaction(queued));
    expect(known).toMatchObject({ code: -32003, message: expect.stringMatching(/^already known/) });
    const cheap = await rpcError(client.eth_sendRawTransaction(await sign(transfer({ nonce, gasPrice: GWEI + 1n }))));
    expect(cheap.code).toBe(-32003);
    expect(cheap.message).toMatch(/^replacement transaction underpriced: /);
    // +10% is enough.
    expect(await client.eth_sendRawTransaction(await sign(transfer({ nonce, gasPrice: (GWEI * 11n) / 10n })))).toMatch(
      /^0x[0-9a-f]{64}$/,
    );
  });

  it('answers -32602 for bytes that are no transaction', async () => {
    const error = await rpcError(client.eth_sendRawTransaction('0xc0ffee'));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^could not decode transaction/);
  });
});

describe('eth_sendTransaction and eth_sign with node-held and keystore accounts', () => {
  const dev = asHex(DEV_ACCOUNTS[4]!.address);

  it('sends from a dev account out of the box, filling nonce, gas and gas price', async () => {
    const before = await client.eth_getBalance(recipient, 'latest');
    const suggested = await client.eth_gasPrice();
    const hash = await client.eth_sendTransaction({ from: dev, to: recipient, value: '0x64' });
    const tx = await client.eth_getTransactionByHash(hash);
    expect(tx).toMatchObject({
      from: dev.toLowerCase(),
      gas: '0x5208',
      gasPrice: suggested,
      nonce: '0x0',
      chainId: '0x539',
    });
    expect((await client.eth_getTransactionReceipt(hash))?.status).toBe('0x1');
    expect(BigInt(await client.eth_getBalance(recipient, 'latest')) - BigInt(before)).toBe(100n);
    // The signature is EIP-155 for chain 1337 and recovers to the dev account.
    const raw = await client.eth_getRawTransactionByHash(hash);
    expect(Transaction.from(raw!)).toMatchObject({ from: dev, chainId: 1337n });
  });

  it('accepts gasLimit for gas and input for data, and takes the given nonce and price', async () => {
    const nonce = await nextNonce(dev);
    const hash = await client.eth_sendTransaction({
      from: dev,
      to: recipient,
      gasLimit: '0x7530',
      gasPrice: '0x77359400',
      input: '0x',
      nonce: `0x${nonce.toString(16)}`,
    });
    expect(await client.eth_getTransactionByHash(hash)).toMatchObject({
      gas: '0x7530',
      gasPrice: '0x77359400',
      nonce: `0x${nonce.toString(16)}`,
    });
  });

  it('answers the pool reason as -32003 for a request the pool refuses', async () => {
    const error = await rpcError(client.eth_sendTransaction({ from: dev, to: recipient, nonce: '0x0' }));
    expect(error.code).toBe(-32003);
    expect(error.message).toMatch(/^nonce too low/);
  });

  it('answers -32000 "account is locked or unknown" for a locked keystore account and an unknown one', async () => {
    const locked = await client.personal_newAccount('a passphrase');
    for (const from of [locked, asHex(Wallet.createRandom().address)]) {
      const error = await rpcError(client.eth_sendTransaction({ from, to: recipient, value: '0x1' }));
      expect(error).toMatchObject({ code: -32000, message: 'account is locked or unknown' });
      expect(await rpcError(client.eth_sign(from, '0x1234'))).toMatchObject({
        code: -32000,
        message: 'account is locked or unknown',
      });
    }
  }, 20_000);

  it('signs an EIP-191 message with eth_sign', async () => {
    const signature = await client.eth_sign(dev, '0x68656c6c6f');
    expect(verifyMessage('hello', signature)).toBe(dev);
  });
});
