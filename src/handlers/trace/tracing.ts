/**
 * trace_* over the tracing engine (src/chain/trace): a block's transactions replayed with geth's callTracer and
 * prestateTracer, converted to OpenEthereum's shapes (parity-convert.ts), plus the block's reward traces from the
 * chain's reward rules. The handlers run their traces through `tracing` (../trace-answer.ts): a slot, and the engine's
 * failures answered as every tracing method answers them.
 */
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { getActivePrecompiles } from '@ethereumjs/evm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import {
  type ChainEngine,
  type CallFrameJson,
  type TraceLimits,
  type TraceOptions,
  TraceReplayError,
  traceBlock,
  traceTransaction,
} from '../../chain/index.js';
import type { ParityTraceTypes } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import {
  type LocalizedTrace,
  type ParityTrace,
  type PrestateDiff,
  flattenCallFrame,
  localize,
  rewardTrace,
} from './parity-convert.js';

/** Per-request caps: debug_trace*'s time and memory caps bound every replay of a trace_* request too. */
export function traceLimits(ctx: HandlerContext): TraceLimits {
  const caps = ctx.node.config.rpc.debug;
  return {
    timeoutMs: caps.traceTimeoutMs,
    timeoutSource: 'network.rpc.debug.trace-timeout',
    maxResultBytes: caps.maxTraceBytes,
  };
}

/** Which replays a trace_replay* / trace_call request wants; vmTrace is refused. */
export function wanted(types: ParityTraceTypes): { readonly trace: boolean; readonly stateDiff: boolean } {
  if (types.includes('vmTrace')) {
    throw invalidParams('invalid params: vmTrace is not offered; ask for trace and/or stateDiff');
  }
  return { trace: types.includes('trace'), stateDiff: types.includes('stateDiff') };
}

export const callTracerOpts = (limits: TraceLimits, onlyTopCall = false): TraceOptions => ({
  tracer: 'callTracer',
  tracerConfig: { onlyTopCall },
  limits,
});

export const stateDiffOpts = (limits: TraceLimits): TraceOptions => ({
  tracer: 'prestateTracer',
  tracerConfig: { diffMode: true },
  limits,
});

/** The precompile test of the rules `common` is at (calls to them are left out of the traces). */
export function precompilesOf(common: Common): (address: string) => boolean {
  const active = getActivePrecompiles(common);
  return (address) => active.has(address.slice(2).toLowerCase());
}

/** A transaction's call frames as OpenEthereum traces. */
export function parityTraces(frame: CallFrameJson, tx: Pick<TypedTransaction, 'getIntrinsicGas'>, common: Common) {
  return flattenCallFrame(frame, { intrinsicGas: tx.getIntrinsicGas(), isPrecompile: precompilesOf(common) });
}

/** Every transaction of `block` replayed with `opts` (geth tracer answers, in transaction order). */
export async function replayBlock(engine: ChainEngine, block: Block, opts: TraceOptions): Promise<unknown[]> {
  if (block.transactions.length === 0) return [];
  const traces = await traceBlock(engine.chain, block.hash(), opts);
  if (traces === undefined) throw new TraceReplayError(`block ${bytesToHex(block.hash())} not found`);
  return traces.map((t) => t.result);
}

/** One stored transaction of `block` (at `index`) replayed with `opts`. */
export async function replayTransaction(
  engine: ChainEngine,
  block: Block,
  index: number,
  opts: TraceOptions,
): Promise<unknown> {
  const result = await traceTransaction(engine.chain, block.transactions[index].hash(), opts);
  if (result === undefined)
    throw new TraceReplayError(`transaction ${index} of block ${bytesToHex(block.hash())} not found`);
  return result;
}

/** The localized traces of every transaction of `block`, or of the one at `only` (no rewards). */
export async function transactionTracesOf(
  engine: ChainEngine,
  block: Block,
  limits: TraceLimits,
  only?: number,
): Promise<LocalizedTrace[]> {
  const opts = callTracerOpts(limits);
  const frames =
    only === undefined ? await replayBlock(engine, block, opts) : [await replayTransaction(engine, block, only, opts)];
  const common = engine.chain.commonAt(block.header.number);
  const blockHash = bytesToHex(block.hash());
  return frames.flatMap((frame, i) => {
    const position = only ?? i;
    const tx = block.transactions[position];
    const place = {
      blockHash,
      blockNumber: block.header.number,
      transactionHash: bytesToHex(tx.hash()),
      transactionPosition: position,
    };
    return parityTraces(frame as CallFrameJson, tx, common).map((t: ParityTrace) => localize(t, place));
  });
}

/** The miner's reward (uncle inclusion counted in) and each uncle's, as core-geth lists them after the block's. */
export function rewardTracesOf(engine: ChainEngine, block: Block): LocalizedTrace[] {
  if (block.header.number === 0n) return [];
  const place = { blockHash: bytesToHex(block.hash()), blockNumber: block.header.number };
  return engine.chain
    .rewardsOf(block)
    .map((r, i) => rewardTrace(bytesToHex(r.address), r.amount, i === 0 ? 'block' : 'uncle', place));
}

/** trace_block's answer: the transactions' traces, then the rewards. */
export async function blockTracesOf(engine: ChainEngine, block: Block, limits: TraceLimits): Promise<LocalizedTrace[]> {
  return [...(await transactionTracesOf(engine, block, limits)), ...rewardTracesOf(engine, block)];
}

export type { PrestateDiff };
