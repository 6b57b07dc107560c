/**
 * The size of a directory tree on disk, walked only when asked (at a metrics scrape) and remembered for a while:
 * a mainnet datadir holds thousands of LevelDB files, too many to stat on every scrape and nothing worth
 * watching continuously.
 */
import { lstat, readdir } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';

/** Sum of the sizes of the regular files under `dir` (symbolic links are not followed); 0 when it does not exist. */
export async function directorySize(dir: string): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await directorySize(path);
    else if (entry.isFile()) {
      // A file may vanish between readdir and stat (LevelDB compaction): it simply no longer counts.
      total += await lstat(path).then(
        (s) => s.size,
        () => 0,
      );
    }
  }
  return total;
}

/**
 * `value()` resolves the directory's size: walked on the first call, then served from the last walk while a
 * fresh walk runs in the background once the last one is older than `maxAgeMs`. At most one walk at a time.
 */
export class CachedDirectorySize {
  #bytes: number | undefined;
  #measuredAt = 0;
  #walking: Promise<number> | undefined;

  constructor(
    readonly dir: string,
    private readonly maxAgeMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async value(): Promise<number> {
    if (this.#bytes === undefined) return this.#walk();
    if (this.now() - this.#measuredAt > this.maxAgeMs) void this.#walk();
    return this.#bytes;
  }

  #walk(): Promise<number> {
    this.#walking ??= directorySize(this.dir)
      .then((bytes) => {
        this.#bytes = bytes;
        this.#measuredAt = this.now();
        return bytes;
      })
      .finally(() => {
        this.#walking = undefined;
      });
    return this.#walking;
  }
}
