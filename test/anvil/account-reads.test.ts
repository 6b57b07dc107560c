/**
 * eth_getAccount, eth_getAccountInfo, debug_codeByHash and eth_fillTransaction, asked the same questions as Anvil
 * 1.7.1 (@foundry-rs/anvil) after the same contract deployment (the same signed bytes on both nodes). The dev
 * accounts' balances differ by design (svc-node funds them with 10^24 wei, Anvil with 10^22), so a dev account's
 * balance is left out of the comparison.
 */
import { describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { besideAnvil, haveAnvil } from '../helpers/beside-anvil.js';
import { call, post, request } from '../helpers/rpc.js';

const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const A1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const NOBODY = '0x2000000000000000000000000000000000000002';
/** Init code returning a 12-byte runtime that logs its call value. */
const LOGGER = '0x600c600c600039600c6000f334600052600760206000a100' as Hex;
const CONTRACT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

const both = besideAnvil();

async function ask(url: string, method: string, params: unknown[]): Promise<unknown> {
  const { body } = await post(url, request(method, params));
  return body.error === undefined ? body.result : { error: body.error.code };
}

let deployed = false;
async function script(url: string) {
  if (!deployed || url !== both.node.url) {
    const raw = await privateKeyToAccount(DEV_ACCOUNTS[0]!.privateKey as Hex).signTransaction({
      type: 'legacy',
      chainId: 1337,
      nonce: 0,
      gas: 200_000n,
      gasPrice: 10_000_000_000n,
      data: LOGGER,
    });
    const hash = await call<string>(url, 'eth_sendRawTransaction', [raw]);
    // Anvil answers the send before its automine has sealed the block: read once the receipt is there.
    for (let i = 0; i < 200 && (await call(url, 'eth_getTransactionReceipt', [hash])) === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (url === both.node.url) deployed = true;
  }
  const contract = (await ask(url, 'eth_getAccount', [CONTRACT, 'latest'])) as { codeHash: string };
  const dev = (await ask(url, 'eth_getAccount', [A0, 'latest'])) as Record<string, unknown>;
  const devInfo = (await ask(url, 'eth_getAccountInfo', [A0, 'latest'])) as Record<string, unknown>;
  return {
    contract,
    contractInfo: await ask(url, 'eth_getAccountInfo', [CONTRACT, 'latest']),
    contractAtGenesis: await ask(url, 'eth_getAccount', [CONTRACT, '0x0']),
    nobody: await ask(url, 'eth_getAccount', [NOBODY, 'latest']),
    nobodyInfo: await ask(url, 'eth_getAccountInfo', [NOBODY, 'latest']),
    dev: { ...dev, balance: undefined },
    devInfo: { ...devInfo, balance: undefined },
    code: await ask(url, 'debug_codeByHash', [contract.codeHash]),
    codeAtLatest: await ask(url, 'debug_codeByHash', [contract.codeHash, 'latest']),
    emptyCode: await ask(url, 'debug_codeByHash', [
      '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
    ]),
    unknownCode: await ask(url, 'debug_codeByHash', [`0x${'11'.repeat(32)}`]),
    filled: await ask(url, 'eth_fillTransaction', [
      { from: A0, to: A1, value: '0xde0b6b3a7640000', gasPrice: '0x3b9aca00', gas: '0x5208', nonce: '0x0' },
    ]),
    filledWithNonce: await ask(url, 'eth_fillTransaction', [
      { from: A1, to: CONTRACT, value: '0x1', gasPrice: '0x3b9aca00', gas: '0x7530' },
    ]),
  };
}

describe('eth_getAccount, eth_getAccountInfo, debug_codeByHash, eth_fillTransaction', () => {
  it('read a contract, a dev account and a missing account, and fill a request unsigned', async () => {
    const got = await script(both.node.url);
    expect(got.contract).toEqual({
      nonce: '0x1',
      balance: '0x0',
      storageRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      codeHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(got.contractInfo).toEqual({ balance: '0x0', nonce: '0x1', code: '0x34600052600760206000a100' });
    expect(got.code).toBe('0x34600052600760206000a100');
    expect(got.dev).toMatchObject({ nonce: '0x1' });
    expect(got.filled).toMatchObject({
      raw: '0xed80843b9aca008252089470997970c51812dc3a010c7d01b50e0d17dc79c8880de0b6b3a764000080820a958080',
      tx: { hash: '0x56fe80c4cc2caec7df2c730dac3643e0dc906ceeb43d4fc20eb396caac3c6bd6', v: '0xa95' },
    });
  });

  it.runIf(haveAnvil)('answer as Anvil does', async () => {
    expect(await script(both.node.url)).toEqual(await script(both.anvil!.url));
  });
});
