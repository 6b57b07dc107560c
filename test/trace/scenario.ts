/**
 * The same transactions on svc-node and on Anvil, from dev account 0 with explicit gas and gas price (legacy on
 * both): four contracts deployed (evm-asm.ts), then a driver call that makes every kind of frame, a direct store
 * with a log, a top-level revert with a reason, a top-level out-of-gas, a value transfer, a precompile called
 * directly and a creation that reverts. Each transaction is mined in a block of its own on both nodes.
 */
import { createContractAddress, createAddressFromString } from '@ethereumjs/util';
import { call } from '../helpers/rpc.js';
import { countdownRuntime, deployCode, driverRuntime, loopRuntime, reverterRuntime, storeRuntime } from './evm-asm.js';

export const ACCOUNT0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
export const ACCOUNT1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const GAS_PRICE = '0x3b9aca00';

export const contractAt = (nonce: number): string =>
  createContractAddress(createAddressFromString(ACCOUNT0), BigInt(nonce)).toString();

export interface ScenarioTx {
  readonly name: string;
  readonly to?: string;
  readonly data?: string;
  readonly value?: string;
  readonly gas: number;
}

export function scenario(): ScenarioTx[] {
  const [store, reverter, loop] = [contractAt(0), contractAt(1), contractAt(2)];
  const driver = contractAt(3);
  const arg = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;
  return [
    { name: 'deploy store', data: deployCode(storeRuntime), gas: 300_000 },
    { name: 'deploy reverter', data: deployCode(reverterRuntime), gas: 300_000 },
    { name: 'deploy loop', data: deployCode(loopRuntime), gas: 300_000 },
    { name: 'deploy driver', data: deployCode(driverRuntime(store, reverter, loop)), gas: 1_000_000 },
    { name: 'driver: every frame kind', to: driver, value: '0x64', gas: 1_500_000 },
    { name: 'store with a log', to: store, data: arg(9), gas: 100_000 },
    { name: 'top-level revert with reason', to: reverter, gas: 100_000 },
    { name: 'top-level out of gas', to: loop, gas: 50_000 },
    { name: 'value transfer', to: ACCOUNT1, value: '0xde0b6b3a7640000', gas: 21_000 },
    {
      name: 'precompile called directly',
      to: '0x0000000000000000000000000000000000000004',
      data: '0x1234',
      gas: 30_000,
    },
    { name: 'creation that reverts', data: '0x60006000fd', gas: 100_000 },
    { name: 'deploy countdown', data: deployCode(countdownRuntime), gas: 300_000 },
  ];
}

/** Sends each transaction and waits for its receipt; the hashes in order. */
export async function sendScenario(url: string, txs: readonly ScenarioTx[]): Promise<string[]> {
  const hashes: string[] = [];
  for (const tx of txs) {
    const hash = await call<string>(url, 'eth_sendTransaction', [
      {
        from: ACCOUNT0,
        ...(tx.to !== undefined ? { to: tx.to } : {}),
        ...(tx.data !== undefined ? { data: tx.data } : {}),
        ...(tx.value !== undefined ? { value: tx.value } : {}),
        gas: `0x${tx.gas.toString(16)}`,
        gasPrice: GAS_PRICE,
      },
    ]);
    for (let i = 0; i < 100; i++) {
      if ((await call(url, 'eth_getTransactionReceipt', [hash])) !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    hashes.push(hash);
  }
  return hashes;
}

/** Anvil's accounts get the dev chain's 1,000,000 and its coinbase the dev node's, so balances compare. */
export async function alignAnvil(anvilUrl: string, coinbase: string): Promise<void> {
  const million = `0x${(10n ** 24n).toString(16)}`;
  for (const a of [ACCOUNT0, ACCOUNT1]) await call(anvilUrl, 'anvil_setBalance', [a, million]);
  await call(anvilUrl, 'anvil_setCoinbase', [coinbase]);
}
