import type { AnvilRollbackParams, AnvilRollbackResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { ReorgDepthError } from '../../chain/index.js';
import { quantityParam } from '../test-quantity.js';
import { controlsOf } from './controls.js';

/** anvil_rollback: the top `depth` blocks (default 1) leave the chain and nothing replaces them, as Anvil's. */
export async function anvil_rollback([depth]: AnvilRollbackParams, ctx: HandlerContext): Promise<AnvilRollbackResult> {
  const n = depth === undefined || depth === null ? 1n : quantityParam(depth, 'anvil_rollback', 'depth');
  try {
    await controlsOf(ctx, 'anvil_rollback').rollback(n);
  } catch (err) {
    if (err instanceof ReorgDepthError) throw invalidParams(err.message);
    throw err;
  }
  return null;
}
