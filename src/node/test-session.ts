/**
 * Test mode's per-node state (retesteth, product-behaviour §7.3): the chain test_setChainParams created and the
 * timestamp test_modifyTimestamp set for the next mined block. The engine swap itself is the node's
 * (test-chains.ts); a new chain forgets the timestamp. The node owns it (`SvcNode.testSession`): it outlives the
 * engines it swaps in.
 */
import type { ChainEngine, TestChainSpec } from '../chain/index.js';
import type { SvcNode } from './node.js';
import { TestChainSwitcher } from './test-chains.js';

export class TestSession {
  /** Timestamp of the next block test_mineBlocks seals; undefined = max(now, parent + 1). */
  private nextTimestamp: bigint | undefined;
  private readonly chains: TestChainSwitcher;

  constructor(node: SvcNode) {
    this.chains = new TestChainSwitcher(node, () => {
      this.nextTimestamp = undefined;
    });
  }

  /** Opens a chain for `spec` and puts it in place of the running one. */
  replaceChain(spec: TestChainSpec): Promise<ChainEngine> {
    return this.chains.replaceChain(spec);
  }

  setNextTimestamp(timestamp: bigint): void {
    this.nextTimestamp = timestamp;
  }

  /** The timestamp for one mined block; the following one gets a second more. */
  takeTimestamp(): bigint | undefined {
    const ts = this.nextTimestamp;
    if (ts !== undefined) this.nextTimestamp = ts + 1n;
    return ts;
  }
}
