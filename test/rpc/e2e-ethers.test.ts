/**
 * What a developer does first with a dev node (the default one, instant-seal), through ethers v6 against the node
 * process: deploy a contract with a constructor argument, read it, write with a signed transaction, wait for the
 * receipt, read the event from it, catch revert reasons from eth_call and eth_estimateGas, and read a historical
 * balance.
 */
import { ContractFactory, HDNodeWallet, JsonRpcProvider, MaxUint256, type Contract, type EventLog } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../src/chain/networks/devAccounts.js';
import { createClient, httpTransport, RpcClientError, type RpcClient } from '../../clients/typescript/src/client.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { asHex, Counter } from './contracts.js';

let node: NodeProcess;
let provider: JsonRpcProvider;
let client: RpcClient;
let wallet: HDNodeWallet;
let counter: Contract;
let deployedAt: number;
let balanceBeforeDeploy: bigint;

beforeAll(async () => {
  node = await startNode();
  // cacheTimeout -1: ethers otherwise answers a repeated request (e.g. the pending nonce) from a 250 ms cache.
  provider = new JsonRpcProvider(node.url, 1337, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
  client = createClient(httpTransport(node.url));
  // Account 1 of the dev mnemonic (prefunded); account 0 is the coinbase, whose balance block rewards move.
  wallet = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/1").connect(provider);
  balanceBeforeDeploy = await provider.getBalance(wallet.address);
  const factory = new ContractFactory(Counter.abi, Counter.bytecode, wallet);
  const deployed = await factory.deploy(41n);
  const receipt = await deployed.deploymentTransaction()!.wait();
  deployedAt = receipt!.blockNumber;
  counter = deployed as unknown as Contract;
}, 60_000);

afterAll(async () => {
  provider?.destroy();
  await client?.close();
  await node?.stop();
});

describe('ethers v6 against the node', () => {
  it('deployed the contract with its constructor argument and reads it with eth_call', async () => {
    expect(await provider.getCode(await counter.getAddress())).toMatch(/^0x[0-9a-f]{100,}$/);
    expect(await counter.getFunction('count')()).toBe(41n);
    expect(await counter.getFunction('owner')()).toBe(wallet.address);
  });

  it('writes with a signed transaction, waits for the receipt and reads the event log from it', async () => {
    const tx = await counter.getFunction('increment')(5n);
    const receipt = await tx.wait();
    expect(receipt.status).toBe(1);
    expect(receipt.blockNumber).toBeGreaterThan(deployedAt);
    expect(receipt.logs).toHaveLength(1);
    const event = receipt.logs[0] as EventLog;
    expect(event.eventName).toBe('Incremented');
    expect(event.args.toObject()).toEqual({ by: wallet.address, amount: 5n, newCount: 46n });
    expect(event.address).toBe(await counter.getAddress());
    expect(await counter.getFunction('count')()).toBe(46n);
  });

  it('surfaces a require reason from eth_call and from eth_estimateGas', async () => {
    const increment = counter.getFunction('increment');
    await expect(increment.staticCall(0n)).rejects.toMatchObject({
      code: 'CALL_EXCEPTION',
      reason: 'amount must be positive',
    });
    await expect(increment.estimateGas(0n)).rejects.toMatchObject({
      code: 'CALL_EXCEPTION',
      reason: 'amount must be positive',
    });
    // Sending it: ethers estimates first, so the write fails before anything is signed.
    await expect(increment(0n)).rejects.toMatchObject({ code: 'CALL_EXCEPTION', reason: 'amount must be positive' });
  });

  it('answers the standard revert error: code 3, the decoded reason, the raw revert bytes as data', async () => {
    const to = (await counter.getAddress()) as `0x${string}`;
    const data = counter.interface.encodeFunctionData('increment', [0n]) as `0x${string}`;
    const errorOf = (call: Promise<unknown>) =>
      call.then(
        () => expect.unreachable('expected a revert'),
        (e: unknown) => e as RpcClientError,
      );
    for (const error of [
      await errorOf(client.eth_call({ to, data })),
      await errorOf(client.eth_estimateGas({ from: asHex(wallet.address), to, data })),
    ]) {
      expect(error).toBeInstanceOf(RpcClientError);
      expect(error.code).toBe(3);
      expect(error.message).toBe('execution reverted: amount must be positive');
      expect(counter.interface.parseError(error.data as string)?.args[0]).toBe('amount must be positive');
    }
    const panic = await errorOf(
      client.eth_call({ to, data: counter.interface.encodeFunctionData('peekAdd', [MaxUint256]) as `0x${string}` }),
    );
    expect(panic.code).toBe(3);
    expect(panic.message).toBe('execution reverted: panic 0x11 (arithmetic overflow)');
    expect(panic.data).toBe(`0x4e487b71${(0x11).toString(16).padStart(64, '0')}`);
    await expect(counter.getFunction('peekAdd')(MaxUint256)).rejects.toMatchObject({
      code: 'CALL_EXCEPTION',
      reason: expect.stringMatching(/OVERFLOW/),
    });
  });

  it('reads a historical balance and historical contract state', async () => {
    const before = deployedAt - 1;
    expect(await provider.getBalance(wallet.address, before)).toBe(balanceBeforeDeploy);
    expect(await provider.getBalance(wallet.address)).toBeLessThan(balanceBeforeDeploy);
    expect(await counter.getFunction('count')({ blockTag: deployedAt })).toBe(41n);
    expect(await counter.getFunction('count')({ blockTag: 'latest' })).toBe(46n);
    await expect(
      client.eth_call({ to: (await counter.getAddress()) as `0x${string}`, data: '0x06661abd' }, '0xffffff'),
    ).rejects.toMatchObject({ code: -32001 });
  });

  it('ran on the default dev chain, which seals instantly: every block it made carries nonce and mixHash zero', async () => {
    const head = await provider.getBlockNumber();
    expect(head).toBeGreaterThanOrEqual(2);
    for (let n = 1; n <= head; n++) {
      const block = await client.eth_getBlockByNumber(`0x${n.toString(16)}`, false);
      expect(block, `block ${n}`).toMatchObject({ nonce: '0x0000000000000000', mixHash: `0x${'00'.repeat(32)}` });
    }
  });
});
