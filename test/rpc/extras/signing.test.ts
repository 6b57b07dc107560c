/**
 * eth_signTypedData_v4 and eth_signTransaction for node-held accounts: ethers' JsonRpcSigner and viem's wallet
 * client sign EIP-712 data through the node and the signature recovers to the node's account; a signed transaction
 * comes back as geth's {raw, tx} and is accepted by eth_sendRawTransaction; a locked or unknown account gets eth_sign's
 * -32000, and an EIP-1559 request the -32003 refusal.
 */
import { JsonRpcProvider, Transaction, type TypedDataField, Wallet, verifyTypedData } from 'ethers';
import { createWalletClient, http, recoverTypedDataAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { ok, rpc } from './foundry.js';

let node: NodeProcess;
const account = DEV_ACCOUNTS[4].address as `0x${string}`;
const stranger = Wallet.createRandom().address;

const domain = { name: 'Ether Mail', version: '1', chainId: 1337, verifyingContract: `0x${'cc'.repeat(20)}` } as const;
const types = {
  Person: [
    { name: 'name', type: 'string' },
    { name: 'wallet', type: 'address' },
  ],
  Mail: [
    { name: 'from', type: 'Person' },
    { name: 'to', type: 'Person' },
    { name: 'contents', type: 'string' },
    { name: 'amounts', type: 'uint256[]' },
  ],
} as const;
const message = {
  from: { name: 'Cow', wallet: `0x${'cd'.repeat(20)}` },
  to: { name: 'Bob', wallet: `0x${'bb'.repeat(20)}` },
  contents: 'Hello, Bob!',
  amounts: [1n, 2n ** 200n],
} as const;

beforeAll(async () => {
  node = await startNode();
});
afterAll(async () => {
  await node?.stop();
});

describe('eth_signTypedData_v4', () => {
  it("ethers' JsonRpcSigner: the signature recovers to the node's account", async () => {
    const provider = new JsonRpcProvider(node.url, 1337, { staticNetwork: true, cacheTimeout: -1 });
    try {
      const signer = await provider.getSigner(account);
      const fields = types as unknown as Record<string, TypedDataField[]>;
      const signature = await signer.signTypedData(domain, fields, message);
      expect(verifyTypedData(domain, fields, message, signature)).toBe(account);
    } finally {
      provider.destroy();
    }
  });

  it("viem's wallet client (JSON-RPC account): the signature recovers to the node's account", async () => {
    const wallet = createWalletClient({ account, transport: http(node.url) });
    const typed = { domain, types, primaryType: 'Mail', message } as const;
    const signature = await wallet.signTypedData(typed);
    expect(await recoverTypedDataAddress({ ...typed, signature })).toBe(account);
  });

  it('an account the node does not hold: -32000 as eth_sign; data that does not encode: -32602', async () => {
    const typedData = { types, primaryType: 'Mail', domain, message: { ...message, amounts: ['1'] } };
    expect((await rpc(node.url, 'eth_signTypedData_v4', [stranger, typedData])).error).toEqual({
      code: -32000,
      message: 'account is locked or unknown',
    });
    const bad = { ...typedData, message: { ...typedData.message, amounts: ['not a number'] } };
    expect((await rpc(node.url, 'eth_signTypedData_v4', [account, bad])).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^invalid typed data: /),
    });
  });
});

describe('eth_signTransaction', () => {
  it('{raw, tx}: signed by the account, filled in, not sent; eth_sendRawTransaction takes it', async () => {
    const to = Wallet.createRandom().address;
    const signed = await ok(node.url, 'eth_signTransaction', [{ from: account, to, value: '0x2a' }]);
    const tx = Transaction.from(signed.raw);
    expect(tx.from).toBe(account);
    expect(tx.type).toBe(0);
    expect(signed.tx).toMatchObject({ hash: tx.hash, from: account.toLowerCase(), value: '0x2a', blockHash: null });
    expect(await ok(node.url, 'eth_getTransactionByHash', [tx.hash])).toBeNull();
    expect(await ok(node.url, 'eth_sendRawTransaction', [signed.raw])).toBe(tx.hash);
  });

  it('refusals: an unknown account -32000, an EIP-1559 request -32003 naming type 0', async () => {
    expect((await rpc(node.url, 'eth_signTransaction', [{ from: stranger, to: stranger }])).error?.code).toBe(-32000);
    const eip1559 = await rpc(node.url, 'eth_signTransaction', [{ from: account, to: stranger, maxFeePerGas: '0x1' }]);
    expect(eip1559.error).toMatchObject({ code: -32003, message: expect.stringMatching(/type 0.*--legacy/) });
  });
});
