/**
 * The `<datadir>/keystore/` directory: one v3 JSON file per account, named like geth names them so
 * the directory can be shared with geth, clef or ethers tooling. Files are written atomically
 * (temp file, fsync, rename) and readable by the owner only.
 */
import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { badKeystoreFile } from './errors.js';
import type { KeystoreV3Json } from './keystore-v3.js';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
// Keystore files are ~500 bytes; anything far larger is not one of ours and is not read.
const MAX_FILE_BYTES = 64 * 1024;
const ADDRESS_SUFFIX = /--([0-9a-fA-F]{40})$/;

export interface KeystoreEntry {
  /** Lowercase hex without 0x. */
  readonly address: string;
  readonly fileName: string;
  readonly path: string;
}

/** `UTC--2024-05-01T10-20-30.123000000Z--<address>`: geth's layout (ISO 8601 with '-' for ':', nanosecond field). */
export function keystoreFileName(address: string, time: Date): string {
  const iso = time.toISOString(); // 2024-05-01T10:20:30.123Z
  const withNanos = `${iso.slice(0, -1)}000000Z`;
  return `UTC--${withNanos.replaceAll(':', '-')}--${address.toLowerCase()}`;
}

/** geth skips editor backups, dotfiles and its own temp files; so do we. */
function isCandidateName(name: string): boolean {
  return !name.startsWith('.') && !name.endsWith('~') && !name.endsWith('.tmp');
}

/** The stated `address` of a keystore JSON, else the one in its file name; undefined if it is not keystore JSON. */
function addressOfFile(fileName: string, text: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const stated = (json as { address?: unknown }).address;
  if (typeof stated === 'string') {
    const hex = stated.replace(/^0x/i, '');
    if (/^[0-9a-fA-F]{40}$/.test(hex)) return hex.toLowerCase();
  }
  return ADDRESS_SUFFIX.exec(fileName)?.[1]?.toLowerCase();
}

export class KeystoreDirectory {
  // File name → address (or null: not a keystore file). Names are immutable in practice (geth and
  // we only ever create and delete), so a file is parsed once per process.
  readonly #known = new Map<string, string | null>();

  constructor(readonly dir: string) {}

  /** Creates the directory owner-only if it does not exist; an existing one keeps its mode. */
  async ensure(): Promise<void> {
    const created = await mkdir(this.dir, { recursive: true, mode: DIR_MODE });
    if (created !== undefined) await chmod(this.dir, DIR_MODE);
  }

  /** Every account file, ordered by file name (geth's order: creation time for files it names). */
  async entries(): Promise<KeystoreEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    names = names.filter(isCandidateName).sort();
    const present = new Set(names);
    for (const name of this.#known.keys()) if (!present.has(name)) this.#known.delete(name);

    const entries: KeystoreEntry[] = [];
    for (const fileName of names) {
      let address = this.#known.get(fileName);
      if (address === undefined) {
        address = await this.#scan(fileName);
        this.#known.set(fileName, address);
      }
      if (address !== null) entries.push({ address, fileName, path: join(this.dir, fileName) });
    }
    return entries;
  }

  async #scan(fileName: string): Promise<string | null> {
    const path = join(this.dir, fileName);
    try {
      const info = await stat(path);
      if (!info.isFile() || info.size > MAX_FILE_BYTES) return null;
      return addressOfFile(fileName, await readFile(path, 'utf8')) ?? null;
    } catch {
      return null;
    }
  }

  /** The first file (by name) holding `address`. */
  async find(address: string): Promise<KeystoreEntry | undefined> {
    return (await this.entries()).find((entry) => entry.address === address);
  }

  async readJson(entry: KeystoreEntry): Promise<unknown> {
    const text = await readFile(entry.path, 'utf8');
    try {
      return JSON.parse(text);
    } catch {
      throw badKeystoreFile('not valid JSON');
    }
  }

  /** Writes `keystore` as a new file; never overwrites. Returns the entry. */
  async write(
    keystore: KeystoreV3Json | Record<string, unknown>,
    address: string,
    time = new Date(),
  ): Promise<KeystoreEntry> {
    await this.ensure();
    const fileName = keystoreFileName(address, time);
    const path = join(this.dir, fileName);
    const tempPath = join(this.dir, `.${fileName}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(tempPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, FILE_MODE);
    try {
      try {
        await handle.writeFile(JSON.stringify(keystore), 'utf8');
        await handle.chmod(FILE_MODE); // the umask may have narrowed it already; make it exact
        await handle.sync();
      } finally {
        await handle.close();
      }
      await assertAbsent(path);
      await rename(tempPath, path);
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
    await syncDirectory(this.dir);
    this.#known.set(fileName, address);
    return { address, fileName, path };
  }
}

async function assertAbsent(path: string): Promise<void> {
  try {
    await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  throw new Error('keystore file name collision');
}

/** Makes the rename durable across a crash (best effort: not every platform lets a directory be fsynced). */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // not supported here; the rename itself is still atomic
  }
}
