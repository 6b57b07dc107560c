/**
 * anvil_getIntervalMining answers what evm_setIntervalMining set, as Anvil does: null while interval mining is off,
 * the period in seconds as a JSON number while it is on, null again once it is set to 0. The same calls go to Anvil
 * (@foundry-rs/anvil) and svc-node and the answers are compared one by one.
 */
import { describe, expect, it } from 'vitest';
import { besideAnvil, haveAnvil } from '../helpers/beside-anvil.js';
import { post, request } from '../helpers/rpc.js';

const both = besideAnvil();

/** The same calls, in order, answered by `url`: each answer's result or error. */
async function answers(url: string): Promise<unknown[]> {
  const calls: [string, unknown[]][] = [
    ['anvil_getIntervalMining', []],
    ['evm_setIntervalMining', [5]],
    ['anvil_getIntervalMining', []],
    ['evm_setIntervalMining', [0]],
    ['anvil_getIntervalMining', []],
  ];
  const out: unknown[] = [];
  for (const [method, params] of calls) {
    const { body } = await post(url, request(method, params));
    out.push(body.error === undefined ? body.result : { error: body.error.code });
  }
  return out;
}

describe('anvil_getIntervalMining', () => {
  it('answers null while interval mining is off and the period in seconds while it is on', async () => {
    expect(await answers(both.node.url)).toEqual([null, null, 5, null, null]);
  });

  it.runIf(haveAnvil)('answers as Anvil does, call for call', async () => {
    expect(await answers(both.node.url)).toEqual(await answers(both.anvil!.url));
  });
});
