/**
 * Reads of the flat state (issue 39): every account and storage slot of a recent state by hashed key, one
 * LevelDB read (or an in-memory diff layer) instead of a trie walk. The flat table holds the head's state
 * (`covers(headRoot)`); diff layers answer a few states below it. Values are exactly the trie's leaf values, so a
 * reader can swap a trie lookup for a flat one with nothing else changing; eth_getProof stays on the trie.
 *
 * `undefined` always means "cannot answer for this root" (not covered, still being built): the caller reads the
 * trie. `null` means absent.
 */
export interface FlatReader {
  /** Whether reads at the state with this root may use the flat state now. */
  covers(stateRoot: Uint8Array): boolean;
  /** The account's leaf value (RLP [nonce, balance, storageRoot, codeHash]) under keccak(address). */
  account(stateRoot: Uint8Array, hashedAddress: Uint8Array): Uint8Array | null | undefined;
  /** The slot's leaf value (RLP of the unpadded value) under keccak(address), keccak(slot). */
  storage(stateRoot: Uint8Array, hashedAddress: Uint8Array, hashedSlot: Uint8Array): Uint8Array | null | undefined;
  /** Accounts in key order from `start` (inclusive): at most `maxCount` entries or about `maxBytes` of values. */
  accountRange(
    stateRoot: Uint8Array,
    start: Uint8Array,
    maxCount: number,
    maxBytes: number,
  ): Promise<FlatEntry[] | undefined>;
  /** One account's slots in key order from `start` (inclusive), bounded the same way. */
  storageRange(
    stateRoot: Uint8Array,
    hashedAddress: Uint8Array,
    start: Uint8Array,
    maxCount: number,
    maxBytes: number,
  ): Promise<FlatEntry[] | undefined>;
}

export interface FlatEntry {
  /** The hashed key (32 bytes). */
  readonly key: Uint8Array;
  /** The trie's leaf value under it. */
  readonly value: Uint8Array;
}

/** The reader of a chain without a flat state (fork mode, tests): never covers anything. */
export const NO_FLAT_STATE: FlatReader = {
  covers: () => false,
  account: () => undefined,
  storage: () => undefined,
  accountRange: async () => undefined,
  storageRange: async () => undefined,
};
