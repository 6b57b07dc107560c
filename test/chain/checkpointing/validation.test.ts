/**
 * ECIP-1097 §5.5 rules, one at a time, with the dev federation (accounts 7, 8, 9; 2 signatures needed): each
 * failure is reported with the rule's code and a message that says what was wrong; §5.3 fields; the field form.
 */
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import {
  buildCheckpointBlock,
  checkpointBlockFieldFault,
  checkpointFieldFault,
  checkpointSignatureFault,
  Ecip1097Header,
  Federation,
  sortSignatures,
  signCheckpoint,
  type CheckpointSignature,
} from '../../../src/chain/checkpointing/index.js';
import { etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev, DEV_ACCOUNTS, DEV_CHECKPOINTING } from '../../../src/chain/networks/index.js';
import { createBlockHeader } from '@ethereumjs/block';

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const federation = new Federation(DEV_CHECKPOINTING);
const rules = etcEngineRules(dev);
const key = (i: number) => hexToBytes(DEV_ACCOUNTS[i].privateKey as `0x${string}`);
const parentHash = new Uint8Array(32).fill(0xab);
const sign = (i: number, hash: Uint8Array = parentHash) => signCheckpoint(hash, key(i));
const check = (sigs: CheckpointSignature[]) => checkpointSignatureFault({ signatures: sigs }, parentHash, federation);

describe('checkpoint signatures', () => {
  it('accepts 2 or 3 distinct federation members, sorted', () => {
    expect(federation.minSignatures).toBe(2);
    expect(check(sortSignatures([sign(7), sign(8)]))).toBeUndefined();
    expect(check(sortSignatures([sign(7), sign(8), sign(9)]))).toBeUndefined();
  });

  it('refuses more signatures than members before recovering any', () => {
    const junk = { r: 1n, s: 1n, v: 99 };
    expect(check([junk, junk, junk, junk])).toMatchObject({
      code: 'too-many-signatures',
      message: expect.stringMatching(/4 signatures, but the federation has only 3/),
    });
  });

  it('refuses signatures out of (r, s, v) order', () => {
    const sorted = sortSignatures([sign(7), sign(8)]);
    expect(check([sorted[1]!, sorted[0]!])).toMatchObject({ code: 'unsorted-signatures' });
  });

  it('refuses a signature that recovers to no key', () => {
    const good = sign(7);
    for (const bad of [
      { ...good, v: 29 },
      { ...good, s: 0n },
      { ...good, r: SECP256K1_N },
    ]) {
      expect(check(sortSignatures([bad, sign(8)]))).toMatchObject({
        code: 'invalid-signature',
        message: expect.stringMatching(/is invalid: it recovers to no public key/),
      });
    }
  });

  it('refuses a signer outside the federation, and a member signing another hash', () => {
    const outsider = check(sortSignatures([sign(0), sign(8)]));
    expect(outsider).toMatchObject({ code: 'not-federation-signer' });
    expect(outsider!.message).toMatch(/not a federation member/);
    expect(check(sortSignatures([sign(7, new Uint8Array(32).fill(1)), sign(8)]))).toMatchObject({
      code: 'not-federation-signer',
    });
  });

  it('refuses two signatures of one member: the same one twice, or its malleated twin', () => {
    const s7 = sign(7);
    expect(check([s7, s7])).toMatchObject({
      code: 'duplicate-signer',
      message: expect.stringMatching(/signatures 0 and 1 are from the same federation member 0x/),
    });
    const twin = { r: s7.r, s: SECP256K1_N - s7.s, v: s7.v === 27 ? 28 : 27 };
    expect(check(sortSignatures([s7, twin]))).toMatchObject({ code: 'duplicate-signer' });
  });

  it('refuses fewer valid signatures than the threshold', () => {
    expect(check([sign(9)])).toMatchObject({
      code: 'too-few-signatures',
      message: '1 valid signature, but 2 of the 3 federation members must sign',
    });
    expect(check([])).toMatchObject({ code: 'too-few-signatures' });
  });
});

describe('checkpoint block fields and the 16th field', () => {
  const common = rules.commonAt(6n);
  const parent = new Ecip1097Header(
    { number: 5n, difficulty: 2n, gasLimit: 30_000_000n, timestamp: 500n },
    { common: rules.commonAt(5n) },
    undefined,
  );
  const block = buildCheckpointBlock(parent, [sign(7, parent.hash()), sign(8, parent.hash())], common);

  it('a built checkpoint block satisfies §5.3 and §5.5 against its parent', () => {
    expect(checkpointBlockFieldFault(block.header, parent)).toBeUndefined();
    expect(
      checkpointSignatureFault(
        { signatures: (block.header as Ecip1097Header).checkpoint!.signatures },
        parent.hash(),
        federation,
      ),
    ).toBeUndefined();
  });

  it('names the field that a checkpoint block must leave empty or copy', () => {
    const other = new Ecip1097Header(
      { number: 5n, difficulty: 3n, gasLimit: 30_000_000n, timestamp: 500n },
      { common: rules.commonAt(5n) },
      undefined,
    );
    expect(checkpointBlockFieldFault(block.header, other)).toMatchObject({
      code: 'malformed-checkpoint-block',
      message: "difficulty differs from the parent's",
    });
    const late = new Ecip1097Header(
      { number: 5n, difficulty: 2n, gasLimit: 30_000_000n, timestamp: 499n },
      { common: rules.commonAt(5n) },
      undefined,
    );
    expect(checkpointBlockFieldFault(block.header, late)?.message).toMatch(/timestamp is not the parent's \+ 1/);
  });

  it('wants the 16th field from the activation block on, and nowhere else', () => {
    const plain = (n: bigint) => createBlockHeader({ number: n }, { common: rules.commonAt(n) });
    expect(federation.activationBlock).toBe(1n);
    expect(checkpointFieldFault(plain(0n), federation)).toBeUndefined();
    expect(checkpointFieldFault(plain(1n), federation)).toMatchObject({ code: 'missing-checkpoint-field' });
    expect(checkpointFieldFault(parent, federation)).toBeUndefined();
    expect(checkpointFieldFault(parent, undefined)).toMatchObject({ code: 'unexpected-checkpoint-field' });
    const later = new Federation({ ...DEV_CHECKPOINTING, activationBlock: 10n });
    expect(checkpointFieldFault(parent, later)).toMatchObject({
      code: 'unexpected-checkpoint-field',
      message: expect.stringMatching(/before its activation at block 10/),
    });
    expect(checkpointFieldFault(plain(5n), later)).toBeUndefined();
    expect(bytesToHex(block.header.parentHash)).toBe(bytesToHex(parent.hash()));
  });
});
