/** The dev controls behind every anvil-namespace method, and the refusal anywhere but the dev network. */
import { devControlsOf, type DevControls } from '../../chain/index.js';
import { forkSwitcherOf } from '../../node/fork/fork-switch.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams, methodNotSupported } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import { quantityParam } from '../test-quantity.js';

export function controlsOf(ctx: HandlerContext, method: string): DevControls {
  const engine = engineOf(ctx);
  // The node refuses the namespace on mordor/etc at start (config.ts); a test chain swapped in is no dev chain either.
  // A fork is a dev chain on another network's rules (its upstream's).
  if (engine.definition.name !== 'dev' && forkSwitcherOf(ctx.node).current === undefined)
    throw methodNotSupported(method, 'the anvil namespace serves the dev network only');
  return devControlsOf(engine);
}

/** A quantity param below 2^bits, else -32602 naming it. */
export function boundedParam(value: number | string, method: string, name: string, bits: number): bigint {
  const n = quantityParam(value, method, name);
  if (n >= 1n << BigInt(bits)) throw invalidParams(`invalid params for ${method}: ${name} must be below 2^${bits}`);
  return n;
}
