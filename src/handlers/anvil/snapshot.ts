import type { EvmRevertParams, EvmRevertResult, EvmSnapshotResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';
import { controlsOf } from './controls.js';
import { quantityParam } from '../test-quantity.js';

/** An id for evm_revert: head, state, pool and clock as they are now. */
export function evm_snapshot(_params: [], ctx: HandlerContext): EvmSnapshotResult {
  return toQuantity(controlsOf(ctx, 'evm_snapshot').snapshot());
}

/** Back to the snapshot (consumed with every later one); false for an unknown or used id. */
export function evm_revert([id]: EvmRevertParams, ctx: HandlerContext): Promise<EvmRevertResult> {
  return controlsOf(ctx, 'evm_revert').revert(quantityParam(id, 'evm_revert', 'id'));
}
