/**
 * The node's error texts reach people through the libraries they use: ethers v6 and viem, against a dev node,
 * keep the invalid-params sentence and the "did you mean" in what they throw, and classify an unfunded sender's
 * estimate as insufficient funds (they recognise geth's "insufficient funds" text, not "gas required exceeds
 * allowance").
 */
import { JsonRpcProvider, Wallet, isError } from 'ethers';
import { createPublicClient, http, InsufficientFundsError, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
beforeAll(async () => {
  node = await startNode();
});
afterAll(async () => {
  await node?.stop();
});

const TO = '0x407d73d8a49eeb85d32cf465507dd71d507100c1';
const BAD_ADDRESS =
  'invalid params: address (param 1) must be a 20-byte account address: 0x and 40 hex digits ' +
  '(checksum case allowed); got "0x12"';

const thrown = async (work: Promise<unknown>): Promise<Error> => {
  try {
    await work;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
};

describe('error texts through client libraries', () => {
  it('ethers v6', async () => {
    const provider = new JsonRpcProvider(node.url, 1337, { staticNetwork: true, cacheTimeout: -1 });
    try {
      // ethers keeps the node's error object as `error`, or as `info.error` for -32601 (UNSUPPORTED_OPERATION);
      // its own message quotes it JSON-escaped.
      type EthersError = Error & { error?: { message?: string }; info?: { error?: { message?: string } } };
      const rpcMessage = async (work: Promise<unknown>) => {
        const error = (await thrown(work)) as EthersError;
        return (error.error ?? error.info?.error)?.message;
      };
      expect(await rpcMessage(provider.send('eth_getBalance', ['0x12', 'latest']))).toBe(BAD_ADDRESS);
      expect(await rpcMessage(provider.send('eth_getbalance', [TO, 'latest']))).toBe(
        'the method eth_getbalance does not exist/is not available; did you mean eth_getBalance?',
      );
      const poor = Wallet.createRandom().address;
      const estimate = await thrown(provider.estimateGas({ from: poor, to: TO, gasPrice: 10n ** 9n }));
      expect(isError(estimate, 'INSUFFICIENT_FUNDS'), estimate.message).toBe(true);
    } finally {
      provider.destroy();
    }
  });

  it('viem', async () => {
    const client = createPublicClient({ transport: http(node.url) });
    const request = client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>;
    expect((await thrown(request({ method: 'eth_getBalance', params: ['0x12', 'latest'] }))).message).toContain(
      BAD_ADDRESS,
    );
    expect((await thrown(request({ method: 'eth_getbalance', params: [TO, 'latest'] }))).message).toContain(
      'did you mean eth_getBalance?',
    );
    const poor = Wallet.createRandom().address as Address;
    const estimate = await thrown(client.estimateGas({ account: poor, to: TO, gasPrice: 10n ** 9n }));
    expect(
      (estimate as { walk?: (f: (e: unknown) => boolean) => unknown }).walk?.(
        (e) => e instanceof InsufficientFundsError,
      ),
    ).toBeInstanceOf(InsufficientFundsError);
    expect(estimate.message).toContain('insufficient funds for transfer');
  });
});
