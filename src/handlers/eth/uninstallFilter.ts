import type { EthUninstallFilterParams, EthUninstallFilterResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { fromQuantity } from '../hex.js';

/** True when the filter existed; false for an unknown or expired id. */
export function eth_uninstallFilter(
  [filterId]: EthUninstallFilterParams,
  ctx: HandlerContext,
): EthUninstallFilterResult {
  return engineOf(ctx).logs.filters.uninstall(fromQuantity(filterId));
}
