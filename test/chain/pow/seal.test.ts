import { beforeAll, describe, expect, it } from 'vitest';
import { datasetSize } from '../../../src/chain/pow/epoch.js';
import { Ethash } from '../../../src/chain/pow/ethash.js';
import { hashimotoLight } from '../../../src/chain/pow/hashimoto.js';
import { boundary, boundaryBytes, checkSeal, mineLight } from '../../../src/chain/pow/seal.js';
import { fromHex, persistentCacheDir, toHex, vectors } from './helpers.js';

const vector = vectors.second;
const powHash = fromHex(vector.header_hash);
const nonce = fromHex(vector.nonce);
const mixDigest = fromHex(vector.mixHash);
const result = BigInt(`0x${vector.result}`);
/** The largest difficulty the vector's seal satisfies: result ≤ 2^256 / d holds for d and fails for d + 1. */
const hardestMet = (1n << 256n) / result;

let ethash: Ethash;
let cache: Uint32Array;
const fullSize = datasetSize(0);

beforeAll(async () => {
  ethash = await Ethash.create({ params: {}, cacheDir: persistentCacheDir });
  cache = await ethash.cacheFor(0);
});

describe('checkSeal', () => {
  it('accepts the vector seal exactly up to the boundary 2^256 / difficulty', () => {
    expect(checkSeal(cache, fullSize, { powHash, nonce, mixDigest, difficulty: 1n }).valid).toBe(true);
    expect(checkSeal(cache, fullSize, { powHash, nonce, mixDigest, difficulty: hardestMet }).valid).toBe(true);
    const tooHard = checkSeal(cache, fullSize, { powHash, nonce, mixDigest, difficulty: hardestMet + 1n });
    expect(tooHard).toMatchObject({ valid: false, reason: 'difficulty-not-met' });
  });

  it('refuses a wrong nonce (the mix digest no longer matches)', () => {
    const wrongNonce = nonce.slice();
    wrongNonce[7] ^= 1;
    expect(checkSeal(cache, fullSize, { powHash, nonce: wrongNonce, mixDigest, difficulty: 1n })).toMatchObject({
      valid: false,
      reason: 'mix-digest-mismatch',
    });
  });

  it('refuses a wrong mix digest', () => {
    const wrongMix = mixDigest.slice();
    wrongMix[0] ^= 0x80;
    expect(checkSeal(cache, fullSize, { powHash, nonce, mixDigest: wrongMix, difficulty: 1n })).toMatchObject({
      valid: false,
      reason: 'mix-digest-mismatch',
    });
  });

  it('refuses a zero difficulty and malformed lengths with a typed reason', () => {
    expect(checkSeal(cache, fullSize, { powHash, nonce, mixDigest, difficulty: 0n })).toMatchObject({
      reason: 'invalid-difficulty',
    });
    expect(checkSeal(cache, fullSize, { powHash, nonce: nonce.subarray(1), mixDigest, difficulty: 1n })).toMatchObject({
      reason: 'invalid-length',
    });
  });

  it('takes the nonce as bytes or as a bigint alike', () => {
    const asBigint = BigInt(`0x${vector.nonce}`);
    expect(toHex(hashimotoLight(cache, fullSize, powHash, asBigint).mixDigest)).toBe(vector.mixHash);
  });
});

describe('boundary', () => {
  it('is 2^256 / difficulty, reported as 32 bytes', () => {
    expect(boundary(2n)).toBe(1n << 255n);
    expect(toHex(boundaryBytes(2n))).toBe(`80${'00'.repeat(31)}`);
    expect(toHex(boundaryBytes(1n))).toBe('ff'.repeat(32));
    expect(() => boundary(0n)).toThrow(RangeError);
  });
});

describe('mining', () => {
  it('finds a seal at a low difficulty that verifies, and a tampered copy does not', async () => {
    const header = fromHex('c0ffee'.padEnd(64, '0'));
    const difficulty = 8n;
    const mined = await ethash.mine(header, difficulty, 5n, 1000n, 2000);
    expect(mined).toBeDefined();
    const seal = mined!;
    expect(seal.nonce).toHaveLength(8);
    expect(
      await ethash.verifySeal({
        powHash: header,
        nonce: seal.nonce,
        mixDigest: seal.mixDigest,
        difficulty,
        blockNumber: 5n,
      }),
    ).toMatchObject({
      valid: true,
    });
    const found = BigInt(`0x${toHex(seal.nonce)}`);
    expect(found).toBe(1000n + BigInt(seal.attempts - 1));
    const result = hashimotoLight(cache, fullSize, header, found).result;
    expect(BigInt(`0x${toHex(result)}`) <= boundary(difficulty)).toBe(true);

    const tampered = seal.nonce.slice();
    tampered[0] ^= 0xff;
    expect(
      await ethash.verifySeal({
        powHash: header,
        nonce: tampered,
        mixDigest: seal.mixDigest,
        difficulty,
        blockNumber: 5n,
      }),
    ).toMatchObject({
      valid: false,
    });
  });

  it('searchNonce finds a seal in batches and stops when aborted', async () => {
    const header = fromHex('5eed'.padEnd(64, '0'));
    const found = await ethash.searchNonce(header, 4n, 0, { batchSize: 3 });
    expect(found).toBeDefined();
    expect(
      (
        await ethash.verifySeal({
          powHash: header,
          nonce: found!.nonce,
          mixDigest: found!.mixDigest,
          difficulty: 4n,
          blockNumber: 0,
        })
      ).valid,
    ).toBe(true);

    const controller = new AbortController();
    let ticks = 0;
    const ticker = setInterval(() => {
      if (++ticks === 3) controller.abort();
    }, 10);
    // Difficulty 2^200: never found; the loop must yield so the timer can run and abort it.
    const none = await ethash.searchNonce(header, 1n << 200n, 0, { batchSize: 2, signal: controller.signal });
    clearInterval(ticker);
    expect(none).toBeUndefined();
    expect(ticks).toBeGreaterThanOrEqual(3);
  });

  it('gives up after maxIters and wraps the nonce at 2^64', () => {
    const header = fromHex('ab'.repeat(32));
    expect(mineLight(cache, fullSize, header, 1n << 200n, 0n, 3)).toBeUndefined();
    const wrapped = mineLight(cache, fullSize, header, 1n, (1n << 64n) - 1n, 2);
    expect(wrapped && toHex(wrapped.nonce)).toBe('ff'.repeat(8));
  });
});
