/** anvil_setLoggingEnabled: the node's info lines off and on again (node/logger.ts `quiet`), as Anvil's node log. */
import type { AnvilSetLoggingEnabledParams, AnvilSetLoggingEnabledResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { controlsOf } from './controls.js';

export function anvil_setLoggingEnabled(
  [enabled]: AnvilSetLoggingEnabledParams,
  ctx: HandlerContext,
): AnvilSetLoggingEnabledResult {
  controlsOf(ctx, 'anvil_setLoggingEnabled');
  ctx.node.log.quiet = !enabled;
  return null;
}
