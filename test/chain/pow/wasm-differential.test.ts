/**
 * The native Ethash (native/ethash/, a Node-API add-on) and the WebAssembly Ethash, each against the TypeScript reference (hashimoto.ts, cache.ts, seal.ts): cache builds word for
 * word, and mix digests, results and seal verdicts over random headers and nonces, valid and invalid seals, at
 * epoch 0 with its real cache and at every kind of epoch boundary (the last block of an epoch, the first of the next,
 * and ECIP-1099's switch to 60,000-block epochs at 11,700,000) with that epoch's seed and dataset size. Caches of
 * late epochs are 40–70 MB and take seconds each to build in either language, so those epochs run over a small cache
 * built from their seed (hashimoto and the cache rounds take the item and page counts as inputs, so the arithmetic
 * compared is the same); epoch 0 and the ethereum/tests vectors run at full size.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { keccak256, loadKeccak } from '../../../src/chain/base/keccak.js';
import { buildCache } from '../../../src/chain/pow/cache.js';
import { cacheSize, datasetSize, epochAt, seedHash, type PowParams } from '../../../src/chain/pow/epoch.js';
import { ethashNative, setEthashNativeEnabled } from '../../../src/chain/pow/ethash-native.js';
import { compileEthashWasm, ethashWasm, setEthashWasmEnabled } from '../../../src/chain/pow/ethash-wasm.js';
import { hashimotoLight, splitNonce } from '../../../src/chain/pow/hashimoto.js';
import {
  batchLanesNow,
  buildCacheFast,
  lightHash,
  lightHashManyInto,
  memoryOf,
  setBatchLanes,
} from '../../../src/chain/pow/light.js';
import { checkSeal, checkSeals, mineLight, type SealInput } from '../../../src/chain/pow/seal.js';
import { fromHex, toHex, vectors } from './helpers.js';

const etc: PowParams = { ecip1099Block: 11_700_000 };
/** Prime item count (as real caches have) giving a 256 KB cache: builds in milliseconds in either language. */
const SMALL_ITEMS = 4093;

let epoch0: Uint32Array;
let epoch0Js: Uint32Array;

/** The fast path under test: the add-on (with WebAssembly building the caches, as in a node) or WebAssembly alone. */
type FastPath = 'native' | 'WebAssembly';
let fast: FastPath = 'native';

function useFastPath(): void {
  setEthashNativeEnabled(fast === 'native');
  setEthashWasmEnabled(true);
}

function useReference(): void {
  setEthashNativeEnabled(false);
  setEthashWasmEnabled(false);
}

/** Whether this machine has a C compiler, where the add-on must then build and load. */
function hasCompiler(): boolean {
  try {
    execFileSync(process.env.CC || 'cc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  await loadKeccak();
  expect(ethashWasm(), 'the WebAssembly module must instantiate on Node 20').toBeDefined();
  epoch0 = buildCacheFast(cacheSize(0), seedHash(0));
  useReference();
  epoch0Js = buildCacheFast(cacheSize(0), seedHash(0));
  useFastPath();
});

const defaultLanes = batchLanesNow();

afterEach(() => {
  useFastPath();
  setBatchLanes(defaultLanes);
});

// Files after this one may share its modules: both fast paths as the environment has them.
afterAll(() => {
  setEthashNativeEnabled(process.env.SVC_ETHASH_NATIVE !== '0');
  setEthashWasmEnabled(process.env.SVC_ETHASH_WASM !== '0');
});

/** The verdict and digests of the TypeScript reference and of the fast path, for comparison. */
function both(cache: Uint32Array, fullSize: number, seal: SealInput) {
  useReference();
  const js = {
    check: checkSeal(cache, fullSize, seal),
    hash: hashimotoLight(cache, fullSize, seal.powHash, seal.nonce),
  };
  useFastPath();
  const wasm = { check: checkSeal(cache, fullSize, seal), hash: lightHash(cache, fullSize, seal.powHash, seal.nonce) };
  return { js, wasm };
}

function randomSeals(cache: Uint32Array, fullSize: number, count: number): SealInput[] {
  const seals: SealInput[] = [];
  for (let i = 0; i < count; i++) {
    const powHash = new Uint8Array(randomBytes(32));
    const nonce = new Uint8Array(randomBytes(8));
    // Every other seal carries its true mix digest (valid at a low difficulty, judged at a random one), the rest a
    // random one (a mix-digest mismatch).
    const mixDigest = i % 2 === 0 ? hashimotoLight(cache, fullSize, powHash, nonce).mixDigest : randomBytes(32);
    const difficulty = [1n, 2n, 1000n, 1n << 40n][i % 4];
    seals.push({ powHash, nonce, mixDigest: new Uint8Array(mixDigest), difficulty });
  }
  return seals;
}

function expectSameVerdicts(cache: Uint32Array, fullSize: number, seals: readonly SealInput[]): void {
  for (const seal of seals) {
    const { js, wasm } = both(cache, fullSize, seal);
    expect(toHex(wasm.hash.mixDigest)).toBe(toHex(js.hash.mixDigest));
    expect(toHex(wasm.hash.result)).toBe(toHex(js.hash.result));
    expect(wasm.check).toEqual(js.check);
  }
}

/** JSON of a verdict with byte fields as hex, for comparing lists of verdicts in one expect. */
const shown = (checks: readonly unknown[]) =>
  JSON.parse(JSON.stringify(checks, (_k, v) => (v instanceof Uint8Array ? toHex(v) : v)));

/**
 * checkSeals over `seals` plus a few that cannot be hashed and a tampered copy, at every batch size: each verdict is
 * the reference's for that seal alone; and tampering one seal of a batch changes that seal's verdict only.
 */
function expectSameBatchVerdicts(cache: Uint32Array, fullSize: number, seals: readonly SealInput[]): void {
  const mixed: SealInput[] = [...seals];
  mixed.splice(1, 0, { ...seals[0], difficulty: 0n }); // invalid difficulty, never hashed
  mixed.splice(4, 0, { ...seals[0], mixDigest: seals[0].mixDigest.subarray(0, 31) }); // invalid length
  mixed.push({ ...seals[0], nonce: 2n ** 64n - 1n });
  useReference();
  const reference = shown(mixed.map((seal) => checkSeal(cache, fullSize, seal)));
  const digests = seals.map((seal) => hashimotoLight(cache, fullSize, seal.powHash, seal.nonce));
  useFastPath();
  const nonces = seals.map((seal) => splitNonce(seal.nonce));
  // Natively every width has code of its own (1..8, and 16); WebAssembly caps a batch at 8.
  for (const lanes of [1, 2, 3, 4, 5, 6, 7, 8, 16]) {
    setBatchLanes(lanes);
    // Verdicts alone would not show a wrong mix digest on a seal already invalid: the digests themselves, too.
    const mixDigests = new Uint8Array(32 * seals.length);
    const results = new Uint8Array(32 * seals.length);
    const his = nonces.map(([hi]) => hi);
    const los = nonces.map(([, lo]) => lo);
    lightHashManyInto(
      cache,
      fullSize,
      seals.map((seal) => seal.powHash),
      his,
      los,
      mixDigests,
      results,
    );
    seals.forEach((_, k) => {
      expect(toHex(mixDigests.subarray(32 * k, 32 * k + 32)), `seal ${k} in batches of ${lanes}`).toBe(
        toHex(digests[k].mixDigest),
      );
      expect(toHex(results.subarray(32 * k, 32 * k + 32)), `seal ${k} in batches of ${lanes}`).toBe(
        toHex(digests[k].result),
      );
    });
    expect(shown(checkSeals(cache, fullSize, mixed)), `batches of ${lanes}`).toEqual(reference);
    // Seal 3 (one with its true mix digest) made invalid by another nonce: its neighbours keep their verdicts.
    const tampered = mixed.map((seal, i) => (i === 3 ? { ...seal, nonce: 12345n } : seal));
    const verdicts = shown(checkSeals(cache, fullSize, tampered));
    expect(reference[3].reason).not.toBe('mix-digest-mismatch');
    expect(verdicts[3]).toMatchObject({ valid: false, reason: 'mix-digest-mismatch' });
    expect(verdicts.filter((_: unknown, i: number) => i !== 3)).toEqual(
      reference.filter((_: unknown, i: number) => i !== 3),
    );
  }
}

describe.each<FastPath>(['native', 'WebAssembly'])('%s Ethash vs the TypeScript reference', (path) => {
  beforeAll(() => {
    fast = path;
    useFastPath();
    if (path === 'native' && hasCompiler()) expect(ethashNative(), 'the add-on must build and load here').toBeDefined();
    else if (path === 'WebAssembly') expect(ethashNative()).toBeUndefined();
  });

  it('builds the epoch-0 cache word for word (and the ethereum/tests cache hash)', () => {
    expect(memoryOf(epoch0)).toBeDefined();
    expect(memoryOf(epoch0Js)).toBeDefined(); // copied into a memory on first use
    expect(epoch0.length).toBe(epoch0Js.length);
    expect(Buffer.compare(Buffer.from(epoch0.slice().buffer), Buffer.from(epoch0Js.buffer))).toBe(0);
    const bytes = new Uint8Array(epoch0.slice().buffer);
    expect(toHex(keccak256(bytes))).toBe(vectors.first.cache_hash);
  });

  it('gives the ethereum/tests vectors their mix digest and result', () => {
    for (const vector of Object.values(vectors)) {
      const light = lightHash(epoch0, vector.full_size, fromHex(vector.header_hash), fromHex(vector.nonce));
      expect(toHex(light.mixDigest)).toBe(vector.mixHash);
      expect(toHex(light.result)).toBe(vector.result);
    }
  });

  it('agrees on random headers and nonces at epoch 0, valid and invalid seals alike', () => {
    const fullSize = datasetSize(0);
    const seals = randomSeals(epoch0Js, fullSize, 24);
    expectSameVerdicts(epoch0, fullSize, seals);
    const verdicts = seals.map((seal) => checkSeal(epoch0, fullSize, seal));
    expect(verdicts.filter((v) => v.valid).length).toBeGreaterThan(0);
    expect(verdicts.filter((v) => !v.valid && v.reason === 'mix-digest-mismatch').length).toBeGreaterThan(0);
  });

  it('gives every seal of a batch its own verdict at epoch 0, valid, invalid and malformed mixed in one batch', () => {
    const fullSize = datasetSize(0);
    const seals = randomSeals(epoch0Js, fullSize, 17);
    expect(seals.filter((seal, i) => i % 2 === 0 && checkSeal(epoch0Js, fullSize, seal).valid).length).toBeGreaterThan(
      0,
    );
    expectSameBatchVerdicts(epoch0, fullSize, seals);
  });

  it.each([
    ['last block of epoch 0', 29_999],
    ['first block of epoch 1', 30_000],
    ['last 30,000-block epoch before ECIP-1099', 11_699_999],
    ['first block under ECIP-1099 (epoch 195 of 60,000)', 11_700_000],
    ['last block of the first 60,000-block epoch', 11_759_999],
    ['first block of the next 60,000-block epoch', 11_760_000],
  ])(
    'agrees at the %s (block %i): cache rounds and hashimoto over that epoch’s seed and dataset size',
    (_label, block) => {
      const { epoch, epochLength } = epochAt(block, etc);
      const seed = seedHash(epoch, epochLength);
      const small = SMALL_ITEMS * 64;
      useReference();
      const js = buildCacheFast(small, seed);
      useFastPath();
      const wasm = buildCacheFast(small, seed);
      expect(memoryOf(wasm)).toBeDefined();
      expect(toHex(new Uint8Array(wasm.slice().buffer))).toBe(toHex(new Uint8Array(js.buffer)));
      const seals = randomSeals(js, datasetSize(epoch), 8);
      expectSameVerdicts(wasm, datasetSize(epoch), seals);
      expectSameBatchVerdicts(wasm, datasetSize(epoch), seals);
    },
  );

  it('mines the seals the reference accepts, and the same nonces', () => {
    const fullSize = datasetSize(0);
    const powHash = new Uint8Array(randomBytes(32));
    const found = mineLight(epoch0, fullSize, powHash, 50n, 0n, 10_000);
    expect(found).toBeDefined();
    useReference();
    const reference = mineLight(epoch0Js, fullSize, powHash, 50n, 0n, 10_000);
    expect(
      checkSeal(epoch0Js, fullSize, {
        powHash,
        nonce: found?.nonce as Uint8Array,
        mixDigest: found?.mixDigest as Uint8Array,
        difficulty: 50n,
      }).valid,
    ).toBe(true);
    useFastPath();
    expect(found).toEqual(reference);
    // Batches of consecutive nonces stop where one-at-a-time would: not a nonce past maxIters, the same first find.
    const attempts = found?.attempts as number;
    for (const lanes of [1, 3, 8]) {
      setBatchLanes(lanes);
      expect(mineLight(epoch0, fullSize, powHash, 50n, 0n, attempts)).toEqual(reference);
      expect(mineLight(epoch0, fullSize, powHash, 50n, 0n, attempts - 1)).toBeUndefined();
    }
    setBatchLanes(defaultLanes);
    // A difficulty below the batch width narrows the batch: the same seal still. (Each nonce wins with p = 1/3 for a
    // random pow hash: 10 attempts all missed 1.7 % of the time, which CI hit once; 64 miss ~1e-11 of the time.)
    useReference();
    const easy = mineLight(epoch0Js, fullSize, powHash, 3n, 7n, 64);
    useFastPath();
    expect(easy).toBeDefined();
    expect(mineLight(epoch0, fullSize, powHash, 3n, 7n, 64)).toEqual(easy);
  });
});

describe('the TypeScript fallback', () => {
  it('runs when the module cannot be instantiated, or when the setting turns WebAssembly off', () => {
    expect(compileEthashWasm(new Uint8Array([0, 0x61, 0x73, 0x6d, 9, 9, 9, 9]))).toBeUndefined();
    useReference();
    expect(ethashWasm()).toBeUndefined();
    const small = buildCacheFast(SMALL_ITEMS * 64, seedHash(0));
    expect(memoryOf(small)).toBeUndefined();
    expect(toHex(new Uint8Array(small.buffer))).toBe(
      toHex(new Uint8Array(buildCache(SMALL_ITEMS * 64, seedHash(0)).buffer)),
    );
    const vector = vectors.second;
    const seal = {
      powHash: fromHex(vector.header_hash),
      nonce: fromHex(vector.nonce),
      mixDigest: fromHex(vector.mixHash),
      difficulty: 1n,
    };
    expect(checkSeal(epoch0Js, vector.full_size, seal).valid).toBe(true);
  });
});

describe('the native add-on’s fallback', () => {
  /**
   * The children load the compiled modules (dist/chain/, which the global setup brings up to date with src/, and
   * which find native/ and build/ from the same root as src/ does) rather than src/ through tsx: the same code,
   * without the transform's CPU in each child.
   */
  const builtChain = new URL('../../../dist/chain/', import.meta.url).href;

  /** A child process hashing one seal over a small cache: whether the add-on ran, the digests, its stderr. */
  function childHash(env: Record<string, string>) {
    const script = `
      const { loadKeccak } = await import('${builtChain}base/keccak.js');
      const { buildCacheFast, lightHash } = await import('${builtChain}pow/light.js');
      const { ethashNative } = await import('${builtChain}pow/ethash-native.js');
      await loadKeccak();
      const cache = buildCacheFast(${SMALL_ITEMS * 64}, new Uint8Array(32));
      const { mixDigest, result } = lightHash(cache, ${datasetSize(0)}, new Uint8Array(32).fill(7), 42n);
      const hex = (b) => Buffer.from(b).toString('hex');
      console.log(JSON.stringify({ native: ethashNative() !== undefined, mix: hex(mixDigest), result: hex(result) }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    return { ...(JSON.parse(run.stdout) as { native: boolean; mix: string; result: string }), stderr: run.stderr };
  }

  it('hashes in WebAssembly, with one warning saying why, when the add-on cannot be built; none when it is off', () => {
    useReference();
    const truth = hashimotoLight(
      buildCacheFast(SMALL_ITEMS * 64, new Uint8Array(32)),
      datasetSize(0),
      new Uint8Array(32).fill(7),
      42n,
    );
    const unbuilt = childHash({ CC: '/nonexistent/cc' });
    expect(unbuilt).toMatchObject({ native: false, mix: toHex(truth.mixDigest), result: toHex(truth.result) });
    expect(unbuilt.stderr).toMatch(/native Ethash unavailable, WebAssembly runs instead: .*\/nonexistent\/cc/);
    expect(unbuilt.stderr.match(/native Ethash unavailable/g)).toHaveLength(1);
    const off = childHash({ SVC_ETHASH_NATIVE: '0' });
    expect(off).toMatchObject({ native: false, mix: toHex(truth.mixDigest), result: toHex(truth.result) });
    expect(off.stderr).not.toMatch(/native Ethash/);
  });

  it.skipIf(!hasCompiler())(
    'compiles the add-on in the background on a first use with no build, hashing in WebAssembly meanwhile',
    () => {
      // A compiler of another path: no build exists for it yet (the build's name hashes the compiler). It compiles
      // at -O0 (the last -O wins over the add-on's -O3): what is shown is the background build and its load, not the
      // optimiser, and -O3 cost ~5 s of CPU to -O0's ~0.6 s.
      const dir = mkdtempSync(join(tmpdir(), 'svc-node-cc-'));
      const cc = join(dir, 'cc');
      writeFileSync(cc, `#!/bin/sh\nexec ${process.env.CC || 'cc'} "$@" -O0\n`, { mode: 0o755 });
      const buildDir = fileURLToPath(new URL('../../../build/native/', import.meta.url));
      const before = new Set(existsSync(buildDir) ? readdirSync(buildDir) : []);
      const script = `
        const { loadKeccak } = await import('${builtChain}base/keccak.js');
        const { buildCacheFast, lightHash } = await import('${builtChain}pow/light.js');
        const { ethashNative } = await import('${builtChain}pow/ethash-native.js');
        await loadKeccak();
        const cache = buildCacheFast(${SMALL_ITEMS * 64}, new Uint8Array(32));
        const hex = (b) => Buffer.from(b).toString('hex');
        const hash = () => hex(lightHash(cache, ${datasetSize(0)}, new Uint8Array(32).fill(7), 42n).mixDigest);
        const first = ethashNative() !== undefined;
        const meanwhile = hash();
        for (let waited = 0; ethashNative() === undefined && waited < 110000; waited += 200)
          await new Promise((resolve) => setTimeout(resolve, 200));
        console.log(JSON.stringify({ first, meanwhile, later: ethashNative() !== undefined, after: hash() }));`;
      try {
        const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
          env: { ...process.env, CC: cc },
          encoding: 'utf8',
        });
        expect(run.status, run.stderr).toBe(0);
        useReference();
        const truth = hashimotoLight(
          buildCacheFast(SMALL_ITEMS * 64, new Uint8Array(32)),
          datasetSize(0),
          new Uint8Array(32).fill(7),
          42n,
        );
        expect(JSON.parse(run.stdout)).toEqual({
          first: false,
          meanwhile: toHex(truth.mixDigest),
          later: true,
          after: toHex(truth.mixDigest),
        });
        expect(run.stderr).not.toMatch(/native Ethash/);
      } finally {
        for (const file of readdirSync(buildDir)) if (!before.has(file)) rmSync(join(buildDir, file), { force: true });
        rmSync(dir, { recursive: true, force: true });
      }
    },
    150_000,
  );
});
