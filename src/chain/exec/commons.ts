/**
 * One Common per distinct rule set: rules may build a new Common per call, and every object of a block (header,
 * transactions, VM) sharing one instance keeps their construction cheap.
 */
import type { Common } from '@ethereumjs/common';
import type { ChainRules } from '../rules/engine-types.js';
import { sharedCommon } from './shared-common.js';

export class SharedCommons {
  private readonly commons = new Map<string, Common>();

  constructor(private readonly rules: ChainRules) {}

  /** The Common for blocks at `number`. */
  commonAt(number: bigint): Common {
    return this.shared(this.rules.commonAt(number));
  }

  /** The Common to build transactions for block `number` with (the tx pool and RPC decode with it). */
  txCommonAt(number: bigint): Common {
    return this.rules.txCommonAt === undefined ? this.commonAt(number) : this.shared(this.rules.txCommonAt(number));
  }

  private shared(fresh: Common): Common {
    const key = `${fresh.chainId()}|${fresh.hardfork()}|${fresh.eips().join(',')}`;
    let shared = this.commons.get(key);
    if (shared === undefined) {
      shared = sharedCommon(fresh);
      this.commons.set(key, shared);
    }
    return shared;
  }
}
