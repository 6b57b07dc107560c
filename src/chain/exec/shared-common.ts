/**
 * A Common that is cheap to hand to thousands of transaction and header objects.
 *
 * Every @ethereumjs tx/header constructor copies its Common and calls `updateParams(paramsX)` on the copy,
 * which deep-copies parameter tables and rebuilds the parameter cache: profiled at ~70% of block-building
 * time. We apply the library parameter sets once up front and turn later calls with the same tables into
 * no-ops; `copy()` stays the library's shallow copy, so copies share the already built cache.
 *
 * `gteHardfork` (asked by every transaction several times: intrinsic gas, receipts, EIP-161's cleanup) walks the
 * chain's hardfork list comparing names; its answers are remembered per (set hardfork, asked hardfork). The list is
 * the chain's parameters, which copies share, so one memo serves the base and its copies.
 */
import { paramsBlock } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';

const libraryParamSets: readonly object[] = [paramsBlock, paramsTx, paramsEVM, paramsVM];

const shared = new WeakMap<Common, Common>();

export function sharedCommon(common: Common): Common {
  const known = shared.get(common);
  if (known !== undefined) return known;
  const base = common.copy();
  for (const params of libraryParamSets) base.updateParams(params as Parameters<Common['updateParams']>[0]);
  const applied = new WeakSet<object>(libraryParamSets);
  const original = base.updateParams;
  // Own property, so the library's shallow copies inherit it.
  base.updateParams = function (this: Common, params) {
    if (applied.has(params)) return;
    original.call(this, params);
  };
  // By set hardfork, then asked one: names are the chain's own strings, whose hashes V8 keeps (no key to build).
  const gte = new Map<string, Map<string, boolean>>();
  base.gteHardfork = function (this: Common, hardfork) {
    const set = this.hardfork();
    let answers = gte.get(set);
    if (answers === undefined) gte.set(set, (answers = new Map()));
    let answer = answers.get(hardfork);
    if (answer === undefined) answers.set(hardfork, (answer = this.hardforkGteHardfork(null, hardfork)));
    return answer;
  };
  shared.set(common, base);
  return base;
}
