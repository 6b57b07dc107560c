/**
 * Seal checking and light mining over one epoch cache (in WebAssembly when it runs: see light.ts). A seal is valid when hashimoto's mix digest equals the
 * header's mixHash and its result, read as a big-endian number, is at most the boundary 2^256 / difficulty.
 */
import { splitNonce } from './hashimoto.js';
import { batchLanesNow, lightHashInto, lightHashManyInto } from './light.js';

const TWO_256 = 1n << 256n;

/** 2^256 / difficulty (integer division); difficulty 1 gives 2^256, which every result meets. */
export function boundary(difficulty: bigint): bigint {
  if (difficulty <= 0n) throw new RangeError(`difficulty must be positive, got ${difficulty}`);
  return TWO_256 / difficulty;
}

/** The boundary as the 32 big-endian bytes eth_getWork reports (2^256 - 1 for difficulty 1). */
export function boundaryBytes(difficulty: bigint): Uint8Array {
  const target = boundary(difficulty);
  return bigintTo32Bytes(target >= TWO_256 ? TWO_256 - 1n : target);
}

function bigintTo32Bytes(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = value;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** A precomputed boundary test: compares the result bytes without building a bigint per attempt. */
function makeTargetTest(difficulty: bigint): (result: Uint8Array) => boolean {
  const target = boundary(difficulty);
  if (target >= TWO_256) return () => true;
  const targetBytes = bigintTo32Bytes(target);
  return (result) => {
    for (let i = 0; i < 32; i++) {
      if (result[i] !== targetBytes[i]) return result[i] < targetBytes[i];
    }
    return true;
  };
}

export type SealFailure = 'invalid-difficulty' | 'invalid-length' | 'mix-digest-mismatch' | 'difficulty-not-met';

export type SealCheck =
  | { readonly valid: true; readonly result: Uint8Array }
  | { readonly valid: false; readonly reason: SealFailure; readonly message: string };

export interface SealInput {
  /** keccak256 of the RLP of the header without mixHash and nonce (32 bytes). */
  readonly powHash: Uint8Array;
  /** The header's nonce: 8 big-endian bytes, or its value. */
  readonly nonce: Uint8Array | bigint;
  readonly mixDigest: Uint8Array;
  readonly difficulty: bigint;
}

/** Checks a seal against the epoch cache (`fullSize` = the epoch's dataset size). */
export function checkSeal(cache: Uint32Array, fullSize: number, seal: SealInput): SealCheck {
  const malformed = malformedSeal(seal);
  if (malformed !== undefined) return malformed;
  const [hi, lo] = splitNonce(seal.nonce);
  const mixDigest = new Uint8Array(32);
  const result = new Uint8Array(32);
  lightHashInto(cache, fullSize, seal.powHash, hi, lo, mixDigest, result);
  return judge(seal, mixDigest, result);
}

/**
 * checkSeal for each of many seals of one epoch, in order. The well-formed ones are hashed together
 * (lightHashManyInto: their cache reads interleaved, several times the rate of one at a time); a seal's verdict is
 * the one checkSeal gives it alone, whatever its neighbours.
 */
export function checkSeals(cache: Uint32Array, fullSize: number, seals: readonly SealInput[]): SealCheck[] {
  const verdicts: (SealCheck | undefined)[] = seals.map(malformedSeal);
  const hashed: number[] = [];
  verdicts.forEach((v, i) => {
    if (v === undefined) hashed.push(i);
  });
  const his = new Array<number>(hashed.length);
  const los = new Array<number>(hashed.length);
  hashed.forEach((i, k) => {
    [his[k], los[k]] = splitNonce(seals[i].nonce);
  });
  const mixDigests = new Uint8Array(32 * hashed.length);
  const results = new Uint8Array(32 * hashed.length);
  const powHashes = hashed.map((i) => seals[i].powHash);
  lightHashManyInto(cache, fullSize, powHashes, his, los, mixDigests, results);
  hashed.forEach((i, k) => {
    verdicts[i] = judge(seals[i], mixDigests.subarray(32 * k, 32 * k + 32), results.slice(32 * k, 32 * k + 32));
  });
  return verdicts as SealCheck[];
}

/** The verdict on a seal that cannot be hashed (bad difficulty or lengths), or undefined. */
function malformedSeal(seal: SealInput): SealCheck | undefined {
  if (seal.difficulty <= 0n) {
    return {
      valid: false,
      reason: 'invalid-difficulty',
      message: `difficulty must be positive, got ${seal.difficulty}`,
    };
  }
  if (
    seal.powHash.length !== 32 ||
    seal.mixDigest.length !== 32 ||
    (seal.nonce instanceof Uint8Array && seal.nonce.length !== 8)
  ) {
    return {
      valid: false,
      reason: 'invalid-length',
      message: 'pow hash and mix digest must be 32 bytes and the nonce 8 bytes',
    };
  }
  return undefined;
}

/** The verdict on a well-formed seal given its light hash. */
function judge(seal: SealInput, mixDigest: Uint8Array, result: Uint8Array): SealCheck {
  for (let i = 0; i < 32; i++) {
    if (mixDigest[i] !== seal.mixDigest[i]) {
      return { valid: false, reason: 'mix-digest-mismatch', message: 'invalid mix digest' };
    }
  }
  if (!makeTargetTest(seal.difficulty)(result)) {
    return {
      valid: false,
      reason: 'difficulty-not-met',
      message: 'invalid proof-of-work: result above the difficulty boundary',
    };
  }
  return { valid: true, result };
}

export interface MinedSeal {
  /** The winning nonce as the header stores it (8 big-endian bytes). */
  readonly nonce: Uint8Array;
  readonly mixDigest: Uint8Array;
  /** Nonces tried, including the winning one. */
  readonly attempts: number;
}

/**
 * Tries nonces startNonce, startNonce + 1, … (wrapping at 2^64) for at most `maxIters` attempts and returns
 * the first that meets the boundary, or undefined. Synchronous: callers on the event loop should mine in
 * small batches (one attempt costs one light hash, a few milliseconds) or in a worker.
 */
export function mineLight(
  cache: Uint32Array,
  fullSize: number,
  powHash: Uint8Array,
  difficulty: bigint,
  startNonce: bigint,
  maxIters: number,
): MinedSeal | undefined {
  if (powHash.length !== 32) throw new RangeError(`pow hash must be 32 bytes, got ${powHash.length}`);
  const meets = makeTargetTest(difficulty);
  let [hi, lo] = splitNonce(BigInt.asUintN(64, startNonce));
  // Consecutive nonces are hashed a batch at a time (lightHashManyInto), then judged in nonce order, so the seal
  // found and the attempts counted are those of trying one nonce after another. A batch is no wider than the
  // difficulty: at a dev difficulty of 1 or 2 the first nonce or two win, and hashing 8 would cost more than it saves.
  const lanes = difficulty < BigInt(batchLanesNow()) ? Math.max(1, Number(difficulty)) : batchLanesNow();
  const powHashes = new Array<Uint8Array>(lanes).fill(powHash);
  const his = new Array<number>(lanes);
  const los = new Array<number>(lanes);
  const mixDigests = new Uint8Array(32 * lanes);
  const results = new Uint8Array(32 * lanes);
  for (let done = 0; done < maxIters; ) {
    const n = Math.min(lanes, maxIters - done);
    for (let k = 0; k < n; k++) {
      his[k] = hi;
      los[k] = lo;
      lo = (lo + 1) >>> 0;
      if (lo === 0) hi = (hi + 1) >>> 0;
    }
    lightHashManyInto(cache, fullSize, powHashes.slice(0, n), his, los, mixDigests, results);
    for (let k = 0; k < n; k++) {
      if (meets(results.subarray(32 * k, 32 * k + 32))) {
        const nonce = new Uint8Array(8);
        const view = new DataView(nonce.buffer);
        view.setUint32(0, his[k]);
        view.setUint32(4, los[k]);
        return { nonce, mixDigest: mixDigests.slice(32 * k, 32 * k + 32), attempts: done + k + 1 };
      }
    }
    done += n;
  }
  return undefined;
}
