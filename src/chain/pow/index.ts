/** Ethash/Etchash proof of work: light verification, sealing and per-epoch cache management. */
export { Ethash, sealHash, type EthashOptions, type WorkPackage } from './ethash.js';
export { EthashCacheStore, type CacheStoreOptions } from './cache-store.js';
export {
  epochAt,
  epochLengthAt,
  seedHash,
  seedIterations,
  cacheSize,
  datasetSize,
  EPOCH_LENGTH_DEFAULT,
  EPOCH_LENGTH_ECIP1099,
  type EpochInfo,
  type PowParams,
} from './epoch.js';
export { buildCache } from './cache.js';
export { hashimotoLight, calcDatasetItem, type LightHash } from './hashimoto.js';
export { buildCacheFast, lightHash } from './light.js';
export { setEthashWasmEnabled } from './ethash-wasm.js';
export {
  boundary,
  boundaryBytes,
  checkSeal,
  checkSeals,
  mineLight,
  type MinedSeal,
  type SealCheck,
  type SealFailure,
  type SealInput,
} from './seal.js';
export { loadKeccak } from '../base/keccak.js';
