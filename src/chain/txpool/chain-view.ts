import type { Common } from '@ethereumjs/common';
import type { Address } from '@ethereumjs/util';

/** An account as the pool needs it: the state at the current head. */
export interface PoolAccount {
  readonly nonce: bigint;
  readonly balance: bigint;
}

/**
 * Everything the transaction pool needs from the chain engine. The lead wires it to the engine;
 * tests use an in-memory fake. All answers refer to the *current canonical head*: the pool calls
 * `onBlockAdded` / `onReorg` after the head moved, and then reads accounts again.
 */
export interface PoolChainView {
  /** The network's EIP-155 chain id (61 etc, 63 mordor, 1337 dev). */
  readonly chainId: bigint;
  /** Gas limit a transaction must fit in: the next block's (the head's is a fine approximation). */
  blockGasLimit(): bigint;
  /**
   * Nonce and balance of `address` at the head (a missing account is nonce 0, balance 0): at once when the head's
   * state answers without a read (the pool then does not give up its turn), else a promise.
   */
  account(address: Address): PoolAccount | Promise<PoolAccount>;
  /**
   * The Common for decoding and validating transactions of the next block: `txRulesAt(network, head + 1)`
   * from src/chain/rules (it carries the native `customCrypto`). Wrap it with `sharedCommon` from
   * src/chain/exec so decoding does not rebuild parameter tables per transaction. Called once per add.
   */
  commonForNextBlock(): Common;
}

/** An account read still under way (any thenable: a test's fake chain may answer with its own). */
export function isPending(read: PoolAccount | Promise<PoolAccount>): read is Promise<PoolAccount> {
  return typeof (read as { then?: unknown }).then === 'function';
}
