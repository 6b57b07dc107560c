/**
 * Shared by the eth read tests and the persistence tests: a hand-assembled contract (so no compiler is
 * needed), ethers wiring against a node process, and raw batch submission.
 */
import { JsonRpcProvider, Wallet, keccak256, type TransactionReceipt } from 'ethers';
import { DEV_ACCOUNTS } from '../../../src/chain/networks/devAccounts.js';
import { post } from '../../helpers/rpc.js';

export const DEV_CHAIN_ID = 1337n;
export const GWEI = 1_000_000_000n;

/** Topics of the two events the contract emits: one from its constructor, one per call. */
export const CREATED_TOPIC = keccak256(Buffer.from('Created(uint256)'));
export const CALLED_TOPIC = keccak256(Buffer.from('Called()'));

const push32 = (hex: string) => `7f${hex.slice(2)}`;

/** Runtime: SSTORE(1, 1); LOG1(0, 0, CALLED_TOPIC); STOP. */
export const RUNTIME_CODE = `0x6001600155${push32(CALLED_TOPIC)}60006000a100`;

/**
 * Init code: SSTORE(0, 42); MSTORE(0, 42); LOG1(0, 32, CREATED_TOPIC); then copy the runtime after
 * this prefix to memory and return it.
 */
export function initCode(): string {
  const runtime = RUNTIME_CODE.slice(2);
  const runtimeLength = runtime.length / 2;
  const body = `602a600055602a600052${push32(CREATED_TOPIC)}60206000a1`;
  const byte = (n: number) => n.toString(16).padStart(2, '0');
  const copyAndReturnLength = 12;
  const offset = body.length / 2 + copyAndReturnLength;
  const copyAndReturn = `60${byte(runtimeLength)}60${byte(offset)}600039` + `60${byte(runtimeLength)}6000f3`;
  return `0x${body}${copyAndReturn}${runtime}`;
}

export function providerFor(url: string): JsonRpcProvider {
  const provider = new JsonRpcProvider(url, Number(DEV_CHAIN_ID), {
    staticNetwork: true,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
  provider.pollingInterval = 50;
  return provider;
}

export function devWallet(index: number, provider: JsonRpcProvider): Wallet {
  return new Wallet(DEV_ACCOUNTS[index].privateKey, provider);
}

/** Sends signed raw transactions in one JSON-RPC batch (the dev miner seals transactions sent together in one block). */
export async function sendRawBatch(url: string, raws: readonly string[]): Promise<string[]> {
  const res = await post(
    url,
    raws.map((raw, id) => ({ jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: [raw] })),
  );
  const answers = res.body as Array<{ id: number; result?: string; error?: unknown }>;
  return raws.map((_raw, id) => {
    const answer = answers.find((a) => a.id === id);
    if (answer?.result === undefined)
      throw new Error(`eth_sendRawTransaction failed: ${JSON.stringify(answer?.error ?? res.body)}`);
    return answer.result;
  });
}

/**
 * Waits for a transaction's receipt by polling for it, as `tx.wait()` does; on a timeout the error says where
 * the transaction is (pool or chain) and the head. Not `provider.waitForTransaction`: it compares the receipt
 * with a block number ethers caches for 250 ms, and on an automine chain, where no later block may come,
 * a number one block behind makes it wait for ever.
 */
export async function waitForReceipt(
  provider: JsonRpcProvider,
  hash: string,
  timeoutMs = 30_000,
): Promise<TransactionReceipt> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt !== null) return receipt;
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const [tx, head] = await Promise.all([
    provider.send('eth_getTransactionByHash', [hash]),
    provider.send('eth_blockNumber', []),
  ]);
  throw new Error(`no receipt for ${hash} within ${timeoutMs} ms: head ${head}, transaction ${JSON.stringify(tx)}`);
}

/** A JSON-RPC call whose error (or result) the test looks at. */
export async function rpc(
  url: string,
  method: string,
  params: unknown[],
): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const res = await post(url, { jsonrpc: '2.0', id: 1, method, params });
  return res.body;
}
