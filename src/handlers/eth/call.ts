import type { EthCallParams, EthCallResult } from '../../generated/types.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes } from '../hex.js';
import { callBlock, callMessageOf, checkAffordable, runOn, withCallGas } from './call-request.js';
import { engineOf } from '../block-ref.js';
import { executionReverted } from './revert.js';
import { callOverridesOf } from './call-overrides.js';
import { consoleOf, printConsole } from './console-lines.js';

/** Executes a message call on the state after the given block (default latest); nothing is persisted. */
export async function eth_call(
  [request, blockParam, stateOverrides, blockOverrides]: EthCallParams,
  ctx: HandlerContext,
): Promise<EthCallResult> {
  const engine = engineOf(ctx);
  const asked = callMessageOf(ctx, request, 'eth_call', callOverridesOf(stateOverrides, blockOverrides));
  const block = await callBlock(engine, blockParam);
  const msg = { ...withCallGas(engine, block, asked), ...consoleOf(ctx) };
  await checkAffordable(engine, block, msg, msg.gas);
  const result = await runOn(engine, block, msg, 'eth_call');
  printConsole(ctx, 'eth_call', result.console);
  if (result.reverted) throw executionReverted(result.returnData);
  if (result.error !== undefined) throw new RpcError(ErrorCode.ServerError, result.error);
  return hexFromBytes(result.returnData);
}
