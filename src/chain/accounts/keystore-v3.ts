/**
 * Web3 Secret Storage v3 (the geth/ethers keystore JSON): encrypting a private key under a
 * passphrase and decrypting it again. The format is the published one, byte for byte:
 *   derived = KDF(passphrase, salt)            scrypt (what we write) or pbkdf2-hmac-sha256 (read only)
 *   ciphertext = AES-128-CTR(derived[0..16], iv, privateKey)
 *   mac = keccak256(derived[16..32] ‖ ciphertext)
 * The KDF runs on libuv's thread pool (node:crypto's native scrypt/pbkdf2), so a 1.4 s key
 * derivation does not stall the RPC event loop.
 */
import {
  createCipheriv,
  createDecipheriv,
  pbkdf2,
  randomBytes,
  randomUUID,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { scrypt as wasmScrypt } from 'hash-wasm';
import { keccak256 } from '../base/crypto.js';
import { badKeystoreFile, wrongPassphrase } from './errors.js';
import { addressKey, addressOfPrivateKey, assertValidPrivateKey } from './keys.js';

export interface ScryptParams {
  readonly n: number;
  readonly r: number;
  readonly p: number;
  readonly dklen: number;
}

/** geth's StandardScryptN/P: what new accounts get unless the operator asks otherwise. */
export const STANDARD_SCRYPT: ScryptParams = { n: 262144, r: 8, p: 1, dklen: 32 };
/** geth's LightScryptN/P: for tests and throwaway dev keystores only. */
export const LIGHT_SCRYPT: ScryptParams = { n: 4096, r: 8, p: 6, dklen: 32 };

/** The JSON we write (geth's layout: lowercase `crypto`, address without 0x). */
export interface KeystoreV3Json {
  readonly address: string;
  readonly crypto: {
    readonly cipher: 'aes-128-ctr';
    readonly ciphertext: string;
    readonly cipherparams: { readonly iv: string };
    readonly kdf: 'scrypt';
    readonly kdfparams: {
      readonly dklen: number;
      readonly n: number;
      readonly p: number;
      readonly r: number;
      readonly salt: string;
    };
    readonly mac: string;
  };
  readonly id: string;
  readonly version: 3;
}

type KdfSpec =
  | { readonly kdf: 'scrypt'; readonly salt: Buffer; readonly params: ScryptParams }
  | { readonly kdf: 'pbkdf2'; readonly salt: Buffer; readonly iterations: number; readonly dklen: number };

/** A structurally valid keystore file, not yet decrypted. */
export interface ParsedKeystore {
  /** Lowercase hex without 0x, when the file states it (geth and ethers always do). */
  readonly address?: string;
  readonly ciphertext: Buffer;
  readonly iv: Buffer;
  readonly mac: Buffer;
  readonly kdf: KdfSpec;
}

// scrypt needs 128·N·r bytes; refuse files that would make us allocate more than this.
const MAX_SCRYPT_MEMORY = 1024 * 1024 * 1024;
const MAX_PBKDF2_ITERATIONS = 10_000_000;

function scryptAsync(passphrase: Buffer, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // OpenSSL enforces RFC 7914's N < 2^(16·r); geth does not, and files such as the specification's own
  // scrypt test vector (n = 2^18, r = 1) break it. Those rare files go to hash-wasm's scrypt instead.
  if (params.r < 16 && params.n >= 2 ** (16 * params.r)) return wasmScryptBuffer(passphrase, salt, params);
  const maxmem = 128 * params.n * params.r + 128 * params.r * params.p + 16 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(passphrase, salt, params.dklen, { N: params.n, r: params.r, p: params.p, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

async function wasmScryptBuffer(passphrase: Buffer, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const key = await wasmScrypt({
    password: passphrase,
    salt,
    costFactor: params.n,
    blockSize: params.r,
    parallelism: params.p,
    hashLength: params.dklen,
    outputType: 'binary',
  });
  const copy = Buffer.from(key); // own the bytes so the caller's fill(0) cannot miss a second copy
  key.fill(0);
  return copy;
}

function pbkdf2Async(passphrase: Buffer, salt: Buffer, iterations: number, dklen: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    pbkdf2(passphrase, salt, iterations, dklen, 'sha256', (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function deriveKey(passphrase: Buffer, kdf: KdfSpec): Promise<Buffer> {
  return kdf.kdf === 'scrypt'
    ? scryptAsync(passphrase, kdf.salt, kdf.params)
    : pbkdf2Async(passphrase, kdf.salt, kdf.iterations, kdf.dklen);
}

function macOf(derivedKey: Buffer, ciphertext: Buffer): Buffer {
  return Buffer.from(keccak256(Buffer.concat([derivedKey.subarray(16, 32), ciphertext])));
}

function aes128Ctr(derivedKey: Buffer, iv: Buffer, input: Buffer, direction: 'encrypt' | 'decrypt'): Buffer {
  const key = derivedKey.subarray(0, 16);
  const cipher =
    direction === 'encrypt' ? createCipheriv('aes-128-ctr', key, iv) : createDecipheriv('aes-128-ctr', key, iv);
  return Buffer.concat([cipher.update(input), cipher.final()]);
}

function checkScryptParams(params: ScryptParams): void {
  const { n, r, p, dklen } = params;
  const isPositiveInt = (v: number) => Number.isSafeInteger(v) && v > 0;
  if (!isPositiveInt(n) || n < 2 || (n & (n - 1)) !== 0) throw badKeystoreFile('scrypt n must be a power of two');
  if (!isPositiveInt(r) || !isPositiveInt(p)) throw badKeystoreFile('scrypt r and p must be positive integers');
  if (!isPositiveInt(dklen) || dklen < 32) throw badKeystoreFile('derived key length must be at least 32');
  if (128 * n * r > MAX_SCRYPT_MEMORY || r * p >= 2 ** 30) throw badKeystoreFile('scrypt parameters too large');
}

/** Encrypts `privateKey` into a new v3 keystore object. The caller keeps ownership of `privateKey`. */
export async function encryptKeystore(
  privateKey: Uint8Array,
  passphrase: string,
  params: ScryptParams = STANDARD_SCRYPT,
): Promise<KeystoreV3Json> {
  checkScryptParams(params);
  const address = addressOfPrivateKey(privateKey);
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  // ethers derives from the NFKC form; writing it makes our files open in ethers for any passphrase.
  const passphraseBytes = Buffer.from(passphrase.normalize('NFKC'), 'utf8');
  const derived = await scryptAsync(passphraseBytes, salt, params);
  passphraseBytes.fill(0);
  try {
    const ciphertext = aes128Ctr(derived, iv, Buffer.from(privateKey), 'encrypt');
    return {
      address: addressKey(address),
      crypto: {
        cipher: 'aes-128-ctr',
        ciphertext: ciphertext.toString('hex'),
        cipherparams: { iv: iv.toString('hex') },
        kdf: 'scrypt',
        kdfparams: { dklen: params.dklen, n: params.n, p: params.p, r: params.r, salt: salt.toString('hex') },
        mac: macOf(derived, ciphertext).toString('hex'),
      },
      id: randomUUID(),
      version: 3,
    };
  } finally {
    derived.fill(0);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function hexField(value: unknown, field: string, expectedLength?: number): Buffer {
  if (typeof value !== 'string') throw badKeystoreFile(`${field} must be a hex string`);
  const hex = value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value;
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw badKeystoreFile(`${field} must be a hex string`);
  const bytes = Buffer.from(hex, 'hex');
  if (expectedLength !== undefined && bytes.length !== expectedLength) {
    throw badKeystoreFile(`${field} must be ${expectedLength} bytes`);
  }
  return bytes;
}

function intField(record: Record<string, unknown>, field: string): number {
  const value = record[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw badKeystoreFile(`${field} must be an integer`);
  return value;
}

/** geth writes `crypto`, old Mist/ethers files `Crypto`: look the key up without regard to case. */
function cryptoSection(json: Record<string, unknown>): Record<string, unknown> {
  const key = Object.keys(json).find((k) => k.toLowerCase() === 'crypto');
  const section = key === undefined ? undefined : json[key];
  if (!isRecord(section)) throw badKeystoreFile('missing crypto section');
  return section;
}

function parseKdf(crypto: Record<string, unknown>): KdfSpec {
  const params = crypto.kdfparams;
  if (!isRecord(params)) throw badKeystoreFile('missing kdfparams');
  const salt = hexField(params.salt, 'salt');
  if (crypto.kdf === 'scrypt') {
    const scryptParams = {
      n: intField(params, 'n'),
      r: intField(params, 'r'),
      p: intField(params, 'p'),
      dklen: intField(params, 'dklen'),
    };
    checkScryptParams(scryptParams);
    return { kdf: 'scrypt', salt, params: scryptParams };
  }
  if (crypto.kdf === 'pbkdf2') {
    if (params.prf !== 'hmac-sha256') throw badKeystoreFile('pbkdf2 supports only prf hmac-sha256');
    const iterations = intField(params, 'c');
    const dklen = intField(params, 'dklen');
    if (iterations < 1 || iterations > MAX_PBKDF2_ITERATIONS)
      throw badKeystoreFile('pbkdf2 iteration count out of range');
    if (dklen < 32) throw badKeystoreFile('derived key length must be at least 32');
    return { kdf: 'pbkdf2', salt, iterations, dklen };
  }
  throw badKeystoreFile('kdf must be scrypt or pbkdf2');
}

/** Checks the structure of a keystore object (from JSON.parse) without decrypting it. */
export function parseKeystore(json: unknown): ParsedKeystore {
  if (!isRecord(json)) throw badKeystoreFile('not a JSON object');
  if (json.version !== 3) throw badKeystoreFile('version must be 3');
  const crypto = cryptoSection(json);
  if (crypto.cipher !== 'aes-128-ctr') throw badKeystoreFile('cipher must be aes-128-ctr');
  const cipherparams = crypto.cipherparams;
  if (!isRecord(cipherparams)) throw badKeystoreFile('missing cipherparams');
  let address: string | undefined;
  if (json.address !== undefined) address = hexField(json.address, 'address', 20).toString('hex');
  return {
    address,
    ciphertext: hexField(crypto.ciphertext, 'ciphertext'),
    iv: hexField(cipherparams.iv, 'iv', 16),
    mac: hexField(crypto.mac, 'mac', 32),
    kdf: parseKdf(crypto),
  };
}

/**
 * The passphrase as geth uses it (raw UTF-8) and, when it differs, as ethers uses it (NFKC), so
 * files from either tool open.
 */
function passphraseCandidates(passphrase: string): Buffer[] {
  const normalized = passphrase.normalize('NFKC');
  const raw = Buffer.from(passphrase, 'utf8');
  return normalized === passphrase ? [raw] : [raw, Buffer.from(normalized, 'utf8')];
}

export interface DecryptedKey {
  readonly address: Uint8Array;
  /** The caller owns this buffer and should `fill(0)` it when done. */
  readonly privateKey: Buffer;
}

/**
 * Decrypts a keystore object. A wrong passphrase throws `wrongPassphrase()`; a malformed file or
 * one whose key does not match its stated address throws `badKeystoreFile(...)`.
 */
export async function decryptKeystore(json: unknown, passphrase: string): Promise<DecryptedKey> {
  const keystore = parseKeystore(json);
  const candidates = passphraseCandidates(passphrase);
  try {
    for (const candidate of candidates) {
      const derived = await deriveKey(candidate, keystore.kdf);
      try {
        if (!timingSafeEqual(macOf(derived, keystore.ciphertext), keystore.mac)) continue;
        const privateKey = aes128Ctr(derived, keystore.iv, keystore.ciphertext, 'decrypt');
        try {
          assertValidPrivateKey(privateKey);
        } catch {
          privateKey.fill(0);
          throw badKeystoreFile('decrypted key is not a valid secp256k1 private key');
        }
        const address = addressOfPrivateKey(privateKey);
        if (keystore.address !== undefined && addressKey(address) !== keystore.address) {
          privateKey.fill(0);
          throw badKeystoreFile('key does not match the address of the file');
        }
        return { address, privateKey };
      } finally {
        derived.fill(0);
      }
    }
  } finally {
    for (const candidate of candidates) candidate.fill(0);
  }
  throw wrongPassphrase();
}
