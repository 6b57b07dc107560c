/**
 * ECIP-1099 epoch arithmetic (the hashing itself belongs to the PoW module): epochs are 30,000
 * blocks before the activation block and 60,000 from it, computed from block 0 in both cases, so
 * the epoch number halves at activation while cache and DAG sizes follow the new epoch.
 */
const ETHASH_EPOCH_LENGTH = 30_000n;
const ETCHASH_EPOCH_LENGTH = 60_000n;

export function etchashEpochLength(blockNumber: bigint, ecip1099Block: bigint | null): bigint {
  return ecip1099Block !== null && blockNumber >= ecip1099Block ? ETCHASH_EPOCH_LENGTH : ETHASH_EPOCH_LENGTH;
}

/** Epoch of a block: selects the cache/dataset size. */
export function etchashEpoch(blockNumber: bigint, ecip1099Block: bigint | null): bigint {
  return blockNumber / etchashEpochLength(blockNumber, ecip1099Block);
}

/**
 * How many times keccak256 is applied to 32 zero bytes to get the seed hash of a block's epoch:
 * (epoch·epochLength + 1) / 30,000, i.e. the Ethash seed of the epoch's first block (2·epoch after
 * ECIP-1099, so seeds never repeat across the switch).
 */
export function etchashSeedRounds(blockNumber: bigint, ecip1099Block: bigint | null): bigint {
  const length = etchashEpochLength(blockNumber, ecip1099Block);
  return ((blockNumber / length) * length + 1n) / ETHASH_EPOCH_LENGTH;
}
