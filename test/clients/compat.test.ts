/**
 * The client compatibility script (scenarios.ts) under ethers v6, viem and web3.js v4, each against the same dev
 * node process, one library after the other. Each library signs with its own dev key and sends through its own
 * node-held dev account, so their balances and nonces never mix.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { Counter } from '../rpc/contracts.js';
import type { ClientAdapter, ClientSession } from './adapter.js';
import { ethersAdapter } from './adapters/ethers.js';
import { viemAdapter } from './adapters/viem.js';
import { web3Adapter } from './adapters/web3.js';
import { scenarios, type ScenarioState } from './scenarios.js';

const DEV_CHAIN_ID = 1337;

let node: NodeProcess;
beforeAll(async () => {
  node = await startNode();
});
afterAll(async () => {
  await node?.stop();
});

// Account 0 is the coinbase (block rewards move its balance); each library gets a local key and a node account.
const runs: ReadonlyArray<{ adapter: ClientAdapter; local: number; nodeHeld: number }> = [
  { adapter: ethersAdapter, local: 1, nodeHeld: 4 },
  { adapter: viemAdapter, local: 2, nodeHeld: 5 },
  { adapter: web3Adapter, local: 3, nodeHeld: 6 },
];

for (const { adapter, local, nodeHeld } of runs) {
  describe(adapter.name, () => {
    let session: ClientSession;
    const state: ScenarioState = {};
    const freshAddress = `0x${randomBytes(20).toString('hex')}`;

    beforeAll(async () => {
      session = await adapter.connect({
        httpUrl: node.url,
        wsUrl: node.wsUrl,
        chainId: DEV_CHAIN_ID,
        localKey: DEV_ACCOUNTS[local]!.privateKey,
        nodeAccount: DEV_ACCOUNTS[nodeHeld]!.address,
        counter: { abi: Counter.abi as readonly unknown[], bytecode: Counter.bytecode },
      });
    });
    afterAll(async () => {
      await session?.close();
    });

    for (const scenario of scenarios) {
      it(scenario.name, () =>
        scenario.run({
          session,
          chainId: BigInt(DEV_CHAIN_ID),
          localAddress: DEV_ACCOUNTS[local]!.address,
          nodeAccount: DEV_ACCOUNTS[nodeHeld]!.address,
          freshAddress,
          state,
        }),
      );
    }
  });
}
