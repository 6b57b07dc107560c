/**
 * eth_call / eth_estimateGas inputs → engine values: the CallRequest (the standard's GenericTransaction) becomes a
 * `CallMessage`, the block parameter a stored block (block-ref.ts: -32001 unknown, -32000 not canonical), and the
 * message runs on that block's state.
 */
import type { Block } from '@ethereumjs/block';
import { equalsBytes } from '@ethereumjs/util';
import {
  type ChainEngine,
  type CallMessage,
  type CallOverrides,
  type CallResult,
  InvalidOverrideError,
  CallPoolBusyError,
  CallTimeoutError,
  CallWorkerDiedError,
} from '../../chain/index.js';
import { performance } from 'node:perf_hooks';
import type { CallRequest, TransactionRequest } from '../../generated/types.js';
import { ErrorCode, RpcError, invalidParams } from '../../rpc/errors.js';
import { blockNotFound, engineOf, heldState, stateBlockOf, type BlockParam } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, fieldQuantity, fromQuantity, toQuantity } from '../hex.js';
import { callQueueFull, callTimedOut } from '../limits.js';
import { overriddenBalance } from './call-overrides.js';

/**
 * The block a call runs on. `pending` is read as `latest`: the engine keeps no pending state, and the next
 * block starts from the head's state anyway (pool transactions are not applied first).
 */
export const callBlock = (engine: ChainEngine, block: BlockParam): Promise<Block> => stateBlockOf(engine, block);

const notFound = (number: bigint): RpcError => blockNotFound(toQuantity(number));

/**
 * The gas a call gets when the request names none: its block's gas limit, except on the head, where it is the limit
 * of the next block the miner builds: after evm_setBlockGasLimit that is the new limit before any block carries it,
 * so a call or estimate follows it at once, as Anvil's do (elsewhere the next block's limit is the head's).
 */
export function defaultCallGas(engine: ChainEngine, block: Block): bigint {
  const head = engine.chain.getHead();
  return block === head || equalsBytes(block.hash(), head.hash())
    ? engine.miner.nextBlockGasLimit()
    : block.header.gasLimit;
}

/** `msg` with its gas given: the request's, else `defaultCallGas`. */
export const withCallGas = (engine: ChainEngine, block: Block, msg: CallMessage): CallMessage & { gas: bigint } => ({
  ...msg,
  gas: msg.gas ?? defaultCallGas(engine, block),
});

/** The fields of the standard's GenericTransaction that `refuseForeignFields` looks at. */
type ForeignFields = Pick<
  CallRequest,
  | 'maxFeePerBlobGas'
  | 'blobVersionedHashes'
  | 'blobs'
  | 'commitments'
  | 'proofs'
  | 'authorizationList'
  | 'gasPrice'
  | 'maxFeePerGas'
  | 'maxPriorityFeePerGas'
>;

/**
 * Blob (EIP-4844) and set-code (EIP-7702) fields are refused: accepting them silently would run a call that
 * differs from what the caller described. Empty lists mean nothing and pass.
 */
export function refuseForeignFields(request: ForeignFields, method?: string): void {
  const invalid = method === undefined ? 'invalid params' : `invalid params for ${method}`;
  const blobField = (['blobVersionedHashes', 'blobs', 'commitments', 'proofs'] as const).find(
    (k) => (request[k]?.length ?? 0) > 0,
  );
  const blob = request.maxFeePerBlobGas !== undefined ? 'maxFeePerBlobGas' : blobField;
  if (blob !== undefined) {
    throw invalidParams(
      `${invalid}: ${blob} belongs to blob transactions (EIP-4844), which Ethereum Classic does not have`,
    );
  }
  if ((request.authorizationList?.length ?? 0) > 0) {
    throw invalidParams(
      `${invalid}: authorizationList belongs to set-code transactions (EIP-7702), which Ethereum Classic does not have`,
    );
  }
  if (
    request.gasPrice !== undefined &&
    (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined)
  ) {
    throw invalidParams(
      `${invalid}: both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) are set; send gasPrice only`,
    );
  }
}

/** A request's chainId, when given, must be this network's. */
export function checkChainId(engine: ChainEngine, request: Pick<TransactionRequest, 'chainId'>, code: number): void {
  if (request.chainId !== undefined && fromQuantity(request.chainId) !== engine.definition.chainId) {
    throw new RpcError(
      code,
      `invalid chain id: the request is for chain id ${fromQuantity(request.chainId)}, this network is chain id ${engine.definition.chainId}`,
    );
  }
}

/** `data` and `input` are synonyms; both given with different bytes is a caller mistake (as geth says). */
export function payloadOf(request: { readonly data?: string; readonly input?: string }): Uint8Array | undefined {
  const { data, input } = request;
  if (data !== undefined && input !== undefined && data.toLowerCase() !== input.toLowerCase()) {
    throw invalidParams('both "data" and "input" are set and not equal; send one of them');
  }
  const payload = input ?? data;
  return payload === undefined ? undefined : bytesFromHex(payload);
}

/**
 * The message of an eth_call / eth_estimateGas request, under the node's limits: a `gas` above
 * `network.rpc.call.gas-cap` runs with the cap, as geth does ("Caller gas above allowance, capping"): clients send
 * gas as large as 2^53 - 1 to mean "unlimited", and a refusal (-32005) made cast and viem retry it as a rate limit.
 * The message carries the request's deadline (`deadlineOf`).
 * type, nonce and accessList do not change a call here; maxFeePerGas and maxPriorityFeePerGas are ignored as geth
 * does before London (there is no base fee to pay).
 */
export function callMessageOf(
  ctx: HandlerContext,
  request: CallRequest,
  method: string,
  overrides?: CallOverrides,
): CallMessage {
  const engine = engineOf(ctx);
  refuseForeignFields(request, method);
  checkChainId(engine, request, ErrorCode.ServerError);
  const data = payloadOf(request);
  const asked = request.gas === undefined ? undefined : fieldQuantity(request.gas, 64, 'gas');
  if (request.nonce !== undefined) fieldQuantity(request.nonce, 64, 'nonce');
  const cap = ctx.node.config.rpc.call.gasCap;
  const gas = asked !== undefined && asked > cap ? cap : asked;
  return {
    ...(request.from !== undefined ? { from: bytesFromHex(request.from) } : {}),
    ...(request.to !== undefined && request.to !== null ? { to: bytesFromHex(request.to) } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(request.value !== undefined ? { value: fieldQuantity(request.value, 256, 'value') } : {}),
    ...(gas !== undefined ? { gas } : {}),
    ...(request.gasPrice !== undefined ? { gasPrice: fieldQuantity(request.gasPrice, 256, 'gasPrice') } : {}),
    ...deadlineOf(ctx),
    ...(overrides !== undefined ? { overrides } : {}),
  };
}

/**
 * The request's wall-clock limit (`network.rpc.call.timeout`), from now: `{ deadline }` to spread into the
 * message, or nothing when the limit is off. Every run of the message shares it (eth_estimateGas's search).
 */
export function deadlineOf(ctx: HandlerContext): Pick<CallMessage, 'deadline'> {
  const limitMs = ctx.node.config.rpc.call.timeoutMs;
  return limitMs > 0 ? { deadline: { at: performance.now() + limitMs, limitMs } } : {};
}

/**
 * Runs `msg` on the state after `block` (the block must be stored: it came from `callBlock`); a run stopped at the
 * message's deadline answers -32005 naming `method`'s time limit.
 */
export async function runOn(engine: ChainEngine, block: Block, msg: CallMessage, method: string): Promise<CallResult> {
  let result: CallResult | undefined;
  try {
    result = await heldState(engine.chain.call(block.hash(), msg));
  } catch (err) {
    if (err instanceof CallTimeoutError) throw callTimedOut(method, err.limitMs);
    if (err instanceof InvalidOverrideError) throw invalidParams(`invalid params: ${err.message}`);
    if (err instanceof CallPoolBusyError) throw callQueueFull(method, err.limit);
    if (err instanceof CallWorkerDiedError) throw new RpcError(ErrorCode.InternalError, `${method}: ${err.message}`);
    throw err;
  }
  if (result === undefined) throw notFound(block.header.number);
  return result;
}

/** The sender's balance at `block` (0 for the zero-address default sender), as `overrides` set it if they do. */
export async function balanceAt(
  engine: ChainEngine,
  block: Block,
  address: Uint8Array | undefined,
  overrides?: CallOverrides,
): Promise<bigint> {
  const overridden = overriddenBalance(overrides, address ?? new Uint8Array(20));
  if (overridden !== undefined) return overridden;
  if (address === undefined) return 0n;
  const state = await heldState(engine.chain.stateAt(block.hash()));
  if (state === undefined) throw notFound(block.header.number);
  return state.getBalance(address);
}

/**
 * The engine runs calls without charging the sender; like geth, a call must be affordable: the value, plus
 * gas * price when a price is given. geth's text, which ethers and viem recognise as insufficient funds.
 */
export async function checkAffordable(engine: ChainEngine, block: Block, msg: CallMessage, gas: bigint): Promise<void> {
  const value = msg.value ?? 0n;
  const price = msg.gasPrice ?? 0n;
  const need = value + gas * price;
  if (need === 0n) return;
  const have = await balanceAt(engine, block, msg.from, msg.overrides);
  if (have < need) {
    throw new RpcError(
      ErrorCode.ServerError,
      `insufficient funds for gas * price + value: address ${senderText(msg.from)} have ${have} want ${need}`,
    );
  }
}

/** geth's -32000 for an estimate whose sender cannot pay for any gas once the value is sent. */
export function insufficientFundsForTransfer(
  from: Uint8Array | undefined,
  balance: bigint,
  value: bigint,
  price: bigint,
): RpcError {
  const left = value === 0n ? 'nothing' : `the value is ${value} wei and nothing is left`;
  return new RpcError(
    ErrorCode.ServerError,
    `insufficient funds for transfer: address ${senderText(from)} have ${balance} wei, ${left} to pay for gas ` +
      `at ${price} wei`,
  );
}

const senderText = (from: Uint8Array | undefined): string =>
  from === undefined ? `0x${'0'.repeat(40)}` : `0x${Buffer.from(from).toString('hex')}`;
