/**
 * The peer blacklist: IP addresses and node ids that may not connect, each until an expiry time or for good. It is
 * kept in `<datadir>/blacklist.json` so that bans survive a restart; every change rewrites the file atomically.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { isIP, isIPv4 } from 'node:net';
import { dirname } from 'node:path';
import { PeerInputError, type BlacklistEntry } from './types.js';

const FILE_VERSION = 1;
const NODE_ID = /^(0x)?[0-9a-fA-F]{128}$/;
const IPV4_MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * One spelling per address, so a ban matches however the socket reports it: brackets and IPv6 zone dropped,
 * IPv6 in its canonical compressed lowercase form, and IPv4-mapped IPv6 (`::ffff:127.0.0.1`, how a dual-stack
 * listener reports IPv4 peers) turned into plain IPv4. Anything that is not an IP address comes back trimmed and
 * lowercased (host names).
 */
export function normaliseIp(ip: string): string {
  let text = ip.trim().toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0 && isIP(text.slice(0, zone)) === 6) text = text.slice(0, zone);
  if (isIPv4(text)) return text;
  if (isIP(text) !== 6) return text;
  // The WHATWG URL parser prints IPv6 in canonical form (RFC 5952), embedded IPv4 as two hex groups.
  const canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const mapped = IPV4_MAPPED.exec(canonical);
  if (mapped !== null) {
    const hi = parseInt(mapped[1]!, 16);
    const lo = parseInt(mapped[2]!, 16);
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return canonical;
}

/** The key an address is listed under: a normalised IP, or a node id as 128 lowercase hex digits; undefined if neither. */
export function blacklistKey(address: string): string | undefined {
  const text = address.trim();
  if (NODE_ID.test(text)) return text.replace(/^0x/, '').toLowerCase();
  const ip = normaliseIp(text);
  return isIP(ip) !== 0 ? ip : undefined;
}

function isEntry(value: unknown): value is BlacklistEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.id === 'string' &&
    typeof e.reason === 'string' &&
    typeof e.addedAt === 'number' &&
    Number.isFinite(e.addedAt) &&
    (e.expiresAt === null || (typeof e.expiresAt === 'number' && Number.isFinite(e.expiresAt)))
  );
}

export class Blacklist {
  readonly #entries = new Map<string, BlacklistEntry>();

  private constructor(
    readonly file: string,
    private readonly now: () => number,
  ) {}

  /** Reads `file` if present (a malformed file is refused with an error naming it, rather than silently lifting bans). */
  static open(file: string, now: () => number = Date.now): Blacklist {
    const list = new Blacklist(file, now);
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (text !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix or delete it`);
      }
      const entries = (parsed as { entries?: unknown } | null)?.entries;
      if (!Array.isArray(entries)) throw new Error(`${file} has no "entries" array; fix or delete it`);
      for (const [i, raw] of entries.entries()) {
        const key = isEntry(raw) ? blacklistKey(raw.id) : undefined;
        if (!isEntry(raw) || key === undefined)
          throw new Error(`${file}: entry ${i} is not {id, reason, addedAt, expiresAt}; fix or delete it`);
        list.#entries.set(key, { id: key, reason: raw.reason, addedAt: raw.addedAt, expiresAt: raw.expiresAt });
      }
    }
    return list;
  }

  /**
   * Lists `id` (an IP address or a node id) for `seconds`, or permanently for null; replaces an existing entry.
   * Throws PeerInputError for an id that is neither, or a duration that is not a positive number.
   */
  add(id: string, seconds: number | null, reason: string): BlacklistEntry {
    const key = blacklistKey(id);
    if (key === undefined) throw new PeerInputError(`"${id}" is neither an IP address nor a node id (128 hex digits)`);
    if (seconds !== null && !(Number.isFinite(seconds) && seconds > 0)) {
      throw new PeerInputError(
        `blacklist duration must be a positive number of seconds or null (permanent), got ${seconds}`,
      );
    }
    const addedAt = this.now();
    const entry: BlacklistEntry = {
      id: key,
      reason,
      addedAt,
      expiresAt: seconds === null ? null : addedAt + Math.round(seconds * 1000),
    };
    this.#entries.set(key, entry);
    this.#save();
    return entry;
  }

  /** false when nothing (still in force) was listed under that address. */
  remove(id: string): boolean {
    this.#prune();
    const key = blacklistKey(id);
    if (key === undefined || !this.#entries.delete(key)) return false;
    this.#save();
    return true;
  }

  /** The entry blocking this IP or node id (either may be undefined), if any and not expired. */
  blocking(ip: string | undefined, nodeId: string | undefined): BlacklistEntry | undefined {
    for (const address of [ip, nodeId]) {
      if (address === undefined) continue;
      const key = blacklistKey(address);
      const entry = key === undefined ? undefined : this.#entries.get(key);
      if (entry !== undefined && !this.#expired(entry)) return entry;
    }
    return undefined;
  }

  /** Entries in force, oldest first. */
  entries(): BlacklistEntry[] {
    this.#prune();
    return [...this.#entries.values()].sort((a, b) => a.addedAt - b.addedAt);
  }

  #expired(entry: BlacklistEntry): boolean {
    return entry.expiresAt !== null && entry.expiresAt <= this.now();
  }

  /** Expired entries are dropped from memory; the file catches up at the next change (a reload prunes them again). */
  #prune(): void {
    for (const [key, entry] of this.#entries) if (this.#expired(entry)) this.#entries.delete(key);
  }

  /** Temp file + fsync + rename: a crash leaves either the old list or the new one, never a torn file. */
  #save(): void {
    this.#prune();
    const body = JSON.stringify({ version: FILE_VERSION, entries: [...this.#entries.values()] }, null, 2) + '\n';
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    // A leftover temp file (a crash mid-write) is removed first, so the new one is created with mode 0600.
    rmSync(temp, { force: true });
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, body);
      fsyncSync(fd);
    } catch (err) {
      closeSync(fd);
      rmSync(temp, { force: true });
      throw err;
    }
    closeSync(fd);
    renameSync(temp, this.file);
  }
}
