/**
 * anvil_reset, as Anvil answers it: with `forking` it starts a new fork (of `jsonRpcUrl`, or of the running fork's
 * upstream when left out) at `blockNumber` (default: the upstream's head minus a few); without it a forked node
 * goes back to a plain dev chain, and a plain dev chain back to its genesis (node/fork/fork-switch.ts).
 */
import type { AnvilResetParams, AnvilResetResult } from '../../generated/types.js';
import { forkSwitcherOf } from '../../node/fork/fork-switch.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { quantityParam } from '../test-quantity.js';
import { controlsOf } from './controls.js';

export async function anvil_reset([options]: AnvilResetParams, ctx: HandlerContext): Promise<AnvilResetResult> {
  const controls = controlsOf(ctx, 'anvil_reset');
  const forks = forkSwitcherOf(ctx.node);
  const forking = options?.forking;
  if (forking !== undefined) {
    const url = forking.jsonRpcUrl ?? forks.current?.url;
    if (url === undefined)
      throw invalidParams('invalid params for anvil_reset: forking.jsonRpcUrl is needed on a chain that is no fork');
    if (!/^https?:\/\//.test(url) || !URL.canParse(url))
      throw invalidParams(`invalid params for anvil_reset: forking.jsonRpcUrl must be an http(s) URL, got "${url}"`);
    const block =
      forking.blockNumber === undefined || forking.blockNumber === null
        ? undefined
        : quantityParam(forking.blockNumber, 'anvil_reset', 'forking.blockNumber');
    await forks.replace({ url, ...(block !== undefined ? { block } : {}) });
  } else if (forks.current !== undefined) await forks.replace(undefined);
  else await controls.reset();
  return null;
}
