/**
 * A legacy transaction the pool decodes keeps the bytes it came in as its encoding (tx-bytes.ts `noteTxBytes`): no
 * second encoding for its hash, the stored body or the seal check. That holds only because every accepted encoding is
 * the canonical one, the library's `serialize()`: checked here for every field shape, and the non-canonical forms of
 * an accepted transaction are checked to be refused.
 */
import { RLP } from '@ethereumjs/rlp';
import { createLegacyTx } from '@ethereumjs/tx';
import { concatBytes, hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { rlpList, txBytes } from '../codec/tx-bytes.js';
import { etcEngineRules } from '../engine/engine-adapters.js';
import { SharedCommons } from '../exec/commons.js';
import { DEV_ACCOUNTS, getNetwork } from '../networks/index.js';
import { decodePoolTransaction } from './decode.js';

const common = new SharedCommons(etcEngineRules(getNetwork('dev'))).commonAt(1n);
const rules = { chainId: common.chainId(), common, allowUnprotected: true };
const key = hexToBytes(DEV_ACCOUNTS[1]!.privateKey as `0x${string}`);
const signed = (fields: Parameters<typeof createLegacyTx>[0]) =>
  createLegacyTx({ gasLimit: 100_000n, gasPrice: 10n ** 9n, ...fields }, { common })
    .sign(key)
    .serialize();

describe('pool transaction bytes', () => {
  it('keeps the bytes it decoded, which are the library encoding of the transaction, for every field shape', () => {
    const shapes = [
      { nonce: 0n, to: new Uint8Array(20).fill(1), value: 0n },
      { nonce: 127n, value: 1n, data: Uint8Array.of(0) },
      { nonce: 128n, to: new Uint8Array(20).fill(2), value: 10n ** 30n, data: Uint8Array.of(0x7f) },
      { nonce: 2n ** 40n, to: new Uint8Array(20).fill(4), value: 5n, data: new Uint8Array(56).fill(0x80) },
      { nonce: 3n, to: new Uint8Array(20).fill(5), value: 255n, data: new Uint8Array(70_000).fill(9) },
    ];
    for (const shape of shapes) {
      const raw = signed(shape);
      const tx = decodePoolTransaction(raw, rules);
      expect(txBytes(tx)).toBe(raw);
      expect(tx.serialize()).toEqual(raw);
    }
  });

  it('refuses the non-canonical encodings of an accepted transaction', () => {
    const raw = signed({ nonce: 5n, to: new Uint8Array(20).fill(1), value: 7n, data: Uint8Array.of(5, 6, 7) });
    expect(decodePoolTransaction(raw, rules).serialize()).toEqual(raw);
    const fields = RLP.decode(raw) as Uint8Array[];
    const encoded = fields.map((f) => RLP.encode(f));
    const withField = (i: number, bytes: Uint8Array) => rlpList(encoded.map((e, j) => (j === i ? bytes : e)));
    const payload = concatBytes(...encoded);
    const forms: Record<string, Uint8Array> = {
      'a leading zero in the nonce': withField(0, RLP.encode(Uint8Array.of(0, 5))),
      'a leading zero in the value': withField(4, RLP.encode(Uint8Array.of(0, 7))),
      'a leading zero in r': withField(7, RLP.encode(concatBytes(Uint8Array.of(0), fields[7]!))),
      'a prefixed single byte (the nonce as 0x81 0x05)': withField(0, Uint8Array.of(0x81, 5)),
      'a long-form length for short data': withField(5, Uint8Array.of(0xb8, 3, 5, 6, 7)),
      'a 19-byte to': withField(3, RLP.encode(new Uint8Array(19).fill(1))),
      'zeros before the list length': concatBytes(Uint8Array.of(0xf9, 0, payload.length), payload),
      'bytes after the list': concatBytes(raw, Uint8Array.of(0)),
    };
    for (const [name, bytes] of Object.entries(forms)) {
      expect({ name, refused: refused(() => decodePoolTransaction(bytes, rules)) }).toEqual({ name, refused: true });
    }
  });
});

function refused(decode: () => unknown): boolean {
  try {
    decode();
    return false;
  } catch {
    return true;
  }
}
