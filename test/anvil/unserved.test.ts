/**
 * The two Anvil methods svc-node does not serve, anvil_setChainId and anvil_impersonateSignature, asked with the same
 * params on Anvil 1.7.1 (which answers both) and on a dev node: svc-node answers -32601 saying why and what to do
 * instead, never a "did you mean" (the geth wording stays first, for clients that match it).
 */
import { describe, expect, it } from 'vitest';
import { besideAnvil, haveAnvil } from '../helpers/beside-anvil.js';
import { post, request } from '../helpers/rpc.js';

const SIGNATURE = `0x${'11'.repeat(32)}${'22'.repeat(32)}1b`;
const CALLS: ReadonlyArray<readonly [string, unknown[], RegExp]> = [
  ['anvil_setChainId', [99], /chain id .*stored blocks.*workers/],
  ['anvil_impersonateSignature', [[SIGNATURE, '0x00000000000000000000000000000000000000aa']], /ecrecover.*workers/],
];

const both = besideAnvil();

describe('Anvil methods svc-node does not serve', () => {
  it.each(CALLS)('%s: -32601 with the reason', async (method, params, why) => {
    const { body } = await post(both.node.url, request(method, params));
    const error = (body as { error?: { code: number; message: string } }).error;
    expect(error?.code).toBe(-32601);
    expect(error?.message).toMatch(
      new RegExp(`^the method ${method} does not exist/is not available: svc-node does not serve it; `),
    );
    expect(error?.message).toMatch(why);
    expect(error?.message).not.toMatch(/did you mean/);
  });

  it.skipIf(!haveAnvil).each(CALLS)('%s: Anvil takes the same params', async (method, params) => {
    const { body } = await post(both.anvil!.url, request(method, params));
    expect(body).toMatchObject({ result: null });
  });
});
