/**
 * The fork cache: upstream answers (proofs, code, headers) kept outside any datadir, under
 * `<fork.cache-dir>/<upstream chain id>/<fork block>/`, so a second datadir forking the same upstream block reads them
 * from disk instead of asking again (as Anvil keeps one cache per chain and block).
 *
 * One small file per answer, written to a temporary name and renamed into place: a reader sees a whole answer or
 * none, and two nodes writing the same answer at once both leave a whole file (the same bytes: the engine checked
 * them against the fork block's state root). No lock and no database, so any number of nodes share a directory.
 * `meta.json` names the upstream's genesis: a directory of another chain with the same chain id (two local dev
 * chains) is left alone and the fork reads through to its upstream. Its modification time is the directory's last
 * use, which eviction goes by when the cache outgrows fork.cache-size (whole fork directories, least recently used
 * first, never one this process has open; if what is open alone is over the bound, nothing more is written).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ForkCacheConfig } from './fork-config.js';
import { upstreamsDir } from './upstream-identity.js';

/** Who the upstream is: a cache directory serves only the chain it was written for. */
export interface UpstreamIdentity {
  readonly chainId: string;
  readonly genesisHash: string;
}

interface Meta extends UpstreamIdentity {
  readonly block: string;
}

/** One fork directory as `svc-node fork-cache` lists it. */
export interface CachedFork {
  readonly chainId: string;
  readonly block: string;
  readonly entries: number;
  readonly bytes: number;
  readonly lastUsed: Date;
}

const META = 'meta.json';

export class ForkCache {
  /** Bytes under the root as this process knows them (other writers' additions show at the next count). */
  private used: Promise<number> | undefined;
  private readonly open = new Set<string>();
  private full = false;

  constructor(readonly config: ForkCacheConfig) {}

  get enabled(): boolean {
    return this.config.maxBytes > 0;
  }

  /** The directory for `block` of the upstream `who`; undefined when the cache is off or it holds another chain. */
  async forkDir(who: UpstreamIdentity, block: bigint): Promise<ForkCacheDir | undefined> {
    if (!this.enabled) return undefined;
    const dir = join(this.config.dir, who.chainId, block.toString());
    const meta: Meta = { chainId: who.chainId, genesisHash: who.genesisHash, block: block.toString() };
    try {
      const found = JSON.parse(await readFile(join(dir, META), 'utf8')) as Meta;
      if (found.genesisHash !== who.genesisHash) return undefined;
      const now = new Date();
      await utimes(join(dir, META), now, now);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
      await mkdir(dir, { recursive: true });
      if (!(await writeAtomically(dir, META, `${JSON.stringify(meta)}\n`))) return undefined;
    }
    this.open.add(dir);
    // Counted before this process writes, so its own entries are counted once, as they are added.
    this.used ??= sizeOf(this.config.dir);
    await this.used;
    return new ForkCacheDir(dir, this);
  }

  /** Counts a written entry; past the bound, evicts other forks, least recently used first. */
  async added(bytes: number): Promise<void> {
    // Chained, so concurrent writes each add to the total the previous one left.
    this.used = (this.used ?? sizeOf(this.config.dir)).then((before) => {
      const used = before + bytes;
      return used > this.config.maxBytes ? this.evict(used).catch(() => used) : used;
    });
    await this.used;
  }

  /** Whether new entries may still be written. */
  get writable(): boolean {
    return !this.full;
  }

  async list(): Promise<CachedFork[]> {
    const out: CachedFork[] = [];
    for (const dir of await forkDirs(this.config.dir)) {
      const { entries, bytes } = await countFiles(dir.path);
      out.push({ chainId: dir.chainId, block: dir.block, entries, bytes, lastUsed: dir.lastUsed });
    }
    return out.sort((a, b) => a.chainId.localeCompare(b.chainId) || Number(BigInt(a.block) - BigInt(b.block)));
  }

  /** Deletes the forks of `chainId` (and `block`), or every fork; the bytes freed. */
  async clear(chainId?: string, block?: string): Promise<{ forks: number; bytes: number }> {
    let forks = 0;
    let bytes = 0;
    for (const dir of await forkDirs(this.config.dir)) {
      if (chainId !== undefined && dir.chainId !== chainId) continue;
      if (block !== undefined && dir.block !== block) continue;
      bytes += await removeDir(this.config.dir, dir.path);
      forks++;
    }
    // Clearing everything forgets what the upstream URLs said they are too: the next fork asks again.
    if (chainId === undefined) await rm(upstreamsDir(this.config), { recursive: true, force: true });
    return { forks, bytes };
  }

  private async evict(used: number): Promise<number> {
    const victims = (await forkDirs(this.config.dir))
      .filter((d) => !this.open.has(d.path))
      .sort((a, b) => a.lastUsed.getTime() - b.lastUsed.getTime());
    for (const victim of victims) {
      if (used <= this.config.maxBytes) break;
      used -= await removeDir(this.config.dir, victim.path);
    }
    this.full = used > this.config.maxBytes;
    return used;
  }
}

/** One fork's answers: `read` a whole entry or nothing, `write` one atomically (best effort: a cache, not a store). */
export class ForkCacheDir {
  constructor(
    readonly path: string,
    private readonly cache: ForkCache,
  ) {}

  async read(name: string): Promise<Buffer | undefined> {
    try {
      return await readFile(join(this.path, name));
    } catch {
      return undefined;
    }
  }

  async write(name: string, bytes: Uint8Array | string): Promise<void> {
    if (!this.cache.writable) return;
    if (await writeAtomically(this.path, name, bytes)) await this.cache.added(Buffer.byteLength(bytes));
  }
}

/** Writes `name` in `dir` under a temporary name first, so no reader ever sees part of it; false if it failed. */
async function writeAtomically(dir: string, name: string, bytes: Uint8Array | string): Promise<boolean> {
  const temporary = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, join(dir, name));
    return true;
  } catch {
    // An evicted or cleared directory under a running fork: it keeps reading through to its upstream.
    await rm(temporary, { force: true });
    return false;
  }
}

interface ForkDirEntry {
  readonly path: string;
  readonly chainId: string;
  readonly block: string;
  readonly lastUsed: Date;
}

async function forkDirs(root: string): Promise<ForkDirEntry[]> {
  const out: ForkDirEntry[] = [];
  for (const chainId of await names(root)) {
    if (!/^\d+$/.test(chainId)) continue;
    for (const block of await names(join(root, chainId))) {
      if (!/^\d+$/.test(block)) continue;
      const path = join(root, chainId, block);
      const lastUsed = await stat(join(path, META)).then(
        (s) => s.mtime,
        () => new Date(0),
      );
      out.push({ path, chainId, block, lastUsed });
    }
  }
  return out;
}

/** Removes a fork directory: renamed away first, so a node reading it meets a missing entry, never half a one. */
async function removeDir(root: string, path: string): Promise<number> {
  const { bytes } = await countFiles(path);
  const trash = join(root, `.evicted-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await rename(path, trash);
  } catch {
    return 0;
  }
  await rm(trash, { recursive: true, force: true });
  return bytes;
}

async function countFiles(dir: string): Promise<{ entries: number; bytes: number }> {
  let entries = 0;
  let bytes = 0;
  for (const name of await names(dir)) {
    if (name === META || name.startsWith('.')) continue;
    const size = await stat(join(dir, name)).then(
      (s) => s.size,
      () => 0,
    );
    entries++;
    bytes += size;
  }
  return { entries, bytes };
}

async function sizeOf(root: string): Promise<number> {
  let total = 0;
  for (const dir of await forkDirs(root)) total += (await countFiles(dir.path)).bytes;
  return total;
}

async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
