/**
 * Replays GeneralStateTests results through the test RPC (vectors/README.md, "Replaying GeneralStateTests"):
 * each result is a one-block chain without block reward; its state root and logs hash must match.
 */
import { quantity, sameBytes } from './hex.js';
import type { RpcClient } from './rpc.js';
import { txbytesOf } from './state-transaction.js';
import { Difference, expectEqual, type StateTestCase, type StateTestResult } from './types.js';

const ZERO32 = `0x${'00'.repeat(32)}`;
const EMPTY_LOGS_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';

interface RpcBlock {
  readonly stateRoot: string;
  readonly transactions: readonly string[];
}

export async function runStateResult(
  rpc: RpcClient,
  test: StateTestCase,
  fork: string,
  result: StateTestResult,
): Promise<void> {
  const env = test.env;
  const params = {
    params: { fork, chainID: '0x01' },
    sealEngine: 'NoReward',
    genesis: {
      author: env.currentCoinbase,
      difficulty: env.currentDifficulty,
      gasLimit: env.currentGasLimit,
      extraData: '0x00',
      timestamp: '0x00',
      nonce: '0x0000000000000000',
      mixHash: ZERO32,
    },
    accounts: test.pre,
  };
  expectEqual('test_setChainParams', await rpc.call('test_setChainParams', [params]), true);
  await rpc.call('test_modifyTimestamp', [Number(quantity(env.currentTimestamp))]);
  let txHash: string | undefined;
  try {
    txHash = await rpc.call<string>('eth_sendRawTransaction', [txbytesOf(test.transaction, result)]);
  } catch (err) {
    if (result.expectException === undefined) throw new Difference(`transaction rejected: ${(err as Error).message}`);
  }
  await rpc.call('test_mineBlocks', [1]);
  const block = await rpc.call<RpcBlock>('eth_getBlockByNumber', ['latest', false]);
  const included = txHash !== undefined && block.transactions.some((h) => sameBytes(h, txHash!));
  if (result.expectException !== undefined && included) {
    throw new Difference(`transaction included, but the vector expects it rejected (${result.expectException})`);
  }
  if (result.expectException === undefined && !included)
    throw new Difference('transaction accepted by the pool but not mined');
  expectEqual('post-state root', block.stateRoot, result.hash, (a, b) => sameBytes(a as string, b as string));
  const logs = included ? await rpc.call<string>('test_getLogHash', [txHash]) : EMPTY_LOGS_HASH;
  expectEqual('logs hash', logs, result.logs, (a, b) => sameBytes(a as string, b as string));
}
