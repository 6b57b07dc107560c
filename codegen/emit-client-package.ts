/**
 * The sources of the standalone client package `svc-node-client` (clients/typescript/src/): the same types.ts and
 * client.ts as src/generated/, plus two helpers a first program needs (hex quantities as bigints, waiting for a
 * receipt) and the package's entry. bin/build.js compiles them, one file at a time, into dist/ with declarations, so
 * every file must satisfy `isolatedDeclarations` (explicit types on everything exported).
 */

const HEX = `/**
 * Quantities as the node writes them: \`0x\` and lowercase hex digits with no leading zeros, \`0x0\` for zero.
 * JSON-RPC carries every number that way; these turn them into bigints and back.
 */
import type { Uint } from './types.js';

/** \`toHex(1n) === '0x1'\`, \`toHex(0) === '0x0'\`. Throws RangeError for a negative value or an unsafe number. */
export function toHex(value: bigint | number): Uint {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new RangeError(\`toHex: \${value} is not a safe integer; pass a bigint\`);
  }
  const n = BigInt(value);
  if (n < 0n) throw new RangeError(\`toHex: \${value} is negative; quantities are unsigned\`);
  return \`0x\${n.toString(16)}\`;
}

/**
 * \`fromHex('0x1') === 1n\`. Takes any 0x-prefixed hex (leading zeros and upper case too, so byte strings such as a
 * storage word work); throws TypeError for anything else, including \`0x\` alone.
 */
export function fromHex(hex: string): bigint {
  if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]+$/.test(hex)) {
    throw new TypeError(\`fromHex: \${JSON.stringify(hex)} is not 0x-prefixed hex\`);
  }
  return BigInt(hex);
}
`;

const RECEIPT = `import type { RpcMethodsClient } from './client.js';
import type { Hash32, Receipt } from './types.js';

export interface WaitForReceiptOptions {
  /** How long to wait in all, in ms (default 60 000). */
  readonly timeoutMs?: number;
  /** Pause between two polls, in ms (default 250). */
  readonly intervalMs?: number;
}

/** No receipt within the timeout: the transaction is still pending, was dropped, or the node never saw it. */
export class ReceiptTimeoutError extends Error {
  readonly transactionHash: string;
  readonly timeoutMs: number;
  /** How many times eth_getTransactionReceipt answered null. */
  readonly polls: number;

  constructor(transactionHash: string, timeoutMs: number, polls: number) {
    super(
      \`no receipt for transaction \${transactionHash} after \${timeoutMs} ms (eth_getTransactionReceipt answered null \${polls} times): \` +
        'it is still pending, was dropped, or this node never received it',
    );
    this.name = 'ReceiptTimeoutError';
    this.transactionHash = transactionHash;
    this.timeoutMs = timeoutMs;
    this.polls = polls;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls \`eth_getTransactionReceipt\` until the transaction's receipt exists and returns it; throws
 * ReceiptTimeoutError when \`timeoutMs\` passes first. An error the node answers (RpcClientError) or a transport
 * failure ends the wait at once: retrying would only hide it.
 */
export async function waitForReceipt(
  client: Pick<RpcMethodsClient, 'eth_getTransactionReceipt'>,
  transactionHash: Hash32,
  options: WaitForReceiptOptions = {},
): Promise<Receipt> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const intervalMs = options.intervalMs ?? 250;
  const deadline = Date.now() + timeoutMs;
  let polls = 0;
  for (;;) {
    const receipt = await client.eth_getTransactionReceipt(transactionHash);
    if (receipt !== null) return receipt;
    polls++;
    const left = deadline - Date.now();
    if (left <= 0) throw new ReceiptTimeoutError(transactionHash, timeoutMs, polls);
    await sleep(Math.min(intervalMs, left));
  }
}
`;

const INDEX = `/**
 * svc-node-client: a typed JSON-RPC client for svc-node, generated from its OpenRPC document. No dependencies; HTTP
 * and WebSocket on the platform's fetch and WebSocket, so it runs in Node (18+; WebSocket: 22+ or the ws package)
 * and in browsers.
 *
 *   import { createClient, httpTransport } from 'svc-node-client';
 *   const client = createClient(httpTransport('http://127.0.0.1:8546/'));
 *   console.log(await client.eth_chainId());
 */
export * from './client.js';
export * from './hex.js';
export * from './receipt.js';
export type * from './types.js';
`;

/** File name → content of clients/typescript/src/, given the rendered types.ts and client.ts. */
export function emitClientPackage(types: string, client: string, header: string): Map<string, string> {
  return new Map([
    ['types.ts', types],
    ['client.ts', client],
    ['hex.ts', `${header}${HEX}`],
    ['receipt.ts', `${header}${RECEIPT}`],
    ['index.ts', `${header}${INDEX}`],
  ]);
}
