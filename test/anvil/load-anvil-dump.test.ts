/**
 * anvil_loadState takes Anvil's own dump: a token deployed and moved on Anvil (its balances in mapping slots, whose
 * keys are hashes), dumped there and loaded into svc-node, reads the same on svc-node, account by account and slot by
 * slot; and svc-node's own dump of it then lists the same accounts and slots, so the dump round-trips. The same
 * token deployed on both then dumps with the same slots: svc-node names what its own execution wrote.
 */
import { gunzipSync } from 'node:zlib';
import { AbiCoder, Interface } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilNode, startAnvil } from '../helpers/anvil-node.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';
import { Token } from '../rpc/contracts.js';

const FUNDED = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const HOLDER2 = '0x5555555555555555555555555555555555555555';
const HOLDER3 = '0x6666666666666666666666666666666666666666';
const token = new Interface(Token.abi);

interface Dumped {
  nonce: number;
  balance: string;
  code: string;
  storage: Record<string, string>;
}
const accountsOf = (dump: string): Record<string, Dumped> =>
  JSON.parse(gunzipSync(Buffer.from(dump.slice(2), 'hex')).toString('utf8')).accounts;
const word = (hex: string) => `0x${hex.slice(2).padStart(64, '0')}`;

/**
 * The deployment's receipt, polled as clients do: one CI run read null right after the send (the node or Anvil, not
 * captured); the dump comparison is this file's subject, the receipt's timing is not.
 */
async function receiptOf(url: string, hash: string): Promise<{ contractAddress: string }> {
  for (let i = 0; i < 100; i++) {
    const receipt = await call<{ contractAddress: string } | null>(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no receipt for ${hash} at ${url} after 5 s`);
}

/**
 * Deploys the token from FUNDED and moves some of it: its balances sit in mapping slots (hashed keys). Both receipts
 * are awaited, so a dump taken after it holds the transfer and its fee.
 */
async function deployAndMove(url: string, holder: string): Promise<string> {
  const deployData = Token.bytecode + AbiCoder.defaultAbiCoder().encode(['uint256'], [1_000_000n]).slice(2);
  const deployHash = await call<string>(url, 'eth_sendTransaction', [{ from: FUNDED, data: deployData }]);
  const { contractAddress } = await receiptOf(url, deployHash);
  const transfer = token.encodeFunctionData('transfer', [holder, 250n]);
  const transferHash = await call<string>(url, 'eth_sendTransaction', [
    { from: FUNDED, to: contractAddress, data: transfer },
  ]);
  await receiptOf(url, transferHash);
  return contractAddress.toLowerCase();
}

const normalise = (storage: Record<string, string> = {}) =>
  Object.fromEntries(Object.entries(storage).map(([k, v]) => [word(k), word(v)]));

let anvil: AnvilNode | undefined;
let node: NodeProcess | undefined;

beforeAll(async () => {
  [anvil, node] = await Promise.all([startAnvil(), startNode({ args: ['--no-p2p'] })]);
}, 60_000);

afterAll(async () => {
  await Promise.all([anvil?.stop(), node?.stop()]);
});

describe("Anvil's dump loaded into svc-node", () => {
  it('reads the same balances, nonces, code and slots, and dumps them back', async () => {
    const a = anvil!.url;
    const tokenAddress = await deployAndMove(a, HOLDER2);
    // One dump, both compared and loaded: a CI run took two and the transfer's fee reached the coinbase in between.
    const dump = await call<string>(a, 'anvil_dumpState');
    const dumped = accountsOf(dump);
    const tokenSlots = dumped[tokenAddress]?.storage ?? {};
    expect(Object.keys(tokenSlots).length).toBeGreaterThanOrEqual(2);

    const url = node!.url;
    await call(url, 'anvil_loadState', [dump]);
    for (const [address, account] of Object.entries(dumped)) {
      expect(BigInt(await call<string>(url, 'eth_getBalance', [address, 'latest'])), address).toBe(
        BigInt(account.balance),
      );
      expect(Number(await call<string>(url, 'eth_getTransactionCount', [address, 'latest'])), address).toBe(
        account.nonce,
      );
      expect(await call(url, 'eth_getCode', [address, 'latest']), address).toBe(account.code);
      for (const [slot, value] of Object.entries(account.storage))
        expect(await call(url, 'eth_getStorageAt', [address, slot, 'latest']), `${address} ${slot}`).toBe(word(value));
    }
    const balanceOf = token.encodeFunctionData('balanceOf', [HOLDER2]);
    expect(await call(url, 'eth_call', [{ to: tokenAddress, data: balanceOf }, 'latest'])).toBe(word('0xfa'));

    // svc-node's dump lists the token's slots as Anvil's did.
    const ours = accountsOf(await call<string>(url, 'anvil_dumpState'));
    expect(normalise(ours[tokenAddress]?.storage)).toEqual(normalise(tokenSlots));
  }, 120_000);

  it("names in its dump the slots its own execution wrote, as Anvil's dump does", async () => {
    // FUNDED has the same nonce on both now (the load set it), so the token lands at one address on both; the new
    // holder's slot is one no load or edit named.
    const [theirs, ours] = await Promise.all([deployAndMove(anvil!.url, HOLDER3), deployAndMove(node!.url, HOLDER3)]);
    expect(ours).toBe(theirs);
    const anvilSlots = accountsOf(await call<string>(anvil!.url, 'anvil_dumpState'))[theirs]?.storage;
    const ourSlots = accountsOf(await call<string>(node!.url, 'anvil_dumpState'))[ours]?.storage;
    expect(Object.keys(anvilSlots ?? {}).length).toBeGreaterThanOrEqual(2);
    expect(normalise(ourSlots)).toEqual(normalise(anvilSlots));
  }, 120_000);
});
