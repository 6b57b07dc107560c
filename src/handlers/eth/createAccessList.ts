/**
 * eth_createAccessList as geth computes it: run the call as an EIP-2930 transaction carrying the list found so far,
 * collect the accounts and slots it touched, and repeat until the list no longer changes (an access list changes gas,
 * and so may change the path a call takes). gasUsed is the last run's, with that list; `error` the EVM's failure, if
 * any (geth's shape: a failing call still returns its list).
 */
import type { CallAccessListEntry } from '../../chain/index.js';
import type { EthCreateAccessListParams, EthCreateAccessListResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { toQuantity } from '../hex.js';
import { callBlock, callMessageOf, checkAffordable, runOn, withCallGas } from './call-request.js';

/** More rounds than a list ever needs to settle; past it, the last list is answered. */
const MAX_ROUNDS = 8;

const sameList = (a: readonly CallAccessListEntry[], b: readonly CallAccessListEntry[]): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

export async function eth_createAccessList(
  [request, blockParam]: EthCreateAccessListParams,
  ctx: HandlerContext,
): Promise<EthCreateAccessListResult> {
  const engine = engineOf(ctx);
  const block = await callBlock(engine, blockParam);
  const base = withCallGas(engine, block, callMessageOf(ctx, request, 'eth_createAccessList'));
  await checkAffordable(engine, block, base, base.gas);
  let list: readonly CallAccessListEntry[] = (request.accessList ?? []).map((entry) => ({
    address: entry.address.toLowerCase(),
    storageKeys: entry.storageKeys.map((key) => key.toLowerCase()),
  }));
  for (let round = 1; ; round++) {
    const result = await runOn(engine, block, { ...base, accessList: list }, 'eth_createAccessList');
    const touched = result.accessList ?? [];
    if (sameList(touched, list) || round === MAX_ROUNDS) {
      return {
        accessList: touched.map((entry) => ({
          address: entry.address as `0x${string}`,
          storageKeys: entry.storageKeys.map((key) => key as `0x${string}`),
        })),
        gasUsed: toQuantity(result.gasUsed),
        ...(result.error !== undefined ? { error: result.reverted ? 'execution reverted' : result.error } : {}),
      };
    }
    list = touched;
  }
}
