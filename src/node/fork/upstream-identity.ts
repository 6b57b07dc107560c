/**
 * What an upstream URL said it is (chain id and genesis hash), remembered in the fork cache, so a new fork datadir
 * whose URL was met before asks the upstream nothing at start (a fork cache directory is named by them). Anvil names
 * its fork caches by a hash of the URL too: a URL may carry an API key (in its path, query or user info), so the file
 * is named by the URL's SHA-256 and holds only the host, never the URL.
 *
 * A remembered identity may be out of date (the URL now serves another chain): the upstream client checks it in the
 * first request it really sends (upstream-client.ts), and a mismatch forgets it here.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NetworkName } from '../../chain/index.js';
import type { ForkCacheConfig } from './fork-config.js';

export interface UpstreamRecord {
  readonly network: NetworkName;
  readonly chainId: string;
  readonly genesisHash: string;
}

const DIR = 'upstreams';

/** The remembered identities' directory under a fork cache root (fork-cache.ts skips it: not a chain id). */
export const upstreamsDir = (config: ForkCacheConfig): string => join(config.dir, DIR);

const fileOf = (config: ForkCacheConfig, url: string): string =>
  join(upstreamsDir(config), `${createHash('sha256').update(url).digest('hex')}.json`);

/** What `url` answered before, if the cache is on and remembers it. */
export async function rememberedIdentity(config: ForkCacheConfig, url: string): Promise<UpstreamRecord | undefined> {
  if (config.maxBytes <= 0) return undefined;
  try {
    const kept = JSON.parse(await readFile(fileOf(config, url), 'utf8')) as Partial<UpstreamRecord>;
    const { network, chainId, genesisHash } = kept;
    if (typeof network !== 'string' || typeof chainId !== 'string' || typeof genesisHash !== 'string') return undefined;
    return { network, chainId, genesisHash };
  } catch {
    return undefined;
  }
}

/** Remembers what `url` answered (best effort: without it the next datadir only asks again). */
export async function rememberIdentity(config: ForkCacheConfig, url: string, record: UpstreamRecord): Promise<void> {
  if (config.maxBytes <= 0) return;
  const file = fileOf(config, url);
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    const kept = { ...record, host: new URL(url).host };
    await mkdir(upstreamsDir(config), { recursive: true });
    await writeFile(temporary, `${JSON.stringify(kept)}\n`);
    await rename(temporary, file);
  } catch {
    await rm(temporary, { force: true });
  }
}

/** Forgets what `url` answered: it answered otherwise since. */
export async function forgetIdentity(config: ForkCacheConfig, url: string): Promise<void> {
  await rm(fileOf(config, url), { force: true }).catch(() => undefined);
}
