/**
 * eth_call / eth_estimateGas inputs → engine values: the CallRequest becomes a `CallMessage`, the block
 * parameter a `BlockRef`, and the message runs on that block's state (-32001 when the block is unknown).
 */
import type { Block } from '@ethereumjs/block';
import type { ChainEngine } from '../../chain/engine.js';
import type { BlockRef } from '../../chain/blockchain.js';
import type { CallMessage, CallResult } from '../../chain/exec/call.js';
import type { BlockNumberOrTag, CallRequest } from '../../generated/types.js';
import { ErrorCode, RpcError, invalidParams } from '../../server/errors.js';
import { blockNotFound } from '../block-ref.js';
import { bytesFromHex, fromQuantity, toQuantity } from '../hex.js';

/**
 * The block a call runs on. `pending` is read as `latest`: the engine keeps no pending state, and the next
 * block starts from the head's state anyway (pool transactions are not applied first).
 */
export function callBlockRef(block: BlockNumberOrTag | undefined): BlockRef {
  if (block === undefined || block === 'latest' || block === 'pending') return 'latest';
  if (block === 'earliest') return 'earliest';
  return fromQuantity(block);
}

const notFound = (ref: BlockRef): RpcError => blockNotFound(typeof ref === 'bigint' ? toQuantity(ref) : String(ref));

/** The environment block of a call, or -32001. */
export async function callBlock(engine: ChainEngine, ref: BlockRef): Promise<Block> {
  const block = await engine.chain.getBlock(ref);
  if (block === undefined) throw notFound(ref);
  return block;
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

export function callMessageOf(request: CallRequest): CallMessage {
  const data = payloadOf(request);
  return {
    ...(request.from !== undefined ? { from: bytesFromHex(request.from) } : {}),
    ...(request.to !== undefined && request.to !== null ? { to: bytesFromHex(request.to) } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(request.value !== undefined ? { value: fromQuantity(request.value) } : {}),
    ...(request.gas !== undefined ? { gas: fromQuantity(request.gas) } : {}),
    ...(request.gasPrice !== undefined ? { gasPrice: fromQuantity(request.gasPrice) } : {}),
  };
}

/** Runs `msg` on the state after `block` (the block must be stored: it came from `callBlock`). */
export async function runOn(engine: ChainEngine, block: Block, msg: CallMessage): Promise<CallResult> {
  const result = await engine.chain.call(block.hash(), msg);
  if (result === undefined) throw notFound(block.header.number);
  return result;
}

/** The sender's balance at `block` (0 for the zero-address default sender). */
export async function balanceAt(engine: ChainEngine, block: Block, address: Uint8Array | undefined): Promise<bigint> {
  if (address === undefined) return 0n;
  const state = await engine.chain.stateAt(block.hash());
  if (state === undefined) throw notFound(block.header.number);
  return state.getBalance(address);
}

/**
 * The engine runs calls without charging the sender; like geth, a call that names a gas price must be
 * affordable (value + gas * price), and a value transfer needs the value.
 */
export async function checkAffordable(engine: ChainEngine, block: Block, msg: CallMessage, gas: bigint): Promise<void> {
  const value = msg.value ?? 0n;
  const price = msg.gasPrice ?? 0n;
  const need = value + gas * price;
  if (need === 0n) return;
  const have = await balanceAt(engine, block, msg.from);
  if (have < need) {
    const what = price === 0n ? 'insufficient funds for transfer' : 'insufficient funds for gas * price + value';
    throw new RpcError(ErrorCode.ServerError, `${what}: balance ${have} wei, needed ${need} wei`);
  }
}
