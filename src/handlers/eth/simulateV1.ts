/**
 * eth_simulateV1 (ethereum/execution-apis src/eth/execute.yaml): the payload's blocks simulated on the state after
 * the given block by the engine (chain/trace/simulate.ts), answered as block objects with their calls' results.
 * Nothing is stored. A stop the spec names ends the request with its code; the limits are the node's settings:
 * network.rpc.call.simulate-max-blocks blocks and network.rpc.call.gas-cap gas in all (-38026), and
 * network.rpc.call.timeout (-32016).
 */
import {
  SimulateError,
  simulate,
  type SimulatedBlockResult,
  type SimulatedCallResult,
  type SimulateStop,
  TraceReplayError,
} from '../../chain/index.js';
import type {
  EthSimulateV1Params,
  EthSimulateV1Result,
  Log,
  SimulateCallResult,
  SimulatedBlock,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { engineOf, heldState } from '../block-ref.js';
import { formatBlock } from '../format/index.js';
import { hexFromBytes, toQuantity } from '../hex.js';
import { callBlock } from './call-request.js';
import { executionReverted } from './revert.js';
import { simulatedBlocksOf } from './simulate-input.js';

/** The spec's code for each stop (execute.yaml's errors). */
const CODES: Readonly<Record<SimulateStop, number>> = {
  nonceTooLow: -38010,
  nonceTooHigh: -38011,
  intrinsicGas: -38013,
  insufficientFunds: -38014,
  blockGasLimit: -38015,
  blockNumberOrder: -38020,
  blockTimestampOrder: -38021,
  senderNotEoa: -38024,
  initCodeTooLarge: -38025,
  clientLimit: -38026,
  invalidOverride: ErrorCode.InvalidParams,
  rejected: ErrorCode.ServerError,
  timeout: -32016,
};

/** The spec's code for an EVM failure other than a revert. */
const VM_ERROR = -32015;

export async function eth_simulateV1(
  [payload, blockParam]: EthSimulateV1Params,
  ctx: HandlerContext,
): Promise<EthSimulateV1Result> {
  const engine = engineOf(ctx);
  const inputs = simulatedBlocksOf(ctx, payload.blockStateCalls);
  const base = await callBlock(engine, blockParam);
  const limits = ctx.node.config.rpc.call;
  let results: SimulatedBlockResult[];
  try {
    results = await heldState(
      simulate(engine.chain, base, inputs, {
        validation: payload.validation === true,
        traceTransfers: payload.traceTransfers === true,
        maxBlocks: limits.simulateMaxBlocks,
        gasBudget: limits.gasCap,
        ...(limits.timeoutMs > 0
          ? { deadline: { at: performance.now() + limits.timeoutMs, limitMs: limits.timeoutMs } }
          : {}),
      }),
    );
  } catch (err) {
    if (err instanceof SimulateError) throw new RpcError(CODES[err.stop], err.message);
    if (err instanceof TraceReplayError) throw new RpcError(ErrorCode.ServerError, err.message);
    throw err;
  }
  let td = (await engine.chain.getTotalDifficulty(base.hash())) ?? 0n;
  return results.map((r) => {
    td += r.block.header.difficulty;
    return blockJson(ctx, r, td, payload.returnFullTransactions === true);
  });
}

function blockJson(ctx: HandlerContext, r: SimulatedBlockResult, td: bigint, full: boolean): SimulatedBlock {
  const { block } = r;
  const out = formatBlock(
    engineOf(ctx).memo,
    block,
    td,
    full ? { full: true, senders: [...r.senders] } : { full: false },
  ) as SimulatedBlock;
  const hash = hexFromBytes(block.hash());
  const at = {
    blockHash: hash,
    blockNumber: toQuantity(block.header.number),
    blockTimestamp: toQuantity(block.header.timestamp),
  };
  let logIndex = 0;
  out.calls = r.calls.map((call, i) => {
    const position = {
      ...at,
      transactionHash: hexFromBytes(block.transactions[i].hash()),
      transactionIndex: toQuantity(i),
    };
    const logs: Log[] = call.logs.map((log) => ({
      ...position,
      logIndex: toQuantity(logIndex++),
      removed: false,
      address: hexFromBytes(log.address),
      topics: log.topics.map(hexFromBytes),
      data: hexFromBytes(log.data),
    }));
    return callJson(call, logs);
  });
  return out;
}

function callJson(call: SimulatedCallResult, logs: Log[]): SimulateCallResult {
  const base = { returnData: hexFromBytes(call.returnData), gasUsed: toQuantity(call.gasUsed), logs };
  if (call.error === undefined) return { status: '0x1', ...base };
  if (call.error.reverted) {
    const err = executionReverted(call.returnData);
    return { status: '0x0', ...base, error: { code: err.code, message: err.message, data: base.returnData } };
  }
  return { status: '0x0', ...base, error: { code: VM_ERROR, message: `vm execution error: ${call.error.message}` } };
}
