import type { Block } from '@ethereumjs/block';
import type { ChainEngine, CallMessage, CallResult } from '../../chain/index.js';
import type { EthEstimateGasParams, EthEstimateGasResult } from '../../generated/types.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import type { HandlerContext } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';
import {
  balanceAt,
  callBlock,
  callMessageOf,
  checkAffordable,
  defaultCallGas,
  insufficientFundsForTransfer,
  runOn,
} from './call-request.js';
import { engineOf } from '../block-ref.js';
import { executionReverted } from './revert.js';
import { callOverridesOf } from './call-overrides.js';
import { consoleOf, printConsole } from './console-lines.js';
import { plainTransferGas } from './transfer-estimate.js';

/** The lowest gas limit with which the call succeeds, found by binary search (not the gas it used). */
export async function eth_estimateGas(
  [request, blockParam, stateOverrides, blockOverrides]: EthEstimateGasParams,
  ctx: HandlerContext,
): Promise<EthEstimateGasResult> {
  const engine = engineOf(ctx);
  // One deadline for the whole search: every run of it counts against the limit.
  const msg = callMessageOf(ctx, request, 'eth_estimateGas', callOverridesOf(stateOverrides, blockOverrides));
  const block = await callBlock(engine, blockParam);
  const onConsole = (lines: readonly string[] | undefined) => printConsole(ctx, 'eth_estimateGas', lines);
  return toQuantity(await estimateGas(engine, block, { ...msg, ...consoleOf(ctx) }, 'eth_estimateGas', onConsole));
}

const succeeded = (result: CallResult): boolean => result.error === undefined;

/**
 * Search bounds: the cap is the given gas, else the block gas limit (`defaultCallGas`), lowered to what the sender can pay
 * when a gas price is given. The run at the cap decides whether any limit works (a revert there is the
 * caller's answer, code 3). A run never needs less than the gas it used, so `gasUsed - 1` is a lower
 * bound, and the limit equal to `gasUsed` is tried first: it is the answer for anything without refunds
 * or the 63/64 call-gas rule. `method` names the request in a time-limit answer.
 */
export async function estimateGas(
  engine: ChainEngine,
  block: Block,
  msg: CallMessage,
  method: string,
  onConsole?: (lines: readonly string[] | undefined) => void,
): Promise<bigint> {
  const cap = await gasCap(engine, block, msg);
  const known = await plainTransferGas(engine, block, msg, cap);
  if (known !== undefined) return known;
  return searchGas(engine, block, msg, cap, method, onConsole);
}

/** The search below the cap, by runs of the message (the reference `plainTransferGas` must agree with). */
export async function searchGas(
  engine: ChainEngine,
  block: Block,
  msg: CallMessage,
  cap: bigint,
  method: string,
  onConsole?: (lines: readonly string[] | undefined) => void,
): Promise<bigint> {
  // console.log lines come from the run at the cap only: the search's runs would repeat them.
  const { console: withConsole, ...plain } = msg;
  const attempt = (gas: bigint) => runOn(engine, block, { ...plain, gas }, method);
  const atCap = await runOn(engine, block, { ...msg, gas: cap }, method);
  if (withConsole === true) onConsole?.(atCap.console);
  if (!succeeded(atCap)) {
    if (atCap.reverted) throw executionReverted(atCap.returnData);
    // As geth: only a shortage of gas is "exceeds allowance"; any other failure (an opcode the chain's rules lack,
    // a bad jump) would fail at every limit, and the caller needs its reason, the one eth_call gives.
    if (!isGasShortage(atCap.error!)) throw new RpcError(ErrorCode.ServerError, atCap.error!);
    throw new RpcError(ErrorCode.ServerError, `gas required exceeds allowance (${toQuantity(cap)})`);
  }
  let lo = atCap.gasUsed > 0n ? atCap.gasUsed - 1n : 0n; // fails (or is below any valid limit)
  let hi = cap; // succeeds
  if (lo + 1n < hi) {
    if (succeeded(await attempt(lo + 1n))) return lo + 1n;
    lo += 1n;
  }
  while (lo + 1n < hi) {
    const mid = lo + (hi - lo) / 2n;
    if (succeeded(await attempt(mid))) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Out of gas in execution or at code storage, or a cap below the intrinsic gas: more gas could make it work. */
function isGasShortage(error: string): boolean {
  return /out of gas|INTRINSIC_GAS_TOO_LOW|lower than the minimum gas limit/i.test(error);
}

/**
 * geth's bounds: the given gas, else the block gas limit; with a gas price, lowered to what the sender can pay
 * once the value is sent. A sender whose balance does not exceed the value (an unfunded account included) cannot
 * pay for any gas: geth answers "insufficient funds for transfer" there, not "gas required exceeds allowance (0)".
 */
export async function gasCap(engine: ChainEngine, block: Block, msg: CallMessage): Promise<bigint> {
  const limit = msg.gas ?? defaultCallGas(engine, block);
  const price = msg.gasPrice ?? 0n;
  if (price === 0n) {
    await checkAffordable(engine, block, msg, 0n);
    return limit;
  }
  const value = msg.value ?? 0n;
  const balance = await balanceAt(engine, block, msg.from, msg.overrides);
  if (balance <= value) throw insufficientFundsForTransfer(msg.from, balance, value, price);
  const allowance = (balance - value) / price;
  return allowance < limit ? allowance : limit;
}
