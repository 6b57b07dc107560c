/**
 * The node's devp2p identity: a secp256k1 private key kept in `<datadir>/node.key` (64 hex digits, as geth's
 * `nodekey`), so the enode URL stays the same across restarts. Created once, readable by the owner only.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { generatePrivateKey } from '../chain/index.js';

const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');

export const NODE_KEY_FILE = 'node.key';

/** The key file exists but is not a usable key: the node refuses to start rather than silently change identity. */
export class NodeKeyError extends Error {
  override name = 'NodeKeyError';
}

/** `<datadir>/node.key`: 64 hex digits, created once with mode 0600 (and the file refused with a clear error if malformed). */
export function loadOrCreateNodeKey(datadir: string): Uint8Array {
  const file = join(datadir, NODE_KEY_FILE);
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (text !== undefined) return parseNodeKey(text, file);

  const key = generatePrivateKey();
  mkdirSync(datadir, { recursive: true });
  // Written to a temporary file first, so a crash never leaves a half-written key that the next start refuses.
  const temp = `${file}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, key.toString('hex'));
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(temp, file);
  return Uint8Array.from(key);
}

function parseNodeKey(text: string, file: string): Uint8Array {
  // A trailing newline (an editor, `echo >`) is tolerated; anything else is not.
  const hex = text.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new NodeKeyError(
      `${file} must hold exactly 64 hex digits (a secp256k1 private key), found ${hex.length} characters; fix or delete it (deleting gives the node a new identity)`,
    );
  }
  const key = Uint8Array.from(Buffer.from(hex, 'hex'));
  if (!secp256k1.privateKeyVerify(key)) {
    throw new NodeKeyError(
      `${file} is not a valid secp256k1 private key (zero or not below the curve order); fix or delete it`,
    );
  }
  return key;
}

/** 64-byte uncompressed public key without the 0x04 prefix: the node id of enode URLs. */
export function nodeIdOf(privateKey: Uint8Array): Uint8Array {
  return secp256k1.publicKeyCreate(privateKey, false).slice(1);
}
