/**
 * Builds signed EIP-1459 trees for tests: the TXT table (name → text) a DNS server serves, and the enrtree:// URL
 * naming it. Variants break it on purpose: a root signed by another key, or a branch that lists itself (a loop).
 */
import { createRequire } from 'node:module';
import { base32 } from '@scure/base';
import { keccak256 } from '../../src/chain/base/crypto.js';
import { entryHash } from '../../src/p2p/discovery/dns-tree.js';

const require = createRequire(import.meta.url);
const secp256k1 = require('secp256k1/bindings') as typeof import('secp256k1');

export interface Tree {
  readonly url: string;
  readonly txt: Map<string, string>;
}

const b32 = (bytes: Uint8Array) => base32.encode(bytes).replace(/=+$/, '');

export function treeUrl(key: Uint8Array, domain: string): string {
  return `enrtree://${b32(secp256k1.publicKeyCreate(key, true))}@${domain}`;
}

function signedRoot(signer: Uint8Array, eRoot: string, lRoot: string, seq: number): string {
  const text = `enrtree-root:v1 e=${eRoot} l=${lRoot} seq=${seq}`;
  const { signature, recid } = secp256k1.ecdsaSign(keccak256(Buffer.from(text)), signer);
  return `${text} sig=${Buffer.concat([signature, Buffer.of(recid)]).toString('base64url')}`;
}

/** A tree of `records` (enr: texts) under one branch, signed by `key` (or by `signer`, to forge a bad root). */
export function buildTree(
  key: Uint8Array,
  domain: string,
  records: readonly string[],
  options: { signer?: Uint8Array; loop?: boolean } = {},
): Tree {
  const txt = new Map<string, string>();
  const put = (text: string): string => {
    const hash = entryHash(text);
    txt.set(`${hash}.${domain}`, text);
    return hash;
  };
  const leaves = records.map(put);
  let eRoot = put(`enrtree-branch:${leaves.join(',')}`);
  if (options.loop) {
    // A branch that lists the branch above it: its own hash cannot match, but the walk must say "loop" first.
    const inner = `enrtree-branch:${eRoot}`;
    eRoot = put(`enrtree-branch:${put(inner)}`);
    txt.set(`${entryHash(inner)}.${domain}`, `enrtree-branch:${eRoot}`);
  }
  const lRoot = put('enrtree-branch:');
  txt.set(domain, signedRoot(options.signer ?? key, eRoot, lRoot, 1));
  return { url: treeUrl(key, domain), txt };
}
