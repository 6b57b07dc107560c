import { ChainParamsError, parseChainParams, type ChainParamsInput } from '../../chain/index.js';
import type { TestSetChainParamsParams, TestSetChainParamsResult } from '../../generated/types.js';
import { invalidParams } from '../../rpc/errors.js';
import type { HandlerContext } from '../../rpc/context.js';

/** Wipes the chain: a new genesis from the retesteth object, under the rules its fork params name. */
export async function test_setChainParams(
  [chainParams]: TestSetChainParamsParams,
  ctx: HandlerContext,
): Promise<TestSetChainParamsResult> {
  let spec: ReturnType<typeof parseChainParams>;
  try {
    spec = parseChainParams(chainParams as unknown as ChainParamsInput);
  } catch (err) {
    if (err instanceof ChainParamsError) throw invalidParams(`Invalid chain params: ${err.message}`);
    throw err;
  }
  await ctx.node.testSession.replaceChain(spec);
  return true;
}
