/**
 * eth_call and eth_estimateGas from an address that has code answer as Anvil, Hardhat and geth answer them: a message
 * call is no transaction, so EIP-3607 (no transactions from senders with code) does not apply to it. Hardhat's
 * network helpers impersonate a contract and send from it with no gas given, which estimates first: svc-node used to
 * answer "gas required exceeds allowance" there (and "invalid sender address, address is not EOA" to eth_call),
 * although the block would take the transaction.
 */
import { createPublicClient, createWalletClient, defineChain, http, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilNode, startAnvil } from '../helpers/anvil-node.js';
import { type NodeProcess, startNode } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

const SENDER = '0x5555555555555555555555555555555555555555';
const BOB = '0x4444444444444444444444444444444444444444';
// Returns CALLER as a word: shows the call ran as SENDER.
const ECHO_CALLER = '0x6666666666666666666666666666666666666666';
const ECHO_CALLER_CODE = '0x3360005260206000f3';
// Any code at the sender: a contract being impersonated.
const SENDER_CODE = '0x600160005260206000f3';

let svc: NodeProcess;
let anvil: AnvilNode;

beforeAll(async () => {
  [svc, anvil] = await Promise.all([startNode({ args: ['--no-p2p'] }), startAnvil()]);
});

afterAll(async () => {
  await Promise.all([svc?.stop(), anvil?.stop()]);
});

/** The same script on either node: a contract's address, funded and impersonated, calls, estimates and sends. */
async function script(url: string) {
  await call(url, 'anvil_setCode', [SENDER, SENDER_CODE]);
  await call(url, 'anvil_setCode', [ECHO_CALLER, ECHO_CALLER_CODE]);
  await call(url, 'anvil_setBalance', [SENDER, '0xde0b6b3a7640000']);
  const echoed = await call(url, 'eth_call', [{ from: SENDER, to: ECHO_CALLER }, 'latest']);
  const transferGas = await call(url, 'eth_estimateGas', [{ from: SENDER, to: BOB, value: '0x7' }]);
  await call(url, 'anvil_impersonateAccount', [SENDER]);
  const chain = defineChain({
    id: 1337,
    name: 'dev',
    nativeCurrency: { name: 'ETC', symbol: 'ETC', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const wallet = createWalletClient({ chain, transport: http(url) });
  const client = createPublicClient({ chain, transport: http(url) });
  // viem estimates the gas itself: the path Hardhat's impersonated sends take.
  const hash = await wallet.sendTransaction({ account: SENDER, to: BOB, value: 7n, type: 'legacy' });
  const receipt = await client.waitForTransactionReceipt({ hash: hash as Hex });
  return {
    echoed,
    transferGas,
    status: receipt.status,
    from: receipt.from,
    code: await call(url, 'eth_getCode', [SENDER, 'latest']),
  };
}

describe('message calls from an address with code', () => {
  it('eth_call, eth_estimateGas and an impersonated send answer as on Anvil', async () => {
    const [ours, anvils] = await Promise.all([script(svc.url), script(anvil.url)]);
    expect(ours).toEqual({
      echoed: `0x${SENDER.slice(2).padStart(64, '0')}`,
      transferGas: '0x5208',
      status: 'success',
      from: SENDER,
      code: SENDER_CODE,
    });
    expect(ours).toEqual(anvils);
  });
});
