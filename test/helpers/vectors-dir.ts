/**
 * Where Ethereum's test vectors and the real ETC chain's era1 file are: SVC_VECTORS_DIR when set, else
 * `../shared/vectors` beside the repository (the workplace's layout), else the workplace's own copy at
 * /work/shared/vectors, so a clone made anywhere else on this machine finds them too.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

function vectorsDir(): string {
  const configured = process.env.SVC_VECTORS_DIR;
  if (configured !== undefined) return configured;
  const beside = join(repoRoot, '../shared/vectors');
  return existsSync(beside) ? beside : '/work/shared/vectors';
}

export const VECTORS_DIR = vectorsDir();

/** The first 8,192 blocks of the ETC chain (epoch 0). */
export const ERA1_EPOCH0 = join(VECTORS_DIR, 'realchain/mainnet-00000-5ec1ffb8.era1');
