import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOrCreateNodeKey, NodeKeyError, nodeIdOf } from '../../src/p2p/node-key.js';

const root = mkdtempSync(join(tmpdir(), 'svc-node-key-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `d${n++}`);

describe('loadOrCreateNodeKey', () => {
  it('creates <datadir>/node.key once (64 hex digits, mode 0600) and returns the same key afterwards', () => {
    const dir = freshDir();
    const key = loadOrCreateNodeKey(dir);
    expect(key.length).toBe(32);
    const file = join(dir, 'node.key');
    expect(readFileSync(file, 'utf8')).toBe(Buffer.from(key).toString('hex'));
    expect(readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateNodeKey(dir)).toEqual(key);
    // No temporary file is left behind.
    expect(readdirSync(dir)).toEqual(['node.key']);
    // Another datadir gets another identity.
    expect(loadOrCreateNodeKey(freshDir())).not.toEqual(key);
  });

  it('reads an existing key, tolerating a trailing newline and upper case', () => {
    const dir = freshDir();
    loadOrCreateNodeKey(dir);
    const hex = '49a7b37aa6f6645917e7b807e9d1c00d4fa71f18343b0d4122a4d2df64dd6fee';
    writeFileSync(join(dir, 'node.key'), hex.toUpperCase() + '\n');
    expect(Buffer.from(loadOrCreateNodeKey(dir)).toString('hex')).toBe(hex);
  });

  it('refuses a malformed file with an error naming it, and does not overwrite it', () => {
    const dir = freshDir();
    loadOrCreateNodeKey(dir);
    const file = join(dir, 'node.key');
    for (const bad of ['', 'abc', 'zz'.repeat(32), '0x' + 'ab'.repeat(32), 'ab'.repeat(33)]) {
      writeFileSync(file, bad);
      expect(() => loadOrCreateNodeKey(dir)).toThrow(NodeKeyError);
      expect(() => loadOrCreateNodeKey(dir)).toThrow(/node\.key must hold exactly 64 hex digits/);
      expect(readFileSync(file, 'utf8')).toBe(bad);
    }
    // 64 hex digits but not a private key: zero, and the curve order n.
    for (const bad of ['00'.repeat(32), 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141']) {
      writeFileSync(file, bad);
      expect(() => loadOrCreateNodeKey(dir)).toThrow(/not a valid secp256k1 private key/);
    }
  });
});

describe('nodeIdOf', () => {
  it('is the 64-byte uncompressed public key without 0x04 (known vector)', () => {
    // Private key 1 → the generator point G.
    const one = new Uint8Array(32);
    one[31] = 1;
    expect(Buffer.from(nodeIdOf(one)).toString('hex')).toBe(
      '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798' +
        '483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8',
    );
  });
});
