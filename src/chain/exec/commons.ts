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
    // The chain name too: ETC rule sets on one Ethereum hardfork (spiral, bastion: shanghai) differ only in the EIPs
    // their hardfork entry lists, which `eips()` (the extra ones) does not show; evmRules names each Common after its rule set.
    const key = `${fresh.chainName()}|${fresh.chainId()}|${fresh.hardfork()}|${fresh.eips().join(',')}`;
    let shared = this.commons.get(key);
    if (shared === undefined) {
      shared = sharedCommon(fresh);
      this.commons.set(key, shared);
    }
    return shared;
  }
}
