import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { LegacyTx, createLegacyTx, createLegacyTxFromRLP } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { describe, expect, it, vi } from 'vitest';
import { SharedCommons } from '../exec/commons.js';
import { keccak256 } from '../base/crypto.js';
import { etcEngineRules } from '../engine/engine-adapters.js';
import { DEV_ACCOUNTS, getNetwork } from '../networks/index.js';
import { decodePoolTransaction } from './decode.js';
import { legacySigningHash } from './signing-hash.js';

const common = new SharedCommons(etcEngineRules(getNetwork('dev'))).commonAt(1n);
const key = hexToBytes(DEV_ACCOUNTS[1]!.privateKey as `0x${string}`);
// Signed before EIP-155 existed: v is 27 or 28, and the signed payload has no chain id.
const frontier = new Common({ chain: Mainnet, hardfork: Hardfork.Homestead });
const fieldsOf = (raw: Uint8Array) => RLP.decode(raw) as Uint8Array[];

describe('legacySigningHash', () => {
  it("is the library's hash for every field shape, EIP-155 or not, and the pool's decode recovers the same sender", () => {
    const shapes = [
      { nonce: 0n, to: new Uint8Array(20).fill(1), value: 0n, data: new Uint8Array() },
      { nonce: 127n, value: 1n, data: new Uint8Array(55).fill(0x80) },
      { nonce: 128n, to: new Uint8Array(20).fill(2), value: 10n ** 30n, data: new Uint8Array(56).fill(3) },
      { nonce: 2n ** 40n, to: new Uint8Array(20).fill(4), value: 5n, data: new Uint8Array(70_000).fill(9) },
    ];
    let checked = 0;
    for (const shape of shapes) {
      for (const signing of [common, frontier]) {
        const raw = createLegacyTx({ ...shape, gasLimit: 3_000_000n, gasPrice: 10n ** 9n }, { common: signing })
          .sign(key)
          .serialize();
        const tx = createLegacyTxFromRLP(raw, { common });
        const want = keccak256(RLP.encode(tx.getMessageToSign()));
        expect(bytesToHex(legacySigningHash(tx, fieldsOf(raw)))).toBe(bytesToHex(want));
        const pooled = decodePoolTransaction(raw, { chainId: common.chainId(), common, allowUnprotected: true });
        expect(pooled.getSenderAddress().toString()).toBe(DEV_ACCOUNTS[1]!.address.toLowerCase());
        checked++;
      }
    }
    expect(checked).toBe(8);
  });

  it('gives the same hash on both sides of the long list header (payloads of 44 to 63 bytes)', () => {
    for (let size = 30; size < 50; size++) {
      const data = new Uint8Array(size).fill(0xaa);
      const raw = createLegacyTx({ nonce: 1n, data, gasLimit: 100_000n, gasPrice: 1n }, { common })
        .sign(key)
        .serialize();
      const tx = createLegacyTxFromRLP(raw, { common });
      expect(bytesToHex(legacySigningHash(tx, fieldsOf(raw)))).toBe(
        bytesToHex(keccak256(RLP.encode(tx.getMessageToSign()))),
      );
    }
  });

  it("spares the pool's recovery the re-encoding of the fields", () => {
    const raw = createLegacyTx(
      { nonce: 9n, to: new Uint8Array(20).fill(1), gasLimit: 21_000n, gasPrice: 1n },
      { common },
    )
      .sign(key)
      .serialize();
    const pooled = decodePoolTransaction(raw, { chainId: common.chainId(), common, allowUnprotected: false });
    const reencode = vi.spyOn(LegacyTx.prototype, 'getMessageToSign');
    try {
      expect(pooled.getSenderAddress().toString()).toBe(DEV_ACCOUNTS[1]!.address.toLowerCase());
      expect(reencode).not.toHaveBeenCalled();
    } finally {
      reencode.mockRestore();
    }
  });
});
