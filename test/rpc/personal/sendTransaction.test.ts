/**
 * personal_sendTransaction / personal_signAndSendTransaction against the node process: a keystore account
 * sends a transfer with its passphrase (no unlock), mined and visible in the receipt; a wrong passphrase or an
 * unknown account is refused, and the account stays locked afterwards.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../../src/chain/networks/devAccounts.js';
import { createClient, httpTransport, type RpcClient } from '../../../clients/typescript/src/client.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { asHex } from '../contracts.js';

let node: NodeProcess;
let client: RpcClient;
let account: `0x${string}`;
const passphrase = 'correct horse battery';
const recipient = asHex(Wallet.createRandom().address.toLowerCase());

beforeAll(async () => {
  // Light scrypt (--lightkdf): each passphrase use below costs a tenth of the standard's ~1.3 s of CPU.
  node = await startNode({ args: ['--lightkdf'] });
  client = createClient(httpTransport(node.url));
  account = await client.personal_newAccount(passphrase);
  await client.eth_sendTransaction({ from: asHex(DEV_ACCOUNTS[6]!.address), to: account, value: '0xde0b6b3a7640000' }); // 1 ETC
}, 60_000);

afterAll(async () => {
  await client?.close();
  await node?.stop();
});

describe('personal_sendTransaction', () => {
  it('signs with the passphrase and the transfer is mined, visible in the receipt', async () => {
    const hash = await client.personal_sendTransaction({ from: account, to: recipient, value: '0x2a' }, passphrase);
    const receipt = await client.eth_getTransactionReceipt(hash);
    expect(receipt).toMatchObject({
      transactionHash: hash,
      from: account.toLowerCase(),
      to: recipient,
      status: '0x1',
      gasUsed: '0x5208',
    });
    expect(await client.eth_getBalance(recipient, 'latest')).toBe('0x2a');
  }, 20_000);

  it('has the alias personal_signAndSendTransaction, and takes gasLimit and a data payload', async () => {
    const hash = await client.personal_signAndSendTransaction(
      { from: account, to: recipient, value: '0x1', gasLimit: '0x6000', data: '0xabcd' },
      passphrase,
    );
    expect(await client.eth_getTransactionByHash(hash)).toMatchObject({
      from: account.toLowerCase(),
      gas: '0x6000',
      input: '0xabcd',
      nonce: '0x1',
    });
    expect((await client.eth_getTransactionReceipt(hash))?.status).toBe('0x1');
  }, 20_000);

  it('refuses a wrong passphrase and an unknown account with -32000, and leaves the account locked', async () => {
    await expect(
      client.personal_sendTransaction({ from: account, to: recipient, value: '0x1' }, 'wrong passphrase'),
    ).rejects.toMatchObject({
      code: -32000,
      message: 'Could not decrypt key with given passphrase',
    });
    await expect(
      client.personal_sendTransaction({ from: asHex(Wallet.createRandom().address), to: recipient }, passphrase),
    ).rejects.toMatchObject({
      code: -32000,
      message: 'No key found for the given address',
    });
    await expect(client.eth_sendTransaction({ from: account, to: recipient, value: '0x1' })).rejects.toMatchObject({
      code: -32000,
      message: 'account is locked or unknown',
    });
  }, 20_000);
});
