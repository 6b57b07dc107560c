/**
 * eth_callMany (Erigon's method, in the shape Anvil serves it): bundles of calls run one after another by the
 * simulation engine (chain/trace/simulate.ts) in its bundle mode, each bundle a block whose number and time step by
 * 1 from the context block's, block overrides staying for the bundles after. A context with transactionIndex n runs
 * the block's first n transactions first, as calls from their senders, and leaves their results out.
 */
import type { Block } from '@ethereumjs/block';
import {
  type ChainEngine,
  SimulateError,
  type SimulatedBlockEnv,
  type SimulatedBlockInput,
  type SimulatedCall,
  type SimulatedCallResult,
  TraceReplayError,
  simulate,
} from '../../chain/index.js';
import type { CallManyResult, EthCallManyParams, EthCallManyResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { ErrorCode, RpcError, invalidParams } from '../../rpc/errors.js';
import { engineOf, heldState, receiptsOf } from '../block-ref.js';
import { fieldQuantity, hexFromBytes } from '../hex.js';
import { callTimedOut, limitExceeded } from '../limits.js';
import { callOverridesOf } from './call-overrides.js';
import { callBlock } from './call-request.js';
import { decodeRevertReason } from './revert.js';
import { simulatedBlocksOf, simulatedEnvOf } from './simulate-input.js';

const METHOD = 'eth_callMany';

export async function eth_callMany(
  [bundles, context, stateOverrides]: EthCallManyParams,
  ctx: HandlerContext,
): Promise<EthCallManyResult> {
  if (bundles.length === 0) throw invalidParams(`invalid params for ${METHOD}: bundles are empty`);
  const engine = engineOf(ctx);
  const at = await callBlock(engine, context?.blockNumber);
  const index = indexOf(context?.transactionIndex);
  const prefix = index < 0 ? [] : await firstTransactions(engine, at, index);
  const base = index < 0 ? at : await engine.chain.getBlock(at.header.parentHash);
  if (base === undefined)
    throw new RpcError(ErrorCode.ServerError, `${METHOD}: the parent of block ${at.header.number} is not stored`);
  const asBlocks = simulatedBlocksOf(
    ctx,
    bundles.map((b) => ({ calls: b.transactions })),
  );
  const state = callOverridesOf(stateOverrides, undefined)?.state;
  let env: SimulatedBlockEnv & { number: bigint; timestamp: bigint } = {
    number: at.header.number,
    timestamp: at.header.timestamp,
    gasLimit: at.header.gasLimit,
    coinbase: at.header.coinbase.bytes,
    difficulty: at.header.difficulty,
  };
  const inputs: SimulatedBlockInput[] = asBlocks.map((input, i) => {
    env = { ...env, ...overrideOf(bundles[i].blockOverride, i) };
    const block: SimulatedBlockInput = {
      env,
      ...(i === 0 && state !== undefined ? { state } : {}),
      calls: i === 0 ? [...prefix, ...input.calls] : input.calls,
    };
    env = { ...env, number: env.number + 1n, timestamp: env.timestamp + 1n };
    return block;
  });
  const limits = ctx.node.config.rpc.call;
  try {
    const results = await heldState(
      simulate(engine.chain, base, inputs, {
        validation: false,
        traceTransfers: false,
        bundles: true,
        maxBlocks: limits.simulateMaxBlocks,
        gasBudget: limits.gasCap,
        ...(limits.timeoutMs > 0
          ? { deadline: { at: performance.now() + limits.timeoutMs, limitMs: limits.timeoutMs } }
          : {}),
      }),
    );
    return results.map((r, i) => (i === 0 ? r.calls.slice(prefix.length) : r.calls).map(answerOf));
  } catch (err) {
    if (err instanceof SimulateError) throw stopOf(err, bundles.length, limits.simulateMaxBlocks);
    if (err instanceof TraceReplayError) throw new RpcError(ErrorCode.ServerError, err.message);
    throw err;
  }
}

/** -1 (or none): after the whole block; n ≥ 0: after its first n transactions. */
function indexOf(given: number | string | undefined): number {
  if (given === undefined) return -1;
  const n = typeof given === 'number' ? given : Number(BigInt(given));
  if (!Number.isSafeInteger(n) || n < -1)
    throw invalidParams(`invalid params for ${METHOD}: transactionIndex ${given}`);
  return n;
}

/** The block's first `n` transactions, as calls from their senders (the receipts name them). */
async function firstTransactions(engine: ChainEngine, block: Block, n: number): Promise<SimulatedCall[]> {
  if (n > block.transactions.length) {
    throw invalidParams(
      `invalid params for ${METHOD}: transactionIndex ${n} is past the ${block.transactions.length} transactions of block ${block.header.number}`,
    );
  }
  const receipts = await receiptsOf(engine, { block, hash: block.hash(), pending: false });
  return block.transactions.slice(0, n).map((tx, i) => ({
    from: receipts[i].from,
    ...(tx.to !== undefined ? { to: tx.to.bytes } : {}),
    data: tx.data,
    value: tx.value,
    gas: tx.gasLimit,
    gasPrice: (tx as { gasPrice?: bigint }).gasPrice ?? 0n,
    nonce: tx.nonce,
  }));
}

function overrideOf(o: EthCallManyParams[0][number]['blockOverride'], i: number): Partial<SimulatedBlockEnv> {
  if (o === undefined) return {};
  const where = `${METHOD} bundles[${i}].blockOverride`;
  if (o.random !== undefined || o.baseFee !== undefined) {
    throw invalidParams(
      `invalid params: ${where}: random and baseFee do not exist on Ethereum Classic (proof-of-work, no EIP-1559)`,
    );
  }
  const env = simulatedEnvOf({ number: o.number, time: o.time, gasLimit: o.gasLimit, feeRecipient: o.coinbase }, where);
  return {
    ...env,
    ...(o.difficulty !== undefined ? { difficulty: fieldQuantity(o.difficulty, 256, 'difficulty') } : {}),
  };
}

function answerOf(call: SimulatedCallResult): CallManyResult {
  if (call.error === undefined) return { value: hexFromBytes(call.returnData) };
  if (!call.error.reverted) return { error: call.error.message };
  const reason = decodeRevertReason(call.returnData);
  return { error: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}` };
}

function stopOf(err: SimulateError, count: number, maxBlocks: number): RpcError {
  if (err.stop === 'invalidOverride') return invalidParams(`invalid params: ${err.message}`);
  if (err.stop === 'timeout') return callTimedOut(METHOD, Number(/(\d+) ms/.exec(err.message)?.[1] ?? 0));
  if (err.stop === 'clientLimit' && /bundles/.test(err.message)) {
    return limitExceeded(`${METHOD}: bundles`, count, maxBlocks, 'network.rpc.call.simulate-max-blocks');
  }
  return new RpcError(ErrorCode.ServerError, err.message);
}
