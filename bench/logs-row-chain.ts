/**
 * The peer report's getLogs chain (bench/compare/logs.ts) built on a running svc-node: a token of its own, then 100 x
 * (qa_mineBlocks(99) + one Transfer of it, sent and mined). Returns the row's query over the last 1,000 blocks (10
 * logs). Shared by the getLogs diagnostics (logs-perf, logs-row-ab, logs-steady-ab).
 */
import { RECIPIENT } from './compare/fixture.js';
import type { RpcClient } from './compare/rpc.js';
import { TEST_KEYS } from './compare/targets.js';
import { FIRST_TRANSFER_GAS, Sender, TRANSFER_TOPIC } from './compare/token.js';

export interface LogsRowFilter {
  readonly fromBlock: string;
  readonly toBlock: string;
  readonly address: string;
  readonly topics: string[];
}

export async function buildLogsRowChain(rpc: RpcClient): Promise<LogsRowFilter> {
  const sender = await Sender.open(rpc, TEST_KEYS[0]);
  const deploy = await sender.signDeploy(10n ** 27n);
  await sender.send(deploy.raw);
  await sender.waitAllMined(60_000, 1);
  for (let call = 0; call < 100; call++) {
    await rpc.call('qa_mineBlocks', [99, false]);
    await sender.send(await sender.signTokenTransfer(deploy.address, RECIPIENT, 1n, FIRST_TRANSFER_GAS));
    await sender.waitAllMined(60_000, 1);
  }
  const head = BigInt(await rpc.call<string>('eth_blockNumber'));
  return {
    fromBlock: `0x${(head - 999n).toString(16)}`,
    toBlock: `0x${head.toString(16)}`,
    address: deploy.address,
    topics: [TRANSFER_TOPIC],
  };
}
