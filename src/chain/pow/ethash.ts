/**
 * The Ethash/Etchash engine for one network: picks the epoch of a block under the network's PoW parameters,
 * fetches its cache from the store, and checks or finds seals. Implements the engine's SealVerifier.
 */
import { randomBytes } from 'node:crypto';
import type { BlockHeader } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import type { SealVerifier } from '../rules/engine-types.js';
import { EthashCacheStore, type CacheStoreOptions } from './cache-store.js';
import { datasetSize, epochAt, seedHash, type EpochInfo, type PowParams } from './epoch.js';
import type { LightHash } from './hashimoto.js';
import { lightHash, memoryOf } from './light.js';
import { keccak256, loadKeccak } from '../base/keccak.js';
import {
  boundaryBytes,
  checkSeal,
  checkSeals,
  mineLight,
  type MinedSeal,
  type SealCheck,
  type SealInput,
} from './seal.js';
import { SealWorkerPool } from './seal-pool.js';
import type { SharedCache } from './seal-worker.js';

export interface EthashOptions extends CacheStoreOptions {
  /** The network's PoW parameters; `{}` = plain Ethash (no ECIP-1099). */
  readonly params: PowParams;
  /** Directory for cache files (e.g. `<datadir>/ethash`); undefined = memory only. */
  readonly cacheDir?: string;
  /** Start building the next epoch's cache once a block in the last tenth of its epoch is seen (default true). */
  readonly prebuildNext?: boolean;
  /** Worker threads for batch seal checks (`verifyMany`); default: one per core; 0 checks batches on this thread. */
  readonly sealWorkers?: number;
}

/** What eth_getWork hands to an external miner. */
export interface WorkPackage {
  readonly powHash: Uint8Array;
  readonly seedHash: Uint8Array;
  /** 2^256 / difficulty as 32 big-endian bytes. */
  readonly boundary: Uint8Array;
}

export class Ethash implements SealVerifier {
  readonly caches: EthashCacheStore;
  private readonly prebuildNext: boolean;
  private readonly pool: SealWorkerPool | undefined;
  private closed = false;
  /** The shared copies of the epochs' caches the pool's workers read (the two most recent epochs). */
  private readonly shared = new Map<string, SharedCache>();

  private constructor(
    readonly params: PowParams,
    options: EthashOptions,
  ) {
    this.caches = new EthashCacheStore(options.cacheDir, options);
    this.prebuildNext = options.prebuildNext ?? true;
    this.pool = options.sealWorkers === 0 ? undefined : new SealWorkerPool(options.sealWorkers);
  }

  /** Loads the WASM Keccak, then returns the engine. Caches are built lazily (see `cacheFor`). */
  static async create(options: EthashOptions): Promise<Ethash> {
    await loadKeccak();
    return new Ethash(options.params, options);
  }

  epochOf(blockNumber: bigint | number): EpochInfo {
    return epochAt(blockNumber, this.params);
  }

  seedHash(blockNumber: bigint | number): Uint8Array {
    const { epoch, epochLength } = this.epochOf(blockNumber);
    return seedHash(epoch, epochLength);
  }

  /** The block's epoch cache; may pre-build the next epoch's in the background. */
  cacheFor(blockNumber: bigint | number): Promise<Uint32Array> {
    const info = this.epochOf(blockNumber);
    if (this.prebuildNext) {
      const offset = Number(blockNumber) - info.epoch * info.epochLength;
      if (offset >= info.epochLength * 0.9) this.caches.prefetch(this.epochOf((info.epoch + 1) * info.epochLength));
    }
    return this.caches.get(info);
  }

  /**
   * Gets ready for seal checks from `blockNumber` on (an import about to start): the workers start and the epoch's
   * cache loads (or builds) in the background; without a block number, the workers only.
   */
  warm(blockNumber?: bigint): void {
    if (this.closed) return;
    this.pool?.start();
    if (blockNumber !== undefined) this.caches.prefetch(this.epochOf(blockNumber));
  }

  /** Light hashimoto for one pow hash and nonce at the block's epoch. */
  async hash(powHash: Uint8Array, nonce: Uint8Array | bigint, blockNumber: bigint | number): Promise<LightHash> {
    const cache = await this.cacheFor(blockNumber);
    return lightHash(cache, datasetSize(this.epochOf(blockNumber).epoch), powHash, nonce);
  }

  async verifySeal(seal: SealInput & { readonly blockNumber: bigint | number }): Promise<SealCheck> {
    const cache = await this.cacheFor(seal.blockNumber);
    return checkSeal(cache, datasetSize(this.epochOf(seal.blockNumber).epoch), seal);
  }

  /** SealVerifier: checks a header's nonce and mixHash against its seal hash and difficulty. */
  async verify(header: BlockHeader): Promise<true | string> {
    const check = await this.verifySeal({ ...sealInputOf(header), blockNumber: header.number });
    return check.valid ? true : check.message;
  }

  /**
   * Checks many headers' seals on the worker pool (or on this thread with `workers: 0`), grouped by epoch
   * (ECIP-1099's longer epochs included), each group hashed in interleaved batches (checkSeals); one result per
   * header, in order. A pool that cannot run (a worker fails to start) falls back to this thread.
   */
  async verifyMany(headers: readonly BlockHeader[]): Promise<(true | string)[]> {
    const out = new Array<true | string>(headers.length);
    const byEpoch = new Map<string, { info: EpochInfo; at: number[] }>();
    headers.forEach((h, i) => {
      const info = this.epochOf(h.number);
      const key = `${info.epoch}/${info.epochLength}`;
      let group = byEpoch.get(key);
      if (group === undefined) byEpoch.set(key, (group = { info, at: [] }));
      group.at.push(i);
    });
    for (const [key, { info, at }] of byEpoch) {
      const seals = at.map((i) => sealInputOf(headers[i]));
      const fullSize = datasetSize(info.epoch);
      const cache = await this.cacheFor(headers[at[at.length - 1]].number);
      const here = () => checkSeals(cache, fullSize, seals).map((check) => (check.valid ? true : check.message));
      let verdicts: (true | string)[];
      if (this.pool === undefined) verdicts = here();
      else {
        try {
          verdicts = await this.pool.verify(key, this.sharedCache(key, cache), fullSize, seals);
        } catch (err) {
          // Closing stops the workers: the verdicts of a batch nobody will import are not worth this thread's time.
          if (this.closed) return headers.map(() => `seal not checked: the Ethash engine is closed (${String(err)})`);
          verdicts = here();
        }
      }
      at.forEach((i, k) => {
        out[i] = verdicts[k];
      });
    }
    return out;
  }

  /** Stops the seal workers. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.close();
  }

  /**
   * The epoch's cache as the seal workers read it: the shared WebAssembly memory this thread hashes it in (built there,
   * or copied there once), so every thread reads one copy; without WebAssembly, a SharedArrayBuffer copy.
   */
  private sharedCache(key: string, cache: Uint32Array): SharedCache {
    let shared = this.shared.get(key);
    if (shared === undefined) {
      const memory = memoryOf(cache);
      if (memory !== undefined) {
        shared = {
          memory,
          buffer: memory.buffer as SharedArrayBuffer,
          byteOffset: cache.byteOffset,
          words: cache.length,
        };
      } else {
        const buffer = new SharedArrayBuffer(cache.byteLength);
        new Uint32Array(buffer).set(cache);
        shared = { buffer, byteOffset: 0, words: cache.length };
      }
      this.shared.set(key, shared);
      while (this.shared.size > 2) {
        const oldest = this.shared.keys().next().value as string;
        this.shared.delete(oldest);
        this.pool?.drop(oldest);
      }
    }
    return shared;
  }

  /**
   * Searches `maxIters` nonces from `startNonce` on the calling thread (each costs one light hash, a few ms);
   * undefined if none meets the boundary.
   */
  async mine(
    powHash: Uint8Array,
    difficulty: bigint,
    blockNumber: bigint | number,
    startNonce: bigint,
    maxIters: number,
  ): Promise<MinedSeal | undefined> {
    const cache = await this.cacheFor(blockNumber);
    return mineLight(cache, datasetSize(this.epochOf(blockNumber).epoch), powHash, difficulty, startNonce, maxIters);
  }

  /**
   * Mines until a seal is found without monopolising the event loop: batches of `batchSize` light hashes
   * (default 20, ~0.1 s) separated by a macrotask yield. Resolves undefined once `signal` aborts.
   * Starts at a random nonce unless `startNonce` is given; `attempts` counts every nonce tried.
   */
  async searchNonce(
    powHash: Uint8Array,
    difficulty: bigint,
    blockNumber: bigint | number,
    options: { readonly startNonce?: bigint; readonly batchSize?: number; readonly signal?: AbortSignal } = {},
  ): Promise<MinedSeal | undefined> {
    const cache = await this.cacheFor(blockNumber);
    const fullSize = datasetSize(this.epochOf(blockNumber).epoch);
    const batchSize = Math.max(1, options.batchSize ?? 20);
    let nonce = options.startNonce ?? randomBytes(8).readBigUInt64BE();
    let attempts = 0;
    while (options.signal?.aborted !== true) {
      const found = mineLight(cache, fullSize, powHash, difficulty, nonce, batchSize);
      if (found !== undefined) return { ...found, attempts: attempts + found.attempts };
      attempts += batchSize;
      nonce = BigInt.asUintN(64, nonce + BigInt(batchSize));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return undefined;
  }

  workPackage(powHash: Uint8Array, difficulty: bigint, blockNumber: bigint | number): WorkPackage {
    return { powHash, seedHash: this.seedHash(blockNumber), boundary: boundaryBytes(difficulty) };
  }
}

function sealInputOf(header: BlockHeader): SealInput {
  return { powHash: sealHash(header), nonce: header.nonce, mixDigest: header.mixHash, difficulty: header.difficulty };
}

/**
 * keccak256 of the RLP of the header without mixHash and nonce (fields 13 and 14); needs loadKeccak(). Fields after
 * them stay: on an ECIP-1097 chain the 16th (checkpoint) field is sealed too (Mantis `getEncodedWithoutNonce`), where
 * `@ethereumjs/ethash`'s "drop the last two" would drop the checkpoint field and keep the nonce.
 */
export function sealHash(header: BlockHeader): Uint8Array {
  const raw = header.raw();
  return keccak256(RLP.encode(raw.length === 15 ? raw.slice(0, 13) : [...raw.slice(0, 13), ...raw.slice(15)]));
}
