/**
 * anvil_setRpcUrl: a fork reads what it still lacks from another URL of its upstream, on the same block (the engine
 * checks every answer against that block, so a URL of another chain fails rather than misleads). Outside fork mode
 * there is nothing to read and nothing changes, as Anvil does.
 */
import type { AnvilSetRpcUrlParams, AnvilSetRpcUrlResult } from '../../generated/types.js';
import { forkSwitcherOf } from '../../node/fork/fork-switch.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { controlsOf } from './controls.js';

export function anvil_setRpcUrl([url]: AnvilSetRpcUrlParams, ctx: HandlerContext): AnvilSetRpcUrlResult {
  controlsOf(ctx, 'anvil_setRpcUrl');
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw invalidParams(`invalid params for anvil_setRpcUrl: url must be an http(s) URL, got "${url}"`);
  const changed = forkSwitcherOf(ctx.node).setUpstreamUrl(url);
  if (changed) ctx.node.log.info('fork upstream changed', { upstream: forkSwitcherOf(ctx.node).current?.upstream });
  return null;
}
