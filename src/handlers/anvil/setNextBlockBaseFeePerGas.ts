/**
 * anvil_setNextBlockBaseFeePerGas has nothing to set on Ethereum Classic, which never activated EIP-1559: its blocks
 * carry no base fee. -32602 saying so, the code Anvil answers on a chain without EIP-1559, rather than -32601, which
 * would read as a method this node forgot.
 */
import type {
  AnvilSetNextBlockBaseFeePerGasParams,
  AnvilSetNextBlockBaseFeePerGasResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { controlsOf } from './controls.js';

export function anvil_setNextBlockBaseFeePerGas(
  _params: AnvilSetNextBlockBaseFeePerGasParams,
  ctx: HandlerContext,
): AnvilSetNextBlockBaseFeePerGasResult {
  controlsOf(ctx, 'anvil_setNextBlockBaseFeePerGas');
  throw invalidParams(
    'anvil_setNextBlockBaseFeePerGas: Ethereum Classic has no base fee (EIP-1559 is not active); ' +
      'set a minimum gas price with anvil_setMinGasPrice instead',
  );
}
