/**
 * Native cryptography for the EthereumJS stack, wired in through Common's `customCrypto`.
 *
 * Why: `@ethereumjs/*` defaults to the pure-JS `@noble/*` primitives. Hashing (every trie node, tx
 * hash, bloom) and sender recovery (every transaction) dominate block execution, and the native
 * `keccak` and `secp256k1` bindings are several times faster. Semantics must match the EthereumJS
 * defaults exactly; `test/chain/networks/crypto.test.ts` cross-checks them.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { CustomCrypto } from '@ethereumjs/common';
import { keccak256 as wasmKeccak256Of, keccakLoaded, loadKeccak } from './keccak.js';

// Both packages are CommonJS with a pure-JS fallback when the binding fails to load; load the
// bindings directly so a missing prebuild is loud instead of silently slow.
const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');
// Only where the WASM hasher is unavailable (below): its stream API pulls in ~40 modules of readable-stream.
let createKeccak: typeof import('keccak') | undefined;

// keccak-256 runs for every trie node, transaction hash and sender address. The native package pays an
// N-API call and a Transform stream per hash (~7 µs on a short input here); hash-wasm's one reused WASM
// hasher takes ~2 µs (see src/chain/pow/keccak.ts). Its instance is created asynchronously, so this module
// waits for it once at load; should WASM be unavailable, the native binding serves instead.
await loadKeccak().catch(() => undefined);
const wasmKeccak256 = keccakLoaded() ? wasmKeccak256Of : undefined;

function nativeKeccak256(data: Uint8Array): Uint8Array {
  createKeccak ??= require('keccak/bindings') as typeof import('keccak');
  return new Uint8Array(
    createKeccak('keccak256')
      .update(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
      .digest(),
  );
}

export const keccak256: (data: Uint8Array) => Uint8Array = wasmKeccak256 ?? nativeKeccak256;

export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

/** Recovery id from an Ethereum `v`: 0/1 (typed txs), 27/28 (legacy, precompile), or EIP-155. */
function recoveryId(v: bigint, chainId?: bigint): number {
  let id: bigint;
  if (v === 0n || v === 1n) id = v;
  else if (chainId === undefined) id = v - 27n;
  else id = v - (chainId * 2n + 35n);
  if (id !== 0n && id !== 1n) throw new Error('Invalid signature v value');
  return Number(id);
}

function leftPad32(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 32) return bytes;
  if (bytes.length > 32) throw new Error('Invalid signature component length');
  const out = new Uint8Array(32);
  out.set(bytes, 32 - bytes.length);
  return out;
}

/**
 * Same contract as `@ethereumjs/util` `ecrecover`: returns the 64-byte uncompressed public key
 * without the 0x04 prefix, throws on an invalid signature (the ECRECOVER precompile turns the
 * throw into empty output). High-s signatures are accepted, as the precompile requires.
 */
export function ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const signature = new Uint8Array(64);
  signature.set(leftPad32(r), 0);
  signature.set(leftPad32(s), 32);
  const publicKey = secp256k1.ecdsaRecover(signature, recoveryId(v, chainId), msgHash, false);
  return publicKey.subarray(1);
}

/**
 * Signing with the shape of noble's `secp256k1.sign(hash, key, { format: 'recovered' })`, which
 * is how `@ethereumjs/tx` calls it: 65 bytes `recovery || r || s`. libsecp256k1 signs
 * deterministically (RFC 6979) with low s; the extra-entropy option is not needed for validity.
 */
export function ecsignRecovered(msgHash: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const { signature, recid } = secp256k1.ecdsaSign(msgHash, privateKey);
  const out = new Uint8Array(65);
  out[0] = recid;
  out.set(signature, 1);
  return out;
}

/** `customCrypto` for every Common the engine creates. */
export const nativeCrypto: CustomCrypto = {
  keccak256,
  sha256,
  ecrecover,
  ecsign: ecsignRecovered as unknown as NonNullable<CustomCrypto['ecsign']>,
};
