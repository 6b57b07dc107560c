/**
 * eth_createAccessList against Anvil: the same contract deployed by the same account at the same nonce on both
 * nodes gives the same access list (the contract and the slots a call reads and writes; sender and recipient left
 * out) and the same gas with that list; a reverting call still answers its list with geth's `error` (Anvil answers
 * error 3 there instead).
 */
import { AbiCoder, HDNodeWallet, Interface, getCreateAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { Counter } from '../contracts.js';
import { anvilPath, ok, rpc, startAnvil, type AnvilProcess } from './foundry.js';

const deployer = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/6");
const iface = new Interface(Counter.abi);
let node: NodeProcess;
let anvil: AnvilProcess;
let counter: string;

beforeAll(async () => {
  [node, anvil] = await Promise.all([startNode(), startAnvil(['--hardfork', 'london'])]);
  const init = Counter.bytecode + AbiCoder.defaultAbiCoder().encode(['uint256'], [7n]).slice(2);
  const raw = await deployer.signTransaction({
    type: 0,
    chainId: 1337n,
    nonce: 0,
    gasPrice: 2_000_000_000n,
    gasLimit: 1_000_000n,
    data: init,
  });
  for (const url of [node.url, anvil.url]) {
    const hash = await ok(url, 'eth_sendRawTransaction', [raw]);
    for (let receipt = null; receipt === null; ) receipt = await ok(url, 'eth_getTransactionReceipt', [hash]);
  }
  counter = getCreateAddress({ from: deployer.address, nonce: 0 });
}, 60_000);

afterAll(async () => {
  await Promise.all([node?.stop(), anvil?.stop()]);
});

describe.skipIf(anvilPath === undefined)('eth_createAccessList compared with Anvil', () => {
  it('a storage-writing call: the same list and gas', async () => {
    const call = { from: deployer.address, to: counter, data: iface.encodeFunctionData('increment', [5n]) };
    const ours = await ok(node.url, 'eth_createAccessList', [call]);
    expect(ours.accessList.length).toBeGreaterThan(0);
    expect(ours.error).toBeUndefined();
    expect(ours).toEqual(await ok(anvil.url, 'eth_createAccessList', [call]));
  });

  it("a reverting call still answers its list with geth's error field (Anvil answers error 3 instead)", async () => {
    const call = { from: `0x${'11'.repeat(20)}`, to: counter, data: iface.encodeFunctionData('reset') };
    const ours = await ok(node.url, 'eth_createAccessList', [call]);
    expect(ours.error).toBe('execution reverted');
    expect(ours.accessList).toEqual([{ address: counter.toLowerCase(), storageKeys: [expect.any(String)] }]);
    expect((await rpc(anvil.url, 'eth_createAccessList', [call])).error?.code).toBe(3);
  });
});
