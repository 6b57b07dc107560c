/**
 * trace_replayTransaction and trace_replayBlockTransactions: stored transactions replayed on their block's state
 * with the callTracer (output and traces) and, when asked, the prestateTracer in diff mode (stateDiff).
 */
import type { Common } from '@ethereumjs/common';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import type { CallFrameJson, TraceLimits, TraceOptions } from '../../chain/index.js';
import type {
  ParityTraceResults,
  ParityTraceTypes,
  TraceReplayBlockTransactionsParams,
  TraceReplayBlockTransactionsResult,
  TraceReplayTransactionParams,
  TraceReplayTransactionResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf, findBlock } from '../block-ref.js';
import { bytesFromHex } from '../hex.js';
import { type PrestateDiff, stateDiffOf } from './parity-convert.js';
import {
  callTracerOpts,
  parityTraces,
  replayBlock,
  replayTransaction,
  stateDiffOpts,
  traceLimits,
  wanted,
} from './tracing.js';
import { tracing } from '../trace-answer.js';

/**
 * The results of one run as trace_replay* / trace_call give them; `run` replays it under the options given
 * (once with the callTracer, once more with the prestateTracer when a stateDiff is asked for).
 */
export async function replayResults(
  run: (opts: TraceOptions) => Promise<unknown>,
  tx: Pick<TypedTransaction, 'getIntrinsicGas'>,
  common: Common,
  types: ParityTraceTypes,
  limits: TraceLimits,
): Promise<ParityTraceResults> {
  const want = wanted(types);
  const top = (await run(callTracerOpts(limits, !want.trace))) as CallFrameJson;
  const diff = want.stateDiff ? ((await run(stateDiffOpts(limits))) as PrestateDiff) : undefined;
  return resultsOf(top, diff, tx, common, want.trace);
}

function resultsOf(
  top: CallFrameJson,
  diff: PrestateDiff | undefined,
  tx: Pick<TypedTransaction, 'getIntrinsicGas'>,
  common: Common,
  withTrace: boolean,
): ParityTraceResults {
  return {
    output: (top.output ?? '0x') as `0x${string}`,
    stateDiff: (diff === undefined ? null : stateDiffOf(diff)) as ParityTraceResults['stateDiff'],
    trace: (withTrace ? parityTraces(top, tx, common) : []) as unknown as ParityTraceResults['trace'],
    vmTrace: null,
  };
}

export async function trace_replayTransaction(
  [hash, types]: TraceReplayTransactionParams,
  ctx: HandlerContext,
): Promise<TraceReplayTransactionResult> {
  wanted(types);
  const engine = engineOf(ctx);
  const found = await engine.chain.getTransaction(bytesFromHex(hash));
  if (found === undefined) return null;
  const common = engine.chain.commonAt(found.block.header.number);
  return tracing(ctx, 'trace_replayTransaction', () =>
    replayResults(
      (opts) => replayTransaction(engine, found.block, found.index, opts),
      found.tx,
      common,
      types,
      traceLimits(ctx),
    ),
  );
}

export async function trace_replayBlockTransactions(
  [blockParam, types]: TraceReplayBlockTransactionsParams,
  ctx: HandlerContext,
): Promise<TraceReplayBlockTransactionsResult> {
  const want = wanted(types);
  const engine = engineOf(ctx);
  const found = await findBlock(engine, blockParam);
  if (found === undefined || found.pending) return null;
  const { block } = found;
  const limits = traceLimits(ctx);
  const common = engine.chain.commonAt(block.header.number);
  return tracing(ctx, 'trace_replayBlockTransactions', async () => {
    const tops = (await replayBlock(engine, block, callTracerOpts(limits, !want.trace))) as CallFrameJson[];
    const diffs = want.stateDiff ? ((await replayBlock(engine, block, stateDiffOpts(limits))) as PrestateDiff[]) : [];
    return tops.map((top, i) => ({
      ...resultsOf(top, diffs[i], block.transactions[i], common, want.trace),
      transactionHash: bytesToHex(block.transactions[i].hash()),
    }));
  });
}
