/**
 * Accounts the node holds keys for: keystore accounts (encrypted at rest, usable while unlocked)
 * and node-held keys (the dev network's prefunded accounts: in memory, unlocked from the start).
 *
 * Security model: decrypted keys live only in memory, only while their account is unlocked (or for
 * the duration of one `withPassphrase` call), and are zeroed when dropped. Passphrases are used to
 * derive a key and then forgotten. Unlock state is never persisted, and nothing secret reaches an
 * error message. Addresses are 20-byte `Uint8Array`s, as everywhere in the engine.
 */
import type { Common } from '@ethereumjs/common';
import type { LegacyTx } from '@ethereumjs/tx';
import {
  AccountError,
  accountExists,
  accountLocked,
  invalidDuration,
  noKeyFound,
  passphraseTooShort,
} from './errors.js';
import { KeyedLock } from '../base/keyed-lock.js';
import { KeystoreDirectory } from './keystore-dir.js';
import { decryptKeystore, encryptKeystore, STANDARD_SCRYPT, type ScryptParams } from './keystore-v3.js';
import { addressFromKey, addressKey, addressOfPrivateKey, generatePrivateKey } from './keys.js';
import { signTypedData, type TypedDataPayload } from './typed-data.js';
import {
  recoverPersonalMessageSigner,
  signLegacyTransaction,
  signPersonalMessage,
  type UnsignedLegacyTx,
} from './signing.js';

export interface AccountManagerOptions {
  /** Usually `<datadir>/keystore`; created (mode 0700) on the first write. */
  readonly keystoreDir: string;
  /** Shortest passphrase accepted for new and imported accounts (reference: 7). */
  readonly minPassphraseLength?: number;
  /** The reference's `allow-no-passphrase` (default true): an empty passphrase is accepted despite the minimum. */
  readonly allowEmptyPassphrase?: boolean;
  /** Unlock duration when none is given (reference: 300 s). */
  readonly defaultUnlockSeconds?: number;
  /** KDF cost for new files; the standard geth cost unless a test wants faster files. */
  readonly scrypt?: ScryptParams;
}

/** Signs with one account's key. From `signerFor`, every call re-checks that the account is still unlocked. */
export interface AccountSigner {
  readonly address: Uint8Array;
  /** EIP-191 personal message signature, 65 bytes r ‖ s ‖ v (v = 27/28). */
  signMessage(message: Uint8Array): Uint8Array;
  /** A signed legacy EIP-155 transaction; `common` = the transaction rules of the target block (`txRulesAt`). */
  signTransaction(fields: UnsignedLegacyTx, common: Common): LegacyTx;
  /** EIP-712 typed data signature, 65 bytes r ‖ s ‖ v (v = 27/28); the digest is computed here, never taken. */
  signTypedData(payload: TypedDataPayload): Uint8Array;
}

// Deadlines use the global monotonic `performance.now()` (wall-clock jumps must not extend or cut an unlock).
interface UnlockedKey {
  readonly privateKey: Buffer;
  /** `performance.now()` deadline; null = until locked. */
  readonly expiresAt: number | null;
  timer?: NodeJS.Timeout;
}

export const DEFAULT_MIN_PASSPHRASE_LENGTH = 7;
export const DEFAULT_UNLOCK_SECONDS = 300;
// setTimeout fires at once for delays above 2^31-1 ms; longer unlocks re-arm in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;

export class AccountManager {
  readonly keystore: KeystoreDirectory;
  readonly #minPassphraseLength: number;
  readonly #allowEmptyPassphrase: boolean;
  readonly #defaultUnlockSeconds: number;
  readonly #scrypt: ScryptParams;
  /** address key → private key, for accounts without a keystore file. */
  readonly #nodeHeld = new Map<string, Buffer>();
  /** Imports in progress, by address (see #importOnce). */
  readonly #imports = new KeyedLock();
  readonly #unlocked = new Map<string, UnlockedKey>();

  constructor(options: AccountManagerOptions) {
    this.keystore = new KeystoreDirectory(options.keystoreDir);
    this.#minPassphraseLength = options.minPassphraseLength ?? DEFAULT_MIN_PASSPHRASE_LENGTH;
    this.#allowEmptyPassphrase = options.allowEmptyPassphrase ?? true;
    this.#defaultUnlockSeconds = options.defaultUnlockSeconds ?? DEFAULT_UNLOCK_SECONDS;
    this.#scrypt = options.scrypt ?? STANDARD_SCRYPT;
  }

  // ---- creating accounts ------------------------------------------------------------------------

  /** Creates a key, stores it encrypted under `passphrase`, and returns its address. */
  async newAccount(passphrase: string): Promise<Uint8Array> {
    this.#checkNewPassphrase(passphrase);
    const privateKey = generatePrivateKey();
    try {
      return await this.#store(privateKey, passphrase);
    } finally {
      privateKey.fill(0);
    }
  }

  /** Stores an existing 32-byte key; "account already exists" if the node already holds its address. */
  async importRawKey(privateKey: Uint8Array, passphrase: string): Promise<Uint8Array> {
    this.#checkNewPassphrase(passphrase);
    const address = addressOfPrivateKey(privateKey); // validates the key
    return this.#importOnce(addressKey(address), () => this.#store(privateKey, passphrase));
  }

  /**
   * Imports a v3 keystore file written elsewhere (geth, ethers, MetaMask export) as is, keeping its
   * KDF. The passphrase proves the file is whole and yields the true address.
   */
  async importKeystoreJson(json: string | object, passphrase: string): Promise<Uint8Array> {
    let parsed: unknown = json;
    if (typeof json === 'string') {
      try {
        parsed = JSON.parse(json);
      } catch {
        throw new AccountError('bad-keystore-file', 'Unsupported keystore file: not valid JSON');
      }
    }
    const { address, privateKey } = await decryptKeystore(parsed, passphrase);
    privateKey.fill(0);
    const key = addressKey(address);
    await this.#importOnce(key, () =>
      this.keystore.write({ ...(parsed as Record<string, unknown>), address: key }, key),
    );
    return address;
  }

  /**
   * Makes keys node-held: listed, unlocked until explicitly locked, no keystore file, no passphrase.
   * For the dev network's public test keys only. Returns their addresses.
   */
  addNodeHeldKeys(privateKeys: Iterable<Uint8Array>): Uint8Array[] {
    const addresses: Uint8Array[] = [];
    for (const privateKey of privateKeys) {
      const address = addressOfPrivateKey(privateKey);
      const key = addressKey(address);
      if (!this.#nodeHeld.has(key)) {
        this.#nodeHeld.set(key, Buffer.from(privateKey));
        this.#setUnlocked(key, Buffer.from(privateKey), null);
      }
      addresses.push(address);
    }
    return addresses;
  }

  // ---- listing -------------------------------------------------------------------------------------

  /** Node-held accounts in the order added, then keystore accounts by file name (creation time). */
  async list(): Promise<Uint8Array[]> {
    const keys = new Set(this.#nodeHeld.keys());
    for (const entry of await this.keystore.entries()) keys.add(entry.address);
    return [...keys].map(addressFromKey);
  }

  async has(address: Uint8Array): Promise<boolean> {
    return this.#knows(addressKey(address));
  }

  // ---- lock state ------------------------------------------------------------------------------------

  /**
   * Decrypts the account's key and keeps it for `durationSeconds` (undefined/null: the default 300 s;
   * 0: until `lock`). False for a wrong passphrase (the state is left as it was); "No key found for
   * the given address" for an account the node does not hold. Node-held keys have no passphrase.
   */
  async unlock(address: Uint8Array, passphrase: string, durationSeconds?: number | null): Promise<boolean> {
    const seconds = durationSeconds ?? this.#defaultUnlockSeconds;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) throw invalidDuration();
    const key = addressKey(address);
    let privateKey: Buffer;
    try {
      privateKey = await this.#decrypt(key, passphrase);
    } catch (error) {
      if (error instanceof AccountError && error.kind === 'wrong-passphrase') return false;
      throw error;
    }
    this.#setUnlocked(key, privateKey, seconds === 0 ? null : performance.now() + seconds * 1000);
    return true;
  }

  /** Drops the decrypted key. True when the node holds the account (locked or not), false otherwise. */
  async lock(address: Uint8Array): Promise<boolean> {
    const key = addressKey(address);
    const wasUnlocked = this.#drop(key);
    return wasUnlocked || (await this.#knows(key));
  }

  isUnlocked(address: Uint8Array): boolean {
    return this.#liveKey(addressKey(address)) !== undefined;
  }

  /** Locks every account and cancels the relock timers (node shutdown). Node-held keys stay held. */
  lockAll(): void {
    for (const key of [...this.#unlocked.keys()]) this.#drop(key);
  }

  // ---- signing -------------------------------------------------------------------------------------

  /** A signer for an unlocked account; "account is locked or unknown" otherwise (also on each later use). */
  signerFor(address: Uint8Array): AccountSigner {
    const key = addressKey(address);
    if (this.#liveKey(key) === undefined) throw accountLocked();
    const currentKey = (): Buffer => {
      const privateKey = this.#liveKey(key);
      if (privateKey === undefined) throw accountLocked();
      return privateKey;
    };
    return signerOver(addressFromKey(key), currentKey);
  }

  /**
   * Runs `fn` with a signer whose key is decrypted with `passphrase` for this call only (personal_sign,
   * personal_sendTransaction): the key is zeroed when `fn` settles, whatever the lock state.
   * Throws "Could not decrypt key with given passphrase" / "No key found for the given address".
   */
  async withPassphrase<T>(
    address: Uint8Array,
    passphrase: string,
    fn: (signer: AccountSigner) => T | Promise<T>,
  ): Promise<T> {
    const key = addressKey(address);
    const privateKey = await this.#decrypt(key, passphrase);
    let active = true;
    const currentKey = (): Buffer => {
      if (!active) throw accountLocked();
      return privateKey;
    };
    try {
      return await fn(signerOver(addressFromKey(key), currentKey));
    } finally {
      active = false;
      privateKey.fill(0);
    }
  }

  /** eth_sign: EIP-191 signature by an unlocked account. */
  signMessage(address: Uint8Array, message: Uint8Array): Uint8Array {
    return this.signerFor(address).signMessage(message);
  }

  /** eth_sendTransaction: a signed legacy EIP-155 transaction from an unlocked account. */
  signTransaction(address: Uint8Array, fields: UnsignedLegacyTx, common: Common): LegacyTx {
    return this.signerFor(address).signTransaction(fields, common);
  }

  /** personal_ecRecover: the signer of an EIP-191 signature (r ‖ s ‖ v, v = 27/28). */
  ecRecover(message: Uint8Array, signature: Uint8Array): Uint8Array {
    return recoverPersonalMessageSigner(message, signature);
  }

  // ---- internals -----------------------------------------------------------------------------------

  #checkNewPassphrase(passphrase: string): void {
    if (passphrase.length === 0 && this.#allowEmptyPassphrase) return;
    if ([...passphrase].length < this.#minPassphraseLength) throw passphraseTooShort(this.#minPassphraseLength);
  }

  /**
   * Stores an imported key unless the node holds its address already ("account already exists"). Imports of one
   * address run one after another, so that of two at once (a batch, two clients) the second finds the first's file
   * instead of writing a second one or colliding with it on the file name.
   */
  #importOnce<T>(key: string, store: () => Promise<T>): Promise<T> {
    return this.#imports.run(key, async () => {
      if (await this.#knows(key)) throw accountExists();
      return store();
    });
  }

  async #knows(key: string): Promise<boolean> {
    return this.#nodeHeld.has(key) || (await this.keystore.find(key)) !== undefined;
  }

  async #store(privateKey: Uint8Array, passphrase: string): Promise<Uint8Array> {
    const json = await encryptKeystore(privateKey, passphrase, this.#scrypt);
    await this.keystore.write(json, json.address);
    return addressFromKey(json.address);
  }

  /** A fresh copy of the account's key: node-held without a passphrase, else decrypted from its file. */
  async #decrypt(key: string, passphrase: string): Promise<Buffer> {
    const held = this.#nodeHeld.get(key);
    if (held !== undefined) return Buffer.from(held);
    const entry = await this.keystore.find(key);
    if (entry === undefined) throw noKeyFound();
    const { privateKey } = await decryptKeystore(await this.keystore.readJson(entry), passphrase);
    return privateKey;
  }

  #setUnlocked(key: string, privateKey: Buffer, expiresAt: number | null): void {
    this.#drop(key);
    const state: UnlockedKey = { privateKey, expiresAt };
    this.#unlocked.set(key, state);
    if (expiresAt !== null) this.#armRelock(key, state);
  }

  #armRelock(key: string, state: UnlockedKey): void {
    const remaining = Math.max(0, (state.expiresAt ?? 0) - performance.now());
    state.timer = setTimeout(
      () => {
        if (this.#unlocked.get(key) !== state) return;
        if (performance.now() >= (state.expiresAt ?? 0)) this.#drop(key);
        else this.#armRelock(key, state);
      },
      Math.min(Math.ceil(remaining), MAX_TIMER_MS),
    );
    state.timer.unref(); // an unlocked account must not keep the process alive
  }

  /** The key if the account is unlocked now; relocks eagerly when the deadline passed before the timer ran. */
  #liveKey(key: string): Buffer | undefined {
    const state = this.#unlocked.get(key);
    if (state === undefined) return undefined;
    if (state.expiresAt !== null && performance.now() >= state.expiresAt) {
      this.#drop(key);
      return undefined;
    }
    return state.privateKey;
  }

  #drop(key: string): boolean {
    const state = this.#unlocked.get(key);
    if (state === undefined) return false;
    clearTimeout(state.timer);
    state.privateKey.fill(0);
    this.#unlocked.delete(key);
    return true;
  }
}

function signerOver(address: Uint8Array, currentKey: () => Buffer): AccountSigner {
  return {
    address,
    signMessage: (message) => signPersonalMessage(currentKey(), message),
    signTransaction: (fields, common) => signLegacyTransaction(currentKey(), fields, common),
    signTypedData: (payload) => signTypedData(currentKey(), payload),
  };
}
