/**
 * trace_call, trace_callMany and trace_rawTransaction: message calls traced on a block's state as eth_call runs
 * them (same defaults and gas cap; nothing is stored). trace_callMany runs its calls in sequence: each starts
 * from the state the previous ones left, which is the block's state with their state diffs written over it.
 */
import type { Block } from '@ethereumjs/block';
import type { StateManagerInterface } from '@ethereumjs/common';
import { createLegacyTx, createTxFromRLP } from '@ethereumjs/tx';
import { Account, Address, hexToBytes, unpadBytes } from '@ethereumjs/util';
import { type ChainEngine, type CallMessage, type TraceOptions, traceCall } from '../../chain/index.js';
import type {
  ParityTraceResults,
  ParityTraceTypes,
  TraceCallManyParams,
  TraceCallManyResult,
  TraceCallParams,
  TraceCallResult,
  TraceRawTransactionParams,
  TraceRawTransactionResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import { callBlock, callMessageOf, deadlineOf } from '../eth/call-request.js';
import { bytesFromHex } from '../hex.js';
import type { PrestateDiff } from './parity-convert.js';
import { replayResults } from './replay.js';
import { stateDiffOpts, traceLimits, wanted } from './tracing.js';
import { tracing } from '../trace-answer.js';

type Hex = `0x${string}`;

/** What the intrinsic gas of `msg` is under the block's rules (taken off the top trace's gas). */
function intrinsicOf(engine: ChainEngine, block: Block, msg: CallMessage) {
  const common = engine.chain.commonAt(block.header.number);
  const tx = createLegacyTx({ to: msg.to, data: msg.data, gasLimit: msg.gas ?? block.header.gasLimit }, { common });
  return { tx, common };
}

/** One call traced on `block`'s state, after `prepare` (the earlier calls of a trace_callMany). */
async function traceOne(
  ctx: HandlerContext,
  block: Block,
  msg: CallMessage,
  types: ParityTraceTypes,
  method: string,
  prepare?: (state: StateManagerInterface) => Promise<void>,
): Promise<ParityTraceResults> {
  const engine = engineOf(ctx);
  const { tx, common } = intrinsicOf(engine, block, msg);
  const run = (opts: TraceOptions) =>
    traceCall(engine.chain, msg, block, { ...opts, ...(prepare !== undefined ? { prepareState: prepare } : {}) });
  return tracing(ctx, method, () => replayResults(run, tx, common, types, traceLimits(ctx)));
}

export async function trace_call(
  [request, types, blockParam]: TraceCallParams,
  ctx: HandlerContext,
): Promise<TraceCallResult> {
  wanted(types);
  const msg = callMessageOf(ctx, request, 'trace_call');
  const block = await callBlock(engineOf(ctx), blockParam);
  return traceOne(ctx, block, msg, types, 'trace_call');
}

/** Writes what a call changed (its prestate diff) over `state`: post values, zeroed slots, deleted accounts. */
async function applyDiff(state: StateManagerInterface, diff: PrestateDiff): Promise<void> {
  for (const [key, post] of Object.entries(diff.post)) {
    const address = new Address(hexToBytes(key as Hex));
    const account = (await state.getAccount(address)) ?? new Account();
    if (post.balance !== undefined) account.balance = BigInt(post.balance);
    if (post.nonce !== undefined) account.nonce = BigInt(post.nonce);
    await state.putAccount(address, account);
    if (post.code !== undefined) await state.putCode(address, hexToBytes(post.code as Hex));
    const slots = new Set([...Object.keys(diff.pre[key]?.storage ?? {}), ...Object.keys(post.storage ?? {})]);
    for (const slot of slots) {
      const value = post.storage?.[slot];
      await state.putStorage(
        address,
        hexToBytes(slot as Hex),
        value === undefined ? new Uint8Array(0) : unpadBytes(hexToBytes(value as Hex)),
      );
    }
  }
  for (const key of Object.keys(diff.pre)) {
    if (!(key in diff.post)) await state.deleteAccount(new Address(hexToBytes(key as Hex)));
  }
}

export async function trace_callMany(
  [calls, blockParam]: TraceCallManyParams,
  ctx: HandlerContext,
): Promise<TraceCallManyResult> {
  for (const [, types] of calls) wanted(types);
  const engine = engineOf(ctx);
  const block = await callBlock(engine, blockParam);
  const diffs: PrestateDiff[] = [];
  const results: ParityTraceResults[] = [];
  for (const [request, types] of calls) {
    const msg = callMessageOf(ctx, request, 'trace_callMany');
    const before = [...diffs];
    const prepare = async (state: StateManagerInterface) => {
      for (const diff of before) await applyDiff(state, diff);
    };
    results.push(await traceOne(ctx, block, msg, types, 'trace_callMany', prepare));
    // The next call starts where this one left the state.
    const diff = await tracing(ctx, 'trace_callMany', () =>
      traceCall(engine.chain, msg, block, { ...stateDiffOpts(traceLimits(ctx)), prepareState: prepare }),
    );
    diffs.push(diff as PrestateDiff);
  }
  return results;
}

export async function trace_rawTransaction(
  [data, types, blockParam]: TraceRawTransactionParams,
  ctx: HandlerContext,
): Promise<TraceRawTransactionResult> {
  wanted(types);
  const engine = engineOf(ctx);
  const block = await callBlock(engine, blockParam);
  let msg: CallMessage;
  try {
    const tx = createTxFromRLP(bytesFromHex(data), { common: engine.chain.commonAt(block.header.number) });
    msg = {
      from: tx.getSenderAddress().bytes,
      ...(tx.to !== undefined ? { to: tx.to.bytes } : {}),
      data: tx.data,
      value: tx.value,
      gas: tx.gasLimit,
      ...('gasPrice' in tx ? { gasPrice: tx.gasPrice } : {}),
      ...deadlineOf(ctx),
    };
  } catch (err) {
    throw invalidParams(`invalid params: not a signed transaction: ${(err as Error).message}`);
  }
  return traceOne(ctx, block, msg, types, 'trace_rawTransaction');
}
