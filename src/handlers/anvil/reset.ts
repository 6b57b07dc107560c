/**
 * anvil_reset: back to genesis. Fork mode plugs in here: a reset that names `forking.jsonRpcUrl` re-forks onto
 * that node (`resetOntoFork`); until fork mode exists it is refused.
 */
import type { AnvilResetOptions, AnvilResetParams, AnvilResetResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { controlsOf } from './controls.js';

export async function anvil_reset([options]: AnvilResetParams, ctx: HandlerContext): Promise<AnvilResetResult> {
  const controls = controlsOf(ctx, 'anvil_reset');
  if (options?.forking?.jsonRpcUrl !== undefined) return resetOntoFork(options.forking, ctx);
  await controls.reset();
  return null;
}

/** The fork-mode hook: this node has no fork mode yet. */
function resetOntoFork(_forking: NonNullable<AnvilResetOptions['forking']>, _ctx: HandlerContext): never {
  throw invalidParams('invalid params for anvil_reset: fork mode (forking.jsonRpcUrl) is not available on this node');
}
