import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptKeystoreJson, Transaction, verifyMessage, Wallet } from 'ethers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountManager, AccountError, keystoreDirOf, LIGHT_SCRYPT } from '../../../src/chain/accounts/index.js';
import { DEV_ACCOUNTS, dev } from '../../../src/chain/networks/index.js';
import { txRulesAt } from '../../../src/chain/rules/index.js';

const PASSPHRASE = 'correct horse battery';
const hexOf = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const bytesOf = (hex: string) => new Uint8Array(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
const FILE_NAME = /^UTC--\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{9}Z--[0-9a-f]{40}$/;

function caught(fn: () => unknown): AccountError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AccountError);
    return error as AccountError;
  }
  throw new Error('expected an AccountError');
}

async function caughtAsync(promise: Promise<unknown>): Promise<AccountError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AccountError);
    return error as AccountError;
  }
  throw new Error('expected an AccountError');
}

let datadir: string;
let manager: AccountManager;

beforeEach(async () => {
  datadir = await mkdtemp(join(tmpdir(), 'svc-accounts-'));
  // Light scrypt keeps these tests fast; the standard cost is covered in keystore-v3.test.ts and the bench.
  manager = new AccountManager({ keystoreDir: keystoreDirOf(datadir), scrypt: LIGHT_SCRYPT });
});

afterEach(async () => {
  vi.useRealTimers();
  manager.lockAll();
  await rm(datadir, { recursive: true, force: true });
});

describe('keystore files', () => {
  it('newAccount writes one owner-only UTC--<time>--<address> file that ethers decrypts', async () => {
    const address = await manager.newAccount(PASSPHRASE);
    const dir = keystoreDirOf(datadir);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const names = await readdir(dir);
    expect(names).toHaveLength(1); // no temp file left behind
    expect(names[0]).toMatch(FILE_NAME);
    expect(names[0].endsWith(hexOf(address).slice(2))).toBe(true);
    expect((await stat(join(dir, names[0]))).mode & 0o777).toBe(0o600);
    const text = await readFile(join(dir, names[0]), 'utf8');
    const wallet = await Wallet.fromEncryptedJson(text, PASSPHRASE);
    expect(wallet.address.toLowerCase()).toBe(hexOf(address));
    expect(text).not.toContain(wallet.privateKey.slice(2));
    expect((await manager.list()).map(hexOf)).toEqual([hexOf(address)]);
  });

  it('lists accounts in creation order and ignores foreign files', async () => {
    const first = await manager.newAccount(PASSPHRASE);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await manager.newAccount(PASSPHRASE);
    const dir = keystoreDirOf(datadir);
    await writeFile(join(dir, 'README'), 'not a key');
    await writeFile(join(dir, '.hidden'), '{}');
    const listed = (await manager.list()).map(hexOf);
    expect(listed).toEqual([hexOf(first), hexOf(second)]);
    // a fresh manager over the same directory sees the same accounts
    const again = new AccountManager({ keystoreDir: dir, scrypt: LIGHT_SCRYPT });
    expect((await again.list()).map(hexOf)).toEqual(listed);
  });

  it('enforces the minimum passphrase length (configurable), allowing an empty one like the reference', async () => {
    expect((await caughtAsync(manager.newAccount('short'))).message).toBe(
      'Provided passphrase must have at least 7 characters',
    );
    expect(await manager.newAccount('')).toHaveLength(20);
    const strict = new AccountManager({
      keystoreDir: keystoreDirOf(datadir),
      minPassphraseLength: 12,
      allowEmptyPassphrase: false,
    });
    expect((await caughtAsync(strict.newAccount(''))).message).toBe(
      'Provided passphrase must have at least 12 characters',
    );
    expect((await caughtAsync(strict.importRawKey(bytesOf(DEV_ACCOUNTS[0].privateKey), 'elevenchars'))).kind).toBe(
      'passphrase-too-short',
    );
  });

  it('importRawKey stores the key under its address and refuses a second import', async () => {
    const wallet = Wallet.createRandom();
    const address = await manager.importRawKey(bytesOf(wallet.privateKey), PASSPHRASE);
    expect(hexOf(address)).toBe(wallet.address.toLowerCase());
    const error = await caughtAsync(manager.importRawKey(bytesOf(wallet.privateKey), PASSPHRASE));
    expect(error.message).toBe('account already exists');
    expect((await readdir(keystoreDirOf(datadir))).length).toBe(1);
    expect((await caughtAsync(manager.importRawKey(new Uint8Array(32), PASSPHRASE))).message).toBe(
      'Invalid key provided, expected 32 bytes (64 hex digits)',
    );
    expect((await caughtAsync(manager.importRawKey(new Uint8Array(31).fill(1), PASSPHRASE))).kind).toBe('invalid-key');
  });

  it('imports of one key at the same time store it once; the others are "account already exists"', async () => {
    // Found by the fuzzer: two imports in one batch both passed the check, then collided on the file name (-32603).
    const wallet = Wallet.createRandom();
    const raw = await Promise.allSettled(
      [1, 2, 3].map(() => manager.importRawKey(bytesOf(wallet.privateKey), PASSPHRASE)),
    );
    expect(
      raw.filter((r) => r.status === 'fulfilled').map((r) => hexOf((r as PromiseFulfilledResult<Uint8Array>).value)),
    ).toEqual([wallet.address.toLowerCase()]);
    for (const r of raw.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason.message).toBe('account already exists');
    const other = Wallet.createRandom();
    const json = await encryptKeystoreJson({ address: other.address, privateKey: other.privateKey }, PASSPHRASE, {
      scrypt: { N: 4096 },
    });
    const viaJson = await Promise.allSettled([1, 2].map(() => manager.importKeystoreJson(json, PASSPHRASE)));
    expect(viaJson.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const files = await readdir(keystoreDirOf(datadir));
    expect(files.map((f) => f.slice(-40)).sort()).toEqual(
      [wallet.address, other.address].map((a) => a.slice(2).toLowerCase()).sort(),
    );
  });

  it('uses keystore files written by ethers, dropped in or imported', async () => {
    const dropped = Wallet.createRandom();
    const dir = keystoreDirOf(datadir);
    await manager.keystore.ensure();
    const droppedJson = await encryptKeystoreJson(
      { address: dropped.address, privateKey: dropped.privateKey },
      PASSPHRASE,
      { scrypt: { N: 4096 } },
    );
    await writeFile(
      join(dir, `UTC--2020-01-01T00-00-00.000000000Z--${dropped.address.slice(2).toLowerCase()}`),
      droppedJson,
    );
    expect((await manager.list()).map(hexOf)).toEqual([dropped.address.toLowerCase()]);
    expect(await manager.unlock(bytesOf(dropped.address), PASSPHRASE)).toBe(true);
    const signature = manager.signMessage(bytesOf(dropped.address), Buffer.from('hi'));
    expect(verifyMessage('hi', hexOf(signature))).toBe(dropped.address);

    const imported = Wallet.createRandom();
    const importedJson = await encryptKeystoreJson(
      { address: imported.address, privateKey: imported.privateKey },
      PASSPHRASE,
      { scrypt: { N: 4096 } },
    );
    expect((await caughtAsync(manager.importKeystoreJson(importedJson, 'wrong passphrase'))).kind).toBe(
      'wrong-passphrase',
    );
    expect(hexOf(await manager.importKeystoreJson(importedJson, PASSPHRASE))).toBe(imported.address.toLowerCase());
    expect((await caughtAsync(manager.importKeystoreJson(importedJson, PASSPHRASE))).message).toBe(
      'account already exists',
    );
    expect(await manager.unlock(bytesOf(imported.address), PASSPHRASE)).toBe(true);
  });
});

describe('unlock state machine', () => {
  it('wrong passphrase → false; right → true; lock → true; unknown → "No key found"', async () => {
    const address = await manager.newAccount(PASSPHRASE);
    expect(manager.isUnlocked(address)).toBe(false);
    expect(await manager.unlock(address, 'wrong passphrase')).toBe(false);
    expect(manager.isUnlocked(address)).toBe(false);
    expect(caught(() => manager.signerFor(address)).message).toBe('account is locked or unknown');

    expect(await manager.unlock(address, PASSPHRASE)).toBe(true);
    expect(manager.isUnlocked(address)).toBe(true);
    const signer = manager.signerFor(address);
    expect(signer.signMessage(Buffer.from('x'))).toHaveLength(65);

    expect(await manager.lock(address)).toBe(true);
    expect(manager.isUnlocked(address)).toBe(false);
    // a signer handed out earlier stops working with the lock
    expect(caught(() => signer.signMessage(Buffer.from('x'))).message).toBe('account is locked or unknown');
    expect(await manager.lock(address)).toBe(true); // still an account of the node

    const unknown = bytesOf(Wallet.createRandom().address);
    expect((await caughtAsync(manager.unlock(unknown, PASSPHRASE))).message).toBe('No key found for the given address');
    expect(await manager.lock(unknown)).toBe(false);
    expect(caught(() => manager.signerFor(unknown)).message).toBe('account is locked or unknown');
    expect((await caughtAsync(manager.unlock(address, PASSPHRASE, -1))).kind).toBe('invalid-duration');
  });

  it('relocks by itself after a short duration (real time)', async () => {
    const address = await manager.newAccount(PASSPHRASE);
    expect(await manager.unlock(address, PASSPHRASE, 0.3)).toBe(true);
    expect(manager.isUnlocked(address)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(manager.isUnlocked(address)).toBe(false);
    expect(() => manager.signMessage(address, Buffer.from('x'))).toThrow('account is locked or unknown');
  });

  it('defaults to 300 s (undefined or null), 0 means until locked, and long durations hold', async () => {
    const address = await manager.newAccount(PASSPHRASE);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    for (const duration of [undefined, null]) {
      expect(await manager.unlock(address, PASSPHRASE, duration)).toBe(true);
      vi.advanceTimersByTime(299_000);
      expect(manager.isUnlocked(address)).toBe(true);
      vi.advanceTimersByTime(2_000);
      expect(manager.isUnlocked(address)).toBe(false);
    }

    expect(await manager.unlock(address, PASSPHRASE, 0)).toBe(true);
    vi.advanceTimersByTime(365 * 86_400_000);
    expect(manager.isUnlocked(address)).toBe(true);
    expect(await manager.lock(address)).toBe(true);
    expect(manager.isUnlocked(address)).toBe(false);

    // beyond setTimeout's 24.8-day limit: must neither relock at once nor never
    const days = 30;
    expect(await manager.unlock(address, PASSPHRASE, days * 86_400)).toBe(true);
    vi.advanceTimersByTime((days - 1) * 86_400_000);
    expect(manager.isUnlocked(address)).toBe(true);
    vi.advanceTimersByTime(2 * 86_400_000);
    expect(manager.isUnlocked(address)).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a later unlock replaces the earlier duration', async () => {
    const address = await manager.newAccount(PASSPHRASE);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    expect(await manager.unlock(address, PASSPHRASE, 10)).toBe(true);
    expect(await manager.unlock(address, PASSPHRASE, 0)).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(manager.isUnlocked(address)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('signing', () => {
  it('personal message: sign → ecRecover → same address; matches ethers byte for byte', async () => {
    const wallet = Wallet.createRandom();
    const address = await manager.importRawKey(bytesOf(wallet.privateKey), PASSPHRASE);
    await manager.unlock(address, PASSPHRASE);
    for (const message of [
      Buffer.from('hello world'),
      new Uint8Array(0),
      bytesOf('0xdeadbeef'),
      new Uint8Array(300).fill(7),
    ]) {
      const signature = manager.signMessage(address, message);
      expect(signature).toHaveLength(65);
      expect([27, 28]).toContain(signature[64]);
      expect(hexOf(manager.ecRecover(message, signature))).toBe(hexOf(address));
      expect(verifyMessage(message, hexOf(signature))).toBe(wallet.address);
      expect(hexOf(signature)).toBe(await wallet.signMessage(message));
    }
    const signature = manager.signMessage(address, Buffer.from('hello'));
    expect(hexOf(manager.ecRecover(Buffer.from('hellO'), signature))).not.toBe(hexOf(address));
    const rawV = Uint8Array.from(signature);
    rawV[64] -= 27; // the bare recovery id some signers emit
    expect(hexOf(manager.ecRecover(Buffer.from('hello'), rawV))).toBe(hexOf(address));
    const badV = Uint8Array.from(signature);
    badV[64] = 29;
    expect(caught(() => manager.ecRecover(Buffer.from('hello'), badV)).message).toBe(
      'Invalid signature: v must be 27, 28, 0 or 1.',
    );
    const offCurve = Uint8Array.from(signature);
    offCurve.fill(0xff, 0, 32); // r ≥ n: no point has this x
    expect(caught(() => manager.ecRecover(Buffer.from('hello'), offCurve)).message).toBe(
      'Invalid signature: no public key recovers from it.',
    );
    expect(caught(() => manager.ecRecover(Buffer.from('hello'), signature.subarray(0, 64))).kind).toBe(
      'invalid-signature',
    );
  });

  it('signs a legacy EIP-155 transaction that recovers to the sender', async () => {
    const wallet = Wallet.createRandom();
    const address = await manager.importRawKey(bytesOf(wallet.privateKey), PASSPHRASE);
    const fields = {
      nonce: 3n,
      gasPrice: 2_000_000_000n,
      gasLimit: 21_000n,
      to: bytesOf(DEV_ACCOUNTS[1].address),
      value: 10n ** 18n,
    };
    const common = txRulesAt(dev, 1n);
    expect(() => manager.signTransaction(address, fields, common)).toThrow('account is locked or unknown');
    await manager.unlock(address, PASSPHRASE);
    const tx = manager.signTransaction(address, fields, common);
    expect(hexOf(tx.getSenderAddress().bytes)).toBe(hexOf(address));
    expect(tx.v === dev.chainId * 2n + 35n || tx.v === dev.chainId * 2n + 36n).toBe(true);
    const parsed = Transaction.from(hexOf(tx.serialize()));
    expect(parsed.from).toBe(wallet.address);
    expect(parsed.chainId).toBe(dev.chainId);
    expect(parsed.nonce).toBe(3);
    expect(parsed.value).toBe(10n ** 18n);
    expect(parsed.hash).toBe(hexOf(tx.hash()));
  });

  it('withPassphrase signs without unlocking and forgets the key afterwards', async () => {
    const address = await manager.newAccount(PASSPHRASE);
    expect((await caughtAsync(manager.withPassphrase(address, 'wrong passphrase', () => 1))).message).toBe(
      'Could not decrypt key with given passphrase',
    );
    const unknown = bytesOf(Wallet.createRandom().address);
    expect((await caughtAsync(manager.withPassphrase(unknown, PASSPHRASE, () => 1))).message).toBe(
      'No key found for the given address',
    );

    let leaked: { signMessage(m: Uint8Array): Uint8Array } | undefined;
    const signature = await manager.withPassphrase(address, PASSPHRASE, async (signer) => {
      leaked = signer;
      await new Promise((resolve) => setTimeout(resolve, 1));
      return signer.signMessage(Buffer.from('ok'));
    });
    expect(hexOf(manager.ecRecover(Buffer.from('ok'), signature))).toBe(hexOf(address));
    expect(manager.isUnlocked(address)).toBe(false);
    expect(() => leaked?.signMessage(Buffer.from('later'))).toThrow('account is locked or unknown');
  });

  it('never puts a passphrase or key into an error message', async () => {
    const secret = 'my very secret passphrase';
    const address = await manager.newAccount(secret);
    const messages = [
      (await caughtAsync(manager.withPassphrase(address, `${secret}!`, () => 0))).message,
      (await caughtAsync(manager.newAccount('secret'))).message,
      (await caughtAsync(manager.importRawKey(bytesOf(`0x${'ff'.repeat(32)}`), secret))).message,
    ];
    for (const message of messages) {
      expect(message).not.toContain('secret');
      expect(message).not.toMatch(/ff{16}/);
    }
  });
});

describe('node-held dev accounts', () => {
  it('are listed first, unlocked with no file, and sign out of the box', async () => {
    const stored = await manager.newAccount(PASSPHRASE);
    const addresses = manager.addNodeHeldKeys(DEV_ACCOUNTS.map((account) => bytesOf(account.privateKey)));
    expect(addresses.map(hexOf)).toEqual(DEV_ACCOUNTS.map((account) => account.address.toLowerCase()));
    expect((await manager.list()).map(hexOf)).toEqual([...addresses.map(hexOf), hexOf(stored)]);
    expect(await readdir(keystoreDirOf(datadir))).toHaveLength(1); // only the stored account's file

    const first = addresses[0];
    expect(manager.isUnlocked(first)).toBe(true);
    const tx = manager.signTransaction(
      first,
      { nonce: 0n, gasPrice: 1n, gasLimit: 21_000n, to: addresses[1] },
      txRulesAt(dev, 1n),
    );
    expect(hexOf(tx.getSenderAddress().bytes)).toBe(hexOf(first));
    expect(verifyMessage('dev', hexOf(manager.signMessage(first, Buffer.from('dev'))))).toBe(DEV_ACCOUNTS[0].address);

    expect((await caughtAsync(manager.importRawKey(bytesOf(DEV_ACCOUNTS[0].privateKey), PASSPHRASE))).message).toBe(
      'account already exists',
    );
    expect(await manager.lock(first)).toBe(true);
    expect(manager.isUnlocked(first)).toBe(false);
    expect(await manager.unlock(first, '', 0)).toBe(true); // no passphrase of their own
    expect(manager.isUnlocked(first)).toBe(true);
  });
});
