import { encryptKeystoreJson, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { AccountError } from '../../../src/chain/accounts/errors.js';
import {
  decryptKeystore,
  encryptKeystore,
  LIGHT_SCRYPT,
  parseKeystore,
  STANDARD_SCRYPT,
} from '../../../src/chain/accounts/keystore-v3.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const PASSPHRASE = 'correct horse battery';

// The two test vectors of the Web3 Secret Storage Definition (ethereum/wiki), password "testpassword".
const SPEC_PRIVATE_KEY = '7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d';
const specPbkdf2 = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '6087dab2f9fdbbfaddc31a909735c1e6' },
    ciphertext: '5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46',
    kdf: 'pbkdf2',
    kdfparams: {
      c: 262144,
      dklen: 32,
      prf: 'hmac-sha256',
      salt: 'ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd',
    },
    mac: '517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
};
const specScrypt = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '83dbcc02d8ccb40e466191a123791e0e' },
    ciphertext: 'd172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c',
    kdf: 'scrypt',
    kdfparams: {
      dklen: 32,
      n: 262144,
      p: 8,
      r: 1,
      salt: 'ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19',
    },
    mac: '2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
};

async function expectAccountError(promise: Promise<unknown>, kind: string, message?: string | RegExp) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AccountError);
  expect((error as AccountError).kind).toBe(kind);
  if (message !== undefined) expect((error as AccountError).message).toMatch(message);
  return error as AccountError;
}

describe('Web3 Secret Storage v3', () => {
  it('decrypts the specification test vectors (pbkdf2 and scrypt)', async () => {
    for (const vector of [specPbkdf2, specScrypt]) {
      const { privateKey, address } = await decryptKeystore(vector, 'testpassword');
      expect(hex(privateKey)).toBe(SPEC_PRIVATE_KEY);
      expect(`0x${hex(address)}`).toBe(new Wallet(`0x${SPEC_PRIVATE_KEY}`).address.toLowerCase());
    }
  }, 30_000);

  it('rejects a wrong passphrase with the reference message', async () => {
    await expectAccountError(
      decryptKeystore(specPbkdf2, 'wrongpassword'),
      'wrong-passphrase',
      'Could not decrypt key with given passphrase',
    );
  }, 30_000);

  it('writes geth-layout JSON that ethers decrypts', async () => {
    const wallet = Wallet.createRandom();
    const json = await encryptKeystore(Buffer.from(wallet.privateKey.slice(2), 'hex'), PASSPHRASE, LIGHT_SCRYPT);
    expect(json.version).toBe(3);
    expect(json.address).toBe(wallet.address.slice(2).toLowerCase());
    expect(json.crypto.cipher).toBe('aes-128-ctr');
    expect(json.crypto.kdf).toBe('scrypt');
    expect(json.crypto.kdfparams).toMatchObject({ n: 4096, r: 8, p: 6, dklen: 32 });
    expect(json.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const decrypted = await Wallet.fromEncryptedJson(JSON.stringify(json), PASSPHRASE);
    expect(decrypted.privateKey).toBe(wallet.privateKey);
    await expect(Wallet.fromEncryptedJson(JSON.stringify(json), 'not the passphrase')).rejects.toThrow();
  }, 30_000);

  it('writes the standard cost (n = 262144, r = 8, p = 1) by default, and ethers decrypts it', async () => {
    const wallet = Wallet.createRandom();
    const json = await encryptKeystore(Buffer.from(wallet.privateKey.slice(2), 'hex'), PASSPHRASE);
    expect(json.crypto.kdfparams).toMatchObject({ n: 262144, r: 8, p: 1, dklen: 32 });
    expect(STANDARD_SCRYPT).toEqual({ n: 262144, r: 8, p: 1, dklen: 32 });
    const decrypted = await Wallet.fromEncryptedJson(JSON.stringify(json), PASSPHRASE);
    expect(decrypted.address).toBe(wallet.address);
  }, 60_000);

  it('reads files written by ethers wallet.encrypt() (capitalised "Crypto")', async () => {
    const wallet = Wallet.createRandom();
    // wallet.encrypt's own encoder, with a light scrypt instead of its N = 2^17 (~2 s of CPU in ethers' JS scrypt).
    const account = { address: wallet.address, privateKey: wallet.privateKey };
    const text = await encryptKeystoreJson(account, PASSPHRASE, { scrypt: { N: 4096 } });
    expect(Object.keys(JSON.parse(text))).toContain('Crypto');
    const { privateKey, address } = await decryptKeystore(JSON.parse(text), PASSPHRASE);
    expect(`0x${hex(privateKey)}`).toBe(wallet.privateKey);
    expect(`0x${hex(address)}`).toBe(wallet.address.toLowerCase());
  }, 30_000);

  it('opens ethers files whose passphrase is not in NFKC form (ethers normalises, geth does not)', async () => {
    const wallet = Wallet.createRandom();
    const passphrase = 'ﬁve ＦＵＬＬ width'; // ligature and full-width letters change under NFKC
    expect(passphrase.normalize('NFKC')).not.toBe(passphrase);
    const text = await encryptKeystoreJson({ address: wallet.address, privateKey: wallet.privateKey }, passphrase, {
      scrypt: { N: 4096 },
    });
    const { privateKey } = await decryptKeystore(JSON.parse(text), passphrase);
    expect(`0x${hex(privateKey)}`).toBe(wallet.privateKey);
    // and our own file with that passphrase opens in ethers
    const ours = await encryptKeystore(privateKey, passphrase, LIGHT_SCRYPT);
    expect((await Wallet.fromEncryptedJson(JSON.stringify(ours), passphrase)).address).toBe(wallet.address);
  }, 30_000);

  it('treats a tampered ciphertext as a failed decryption (MAC mismatch)', async () => {
    const json = structuredClone(
      await encryptKeystore(Buffer.from(SPEC_PRIVATE_KEY, 'hex'), PASSPHRASE, LIGHT_SCRYPT),
    ) as {
      crypto: { ciphertext: string };
    };
    const flipped = (parseInt(json.crypto.ciphertext[0], 16) ^ 1).toString(16);
    json.crypto.ciphertext = flipped + json.crypto.ciphertext.slice(1);
    await expectAccountError(decryptKeystore(json, PASSPHRASE), 'wrong-passphrase');
  }, 30_000);

  it('refuses a file whose key does not match its stated address', async () => {
    const json = { ...(await encryptKeystore(Buffer.from(SPEC_PRIVATE_KEY, 'hex'), PASSPHRASE, LIGHT_SCRYPT)) };
    json.address = '00'.repeat(20);
    await expectAccountError(decryptKeystore(json, PASSPHRASE), 'bad-keystore-file', /does not match/);
  }, 30_000);

  it('rejects malformed or unsupported files without touching the passphrase', () => {
    const base = specScrypt;
    const variants: Array<[unknown, RegExp]> = [
      [null, /not a JSON object/],
      [{ ...base, version: 1 }, /version/],
      [{ ...base, crypto: { ...base.crypto, cipher: 'aes-128-cbc' } }, /cipher/],
      [{ ...base, crypto: { ...base.crypto, kdf: 'argon2' } }, /kdf/],
      [{ ...base, crypto: { ...base.crypto, kdfparams: { ...base.crypto.kdfparams, n: 1000 } } }, /power of two/],
      [{ ...base, crypto: { ...base.crypto, kdfparams: { ...base.crypto.kdfparams, n: 2 ** 24, r: 8 } } }, /too large/],
      [{ ...base, crypto: { ...base.crypto, mac: 'zz' } }, /mac/],
      [{ ...base, crypto: { ...base.crypto, cipherparams: { iv: '00' } } }, /iv must be 16 bytes/],
      [
        {
          ...specPbkdf2,
          crypto: { ...specPbkdf2.crypto, kdfparams: { ...specPbkdf2.crypto.kdfparams, prf: 'hmac-sha1' } },
        },
        /prf/,
      ],
    ];
    for (const [json, why] of variants) {
      let caught: unknown;
      try {
        parseKeystore(json);
      } catch (e) {
        caught = e;
      }
      expect(caught, String(why)).toBeInstanceOf(AccountError);
      expect((caught as AccountError).kind).toBe('bad-keystore-file');
      expect((caught as AccountError).message).toMatch(why);
    }
    // geth's lowercase and ethers' capitalised section names both parse
    const { crypto, ...rest } = base;
    expect(parseKeystore({ ...rest, Crypto: crypto }).kdf.kdf).toBe('scrypt');
  });
});
