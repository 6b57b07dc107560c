import { randomBytes } from 'node:crypto';
import { createLegacyTx } from '@ethereumjs/tx';
import { ecrecover as utilEcrecover } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { ecrecover, ecsignRecovered, keccak256, nativeCrypto, sha256 } from '../../../src/chain/base/crypto.js';
import { dev } from '../../../src/chain/networks/index.js';
import { evmRulesAt } from '../../../src/chain/rules/index.js';

describe('native customCrypto', () => {
  it('hashes like the EthereumJS defaults', () => {
    for (const length of [0, 1, 31, 32, 64, 135, 136, 137, 1000]) {
      const data = randomBytes(length);
      expect(keccak256(data)).toEqual(keccak_256(data));
      expect(sha256(data)).toEqual(nobleSha256(data));
    }
    // A view into a larger buffer must hash only its own bytes.
    const backing = randomBytes(100);
    const view = backing.subarray(10, 42);
    expect(keccak256(view)).toEqual(keccak_256(Uint8Array.from(view)));
  });

  it('signs and recovers like noble/util, for legacy, EIP-155 and typed v values', () => {
    for (let i = 0; i < 20; i++) {
      const key = secp256k1.utils.randomSecretKey();
      const hash = randomBytes(32);
      const sig = ecsignRecovered(hash, key);
      const noble = secp256k1.sign(hash, key, { format: 'recovered', prehash: false, extraEntropy: false });
      expect(sig).toEqual(noble); // both RFC 6979 deterministic, low-s
      const r = sig.subarray(1, 33);
      const s = sig.subarray(33, 65);
      const recid = BigInt(sig[0]);
      const expected = utilEcrecover(hash, 27n + recid, r, s);
      expect(ecrecover(hash, 27n + recid, r, s)).toEqual(expected);
      expect(ecrecover(hash, recid, r, s)).toEqual(expected);
      expect(ecrecover(hash, 61n * 2n + 35n + recid, r, s, 61n)).toEqual(expected);
    }
  });

  it('throws on signatures the precompile must reject', () => {
    const hash = randomBytes(32);
    expect(() => ecrecover(hash, 29n, new Uint8Array(32).fill(1), new Uint8Array(32).fill(1))).toThrow();
    expect(() => ecrecover(hash, 27n, new Uint8Array(32), new Uint8Array(32).fill(1))).toThrow();
    expect(() => ecrecover(hash, 27n, new Uint8Array(32).fill(0xff), new Uint8Array(32).fill(1))).toThrow();
  });

  it('is what the rule Commons carry, and signs transactions that verify', () => {
    const common = evmRulesAt(dev, 0n);
    expect(common.customCrypto).toBe(nativeCrypto);
    const key = secp256k1.utils.randomSecretKey();
    const tx = createLegacyTx(
      { nonce: 0n, gasPrice: 1n, gasLimit: 21000n, to: `0x${'11'.repeat(20)}`, value: 1n },
      { common },
    ).sign(key);
    expect([1337n * 2n + 35n, 1337n * 2n + 36n]).toContain(tx.v); // EIP-155 with the dev chain id
    expect(tx.verifySignature()).toBe(true);
    const expectedAddress = keccak_256(secp256k1.getPublicKey(key, false).subarray(1)).subarray(12);
    expect(tx.getSenderAddress().bytes).toEqual(expectedAddress);
  });
});
