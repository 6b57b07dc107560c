/**
 * eth_call and eth_estimateGas through the generated client: the estimate is the LOWEST gas limit that
 * succeeds (one less fails), including calls whose need exceeds their use (63/64 rule, refunds); the cap,
 * allowance and balance checks; calls at historical blocks.
 */
import { ContractFactory, HDNodeWallet, Interface, JsonRpcProvider, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../../src/chain/networks/devAccounts.js';
import { createClient, httpTransport, RpcClientError, type RpcClient } from '../../../clients/typescript/src/client.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { Counter } from '../contracts.js';

let node: NodeProcess;
let client: RpcClient;
let provider: JsonRpcProvider;
type Hex = `0x${string}`;
let counter: Hex;
let deployedAt: bigint;
const owner = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/5");
const ownerAddress = owner.address as Hex;
const randomAddress = () => Wallet.createRandom().address as Hex;
const iface = new Interface(Counter.abi);
/** Calldata, typed as the client wants it. */
const abi = { encodeFunctionData: (name: string, args: unknown[] = []) => iface.encodeFunctionData(name, args) as Hex };
const hex = (n: bigint) => `0x${n.toString(16)}` as const;

beforeAll(async () => {
  node = await startNode();
  client = createClient(httpTransport(node.url));
  provider = new JsonRpcProvider(node.url, 1337, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  const deployed = await new ContractFactory(Counter.abi, Counter.bytecode, owner.connect(provider)).deploy(7n);
  const receipt = await deployed.deploymentTransaction()!.wait();
  counter = (await deployed.getAddress()) as Hex;
  deployedAt = BigInt(receipt!.blockNumber);
}, 60_000);

afterAll(async () => {
  provider?.destroy();
  await client?.close();
  await node?.stop();
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

/** The estimate, checked to be the lowest limit that works: the call succeeds with it and fails with one less. */
async function lowestGas(data: Hex): Promise<bigint> {
  const request = { from: ownerAddress, to: counter, data };
  const estimate = BigInt(await client.eth_estimateGas(request));
  await expect(client.eth_call({ ...request, gas: hex(estimate) })).resolves.toMatch(/^0x/);
  await rpcError(client.eth_call({ ...request, gas: hex(estimate - 1n) }));
  return estimate;
}

describe('eth_estimateGas', () => {
  it('is exactly 21000 for a plain transfer', async () => {
    expect(await client.eth_estimateGas({ from: ownerAddress, to: randomAddress(), value: '0x1' })).toBe('0x5208');
  });

  it('is the lowest sufficient limit for a write, a nested call (63/64 rule) and a refunding write', async () => {
    const direct = await lowestGas(abi.encodeFunctionData('increment', [1n]));
    const nested = await lowestGas(abi.encodeFunctionData('incrementViaCall', [1n]));
    expect(nested).toBeGreaterThan(direct);
    // The nested call needs more than it uses: mined with the estimate, its receipt shows less.
    const hash = await client.eth_sendTransaction({
      from: ownerAddress,
      to: counter,
      data: abi.encodeFunctionData('incrementViaCall', [1n]),
    });
    expect(BigInt((await client.eth_getTransactionReceipt(hash))!.gasUsed)).toBeLessThan(
      BigInt((await client.eth_getTransactionByHash(hash))!.gas),
    );
    await lowestGas(abi.encodeFunctionData('reset'));
  });

  it('fails with -32000 "gas required exceeds allowance" when even the cap is not enough', async () => {
    const error = await rpcError(
      client.eth_estimateGas({
        from: ownerAddress,
        to: counter,
        gas: '0x5300',
        data: abi.encodeFunctionData('increment', [1n]),
      }),
    );
    expect(error).toMatchObject({ code: -32000, message: 'gas required exceeds allowance (0x5300)' });
  });

  it('reports a revert at the cap as code 3 with the reason, like eth_call', async () => {
    const data = abi.encodeFunctionData('reset');
    const from = randomAddress(); // not the owner
    for (const error of [
      await rpcError(client.eth_estimateGas({ from, to: counter, data })),
      await rpcError(client.eth_call({ from, to: counter, data })),
    ]) {
      expect(error).toMatchObject({ code: 3, message: 'execution reverted: only the owner may reset' });
    }
  });

  it('reports an execution error at the cap as eth_call does, not as a gas shortage (as geth and Anvil)', async () => {
    // MCOPY (0x5e) before Bastion: what solc's default EVM target emits for a memory copy (Hardhat 3's sample config).
    const contract = randomAddress();
    await client.anvil_setCode(contract, '0x6001600060005e00');
    const [estimate, call] = [
      await rpcError(client.eth_estimateGas({ to: contract })),
      await rpcError(client.eth_call({ to: contract })),
    ];
    expect({ code: estimate.code, message: estimate.message }).toEqual({ code: -32000, message: 'invalid opcode' });
    expect({ code: call.code, message: call.message }).toEqual({ code: estimate.code, message: estimate.message });
  });

  it('checks that the sender can pay when a gas price is given', async () => {
    const poor = randomAddress();
    const request = { from: poor, to: ownerAddress, gasPrice: '0x3b9aca00' } as const;
    // geth's answer for an unfunded sender, with or without a value: not "gas required exceeds allowance (0x0)".
    for (const unfunded of [request, { ...request, value: '0x1' }] as const) {
      expect(await rpcError(client.eth_estimateGas(unfunded))).toMatchObject({
        code: -32000,
        message: expect.stringMatching(
          new RegExp(`^insufficient funds for transfer: address ${poor.toLowerCase()} have 0 wei, .* to pay for gas`),
        ),
      });
    }
    expect(await rpcError(client.eth_call({ ...request, gas: '0x5208' }))).toMatchObject({
      code: -32000,
      message: `insufficient funds for gas * price + value: address ${poor.toLowerCase()} have 0 want 21000000000000`,
    });
    // A value without a price needs the value, for a call as for an estimate (geth's buyGas check).
    expect(await rpcError(client.eth_call({ from: poor, to: ownerAddress, value: '0x1' }))).toMatchObject({
      code: -32000,
      message: `insufficient funds for gas * price + value: address ${poor.toLowerCase()} have 0 want 1`,
    });
    expect(await rpcError(client.eth_estimateGas({ from: poor, to: ownerAddress, value: '0x1' }))).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/^insufficient funds for gas \* price \+ value: /),
    });
    // Without a price nothing is charged, as geth does.
    expect(await client.eth_estimateGas({ from: poor, to: ownerAddress })).toBe('0x5208');
  });
});

describe('eth_call', () => {
  it('reads at any block: a number, earliest, latest, pending; -32001 for a block that does not exist', async () => {
    const count = abi.encodeFunctionData('count');
    expect(BigInt(await client.eth_call({ to: counter, data: count }, hex(deployedAt)))).toBe(7n);
    expect(await client.eth_call({ to: counter, data: count }, 'earliest')).toBe('0x'); // no contract at genesis
    const latest = await client.eth_call({ to: counter, data: count }, 'latest');
    expect(await client.eth_call({ to: counter, data: count }, 'pending')).toBe(latest);
    expect(await client.eth_call({ to: counter, data: count })).toBe(latest);
    expect(await rpcError(client.eth_call({ to: counter, data: count }, '0xfffff'))).toMatchObject({
      code: -32001,
      message: 'Block 0xfffff not found',
    });
  });

  it('answers -32000 with the EVM error when execution fails without a revert', async () => {
    const error = await rpcError(
      client.eth_call({ to: counter, gas: '0x5300', data: abi.encodeFunctionData('increment', [1n]) }),
    );
    expect(error).toMatchObject({ code: -32000, message: 'out of gas' });
  });

  it('refuses data and input that disagree', async () => {
    expect(await rpcError(client.eth_call({ to: counter, data: '0x01', input: '0x02' }))).toMatchObject({
      code: -32602,
    });
  });
});
