/**
 * anvil_dumpState names the accounts and slots of the hashed state trie from the keys the node saw written
 * (chain/state/written-keys.ts). Those keys are stored with the state, so a restart does not forget them: a dump after
 * it lists what one before it did, the token's balance slots (a mapping: keccak-derived slots no fixed range holds)
 * and an account only anvil_setBalance ever touched (in no transaction, so in no block the node can read it from).
 */
import { gunzipSync } from 'node:zlib';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContractFactory, Interface } from 'ethers';
import { afterAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';
import { Token } from '../rpc/contracts.js';

const ALICE = '0x1111111111111111111111111111111111111111';
const BOB = '0x4444444444444444444444444444444444444444';

const datadir = mkdtempSync(join(tmpdir(), 'svc-node-dump-restart-'));
let node: NodeProcess | undefined;

afterAll(async () => {
  await node?.stop();
  rmSync(datadir, { recursive: true, force: true });
});

type Accounts = Record<string, { storage: Record<string, string> }>;

async function dump(url: string): Promise<Accounts> {
  const hex = await call<string>(url, 'anvil_dumpState');
  return JSON.parse(gunzipSync(Buffer.from(hex.slice(2), 'hex')).toString('utf8')).accounts;
}

async function mined(url: string, tx: Record<string, string>): Promise<{ contractAddress: string | null }> {
  const hash = await call<string>(url, 'eth_sendTransaction', [tx]);
  const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
  expect(receipt.status).toBe('0x1');
  return receipt;
}

describe('anvil_dumpState across a restart', () => {
  it('lists the same accounts and slots after a restart as before it', async () => {
    node = await startNode({ args: ['--no-p2p', '--datadir', datadir] });
    const [from] = await call<string[]>(node.url, 'eth_accounts');
    const deploy = await new ContractFactory(Token.abi, Token.bytecode).getDeployTransaction(1_000_000n);
    const { contractAddress } = await mined(node.url, { from, data: deploy.data });
    const token = contractAddress!.toLowerCase();
    const transfer = new Interface(Token.abi).encodeFunctionData('transfer', [BOB, 250n]);
    await mined(node.url, { from, to: token, data: transfer });
    await call(node.url, 'anvil_setBalance', [ALICE, '0x1234']);
    await call(node.url, 'evm_mine');

    const before = await dump(node.url);
    expect(before[ALICE]).toBeDefined();
    // The holder's and BOB's balance slots, besides the supply in a low slot.
    expect(Object.keys(before[token]!.storage).length).toBeGreaterThanOrEqual(3);

    await node.stop();
    node = await startNode({ args: ['--no-p2p', '--datadir', datadir] });
    expect(await dump(node.url)).toEqual(before);
  });
});
