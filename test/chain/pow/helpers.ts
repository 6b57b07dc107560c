/** Shared fixtures for the PoW tests: the ethereum/tests Ethash vectors and a persistent epoch-cache directory. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VECTORS_DIR } from '../../helpers/vectors-dir.js';

export interface EthashVector {
  readonly nonce: string;
  readonly mixHash: string;
  readonly header: string;
  readonly seed: string;
  readonly result: string;
  readonly cache_size: number;
  readonly full_size: number;
  readonly header_hash: string;
  readonly cache_hash: string;
}

export const vectors: Record<string, EthashVector> = JSON.parse(
  readFileSync(join(VECTORS_DIR, 'PoWTests/ethash_tests.json'), 'utf8'),
);

/** Built caches survive between runs here (git-ignored), so only the first run pays for the build. */
export const persistentCacheDir = fileURLToPath(new URL('../../.tmp/ethash-caches', import.meta.url));

export const fromHex = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
