/** The checkpointing settings: the dev federation is dev accounts 7, 8, 9; thresholds and refused configurations. */
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import secp256k1 from 'secp256k1';
import { describe, expect, it } from 'vitest';
import { Federation } from '../../../src/chain/checkpointing/index.js';
import {
  DEV_ACCOUNTS,
  DEV_CHECKPOINTING,
  DEV_FEDERATION_ACCOUNTS,
  devWithCheckpointing,
  dev,
} from '../../../src/chain/networks/index.js';

const publicKeyOf = (privateKey: string) =>
  secp256k1.publicKeyCreate(hexToBytes(privateKey as `0x${string}`), false).subarray(1);

describe('federation', () => {
  it('dev: the public keys of dev accounts 7, 8 and 9, active from block 1, 2 signatures needed', () => {
    expect(DEV_FEDERATION_ACCOUNTS).toEqual([7, 8, 9]);
    expect(DEV_CHECKPOINTING.federationPublicKeys.map(bytesToHex)).toEqual(
      DEV_FEDERATION_ACCOUNTS.map((i) => bytesToHex(publicKeyOf(DEV_ACCOUNTS[i].privateKey))),
    );
    const federation = new Federation(DEV_CHECKPOINTING);
    expect(federation.minSignatures).toBe(2);
    expect(federation.activeAt(0n)).toBe(false);
    expect(federation.activeAt(1n)).toBe(true);
    expect(federation.isMember(publicKeyOf(DEV_ACCOUNTS[8].privateKey))).toBe(true);
    expect(federation.isMember(publicKeyOf(DEV_ACCOUNTS[0].privateKey))).toBe(false);
    // Same chain otherwise; plain dev has none.
    expect(devWithCheckpointing.genesis).toBe(dev.genesis);
    expect(dev.checkpointing).toBeUndefined();
  });

  it('needs floor(n/2)+1 signatures unless set', () => {
    const keys = DEV_ACCOUNTS.map((a) => publicKeyOf(a.privateKey));
    expect(new Federation({ activationBlock: 0n, federationPublicKeys: keys.slice(0, 1) }).minSignatures).toBe(1);
    expect(new Federation({ activationBlock: 0n, federationPublicKeys: keys.slice(0, 4) }).minSignatures).toBe(3);
    expect(new Federation({ activationBlock: 0n, federationPublicKeys: keys.slice(0, 5) }).minSignatures).toBe(3);
    expect(
      new Federation({ activationBlock: 0n, federationPublicKeys: keys.slice(0, 5), minSignatures: 5 }).minSignatures,
    ).toBe(5);
  });

  it('refuses unusable settings', () => {
    const keys = DEV_ACCOUNTS.map((a) => publicKeyOf(a.privateKey));
    expect(() => new Federation({ activationBlock: 0n, federationPublicKeys: [] })).toThrow(/at least one/);
    expect(() => new Federation({ activationBlock: 0n, federationPublicKeys: [keys[0]!.subarray(1)] })).toThrow(
      /64 bytes/,
    );
    expect(() => new Federation({ activationBlock: 0n, federationPublicKeys: [keys[0]!, keys[0]!] })).toThrow(
      /distinct/,
    );
    expect(
      () => new Federation({ activationBlock: 0n, federationPublicKeys: keys.slice(0, 2), minSignatures: 3 }),
    ).toThrow(/between 1 and 2/);
  });
});
