/**
 * The native Ethash (native/ethash/*.c, a Node-API add-on): light hashimoto over a copy of the epoch cache in huge
 * pages, the parent reads of up to 16 hashes interleaved. WebAssembly cannot ask for huge pages, and its hashes wait
 * on memory for most of their time (see light.ts). The add-on is compiled on this machine with the system's C
 * compiler (`cc`, or $CC), for this CPU (-march=native), against Node-API's headers (the node-api-headers package,
 * else those beside Node): by `node bin/build.js` (what `npm ci` runs as `prepare`), or here on first use when no
 * build for these sources and this CPU exists yet. When it cannot be built or loaded the WebAssembly path runs,
 * with one warning saying why; SVC_ETHASH_NATIVE=0, or `setEthashNativeEnabled(false)`, turns it off.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';

/** An epoch cache bound to the add-on: its copy, shared by every thread of the process that binds the same cache. */
export type NativeCache = { readonly __nativeEthashCache: unique symbol };

export interface NativeEthash {
  /** Copies the cache (whole 64-byte items) into huge pages, or finds the copy another thread made of it. */
  bind(cache: Uint32Array): NativeCache;
  /** Hashes `input.length / 40` (pow hash, nonce as little-endian u64) into `output` (mix digest, result: 64 each). */
  hash(cache: NativeCache, pages: number, lanes: number, input: Uint8Array, output: Uint8Array): void;
  /** KiB of the copy's mapping that the kernel backs with huge pages. */
  hugePages(cache: NativeCache): number;
  /** Live copies of caches of `bytes` bytes in this process, whichever threads bound them. */
  copies(bytes: number): number;
}

/** Hashes one native call interleaves at most (native/ethash/hashimoto.h). */
export const NATIVE_MAX_LANES = 16;

// From src/chain/pow/ and from dist/chain/pow/ (the bundle keeps its modules' dist URLs) alike.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const sourceDir = join(root, 'native', 'ethash');
const SOURCES = ['hashimoto.h', 'hashimoto.c', 'addon.c'];
const FLAGS = ['-O3', '-march=native', '-fPIC', '-shared', '-std=gnu11'];

let enabled = process.env.SVC_ETHASH_NATIVE !== '0';
let loaded: NativeEthash | null | undefined;
let why: string | undefined;

/** Turns the native path on or off for this thread (tests compare it with the other paths). */
export function setEthashNativeEnabled(on: boolean): void {
  enabled = on;
}

/** The add-on, or undefined when it is off, or cannot be built or loaded here (`nativeEthashProblem` says why). */
export function ethashNative(): NativeEthash | undefined {
  if (!enabled) return undefined;
  if (loaded === undefined) {
    try {
      const require = createRequire(import.meta.url);
      loaded = require(buildNativeEthash().path) as NativeEthash;
    } catch (error) {
      loaded = null;
      why = (error as Error).message;
      process.emitWarning(`native Ethash unavailable, WebAssembly runs instead: ${why}`, { code: 'SVC_ETHASH_NATIVE' });
    }
  }
  return loaded ?? undefined;
}

/** Why the add-on could not be built or loaded in this thread, if it could not. */
export function nativeEthashProblem(): string | undefined {
  return why;
}

/** The headers' folder holding node_api.h: the node-api-headers package first, else the ones installed with Node. */
function nodeApiHeaders(): string | undefined {
  const candidates: string[] = [];
  try {
    const pkg = createRequire(import.meta.url).resolve('node-api-headers/package.json');
    candidates.push(join(dirname(pkg), 'include'));
  } catch {
    // not installed (an install without dependencies' files): Node's own headers may be there
  }
  candidates.push(join(dirname(process.execPath), '..', 'include', 'node'), '/usr/include/node');
  return candidates.find((dir) => existsSync(join(dir, 'node_api.h')));
}

/** Folders a build may live in: the checkout's (or package's) own build/, else the user's cache. */
function buildDirs(): string[] {
  const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return [join(root, 'build', 'native'), join(cacheHome, 'svc-node', 'native')];
}

/**
 * The add-on's path, compiled first (`built`) if no build of these sources for this compiler, CPU and platform exists
 * (the name carries their hash: a stale build is never loaded, and one built for another CPU is not picked up).
 * Throws with the reason when it cannot be built.
 */
export function buildNativeEthash(): { path: string; built: boolean } {
  if (process.platform === 'win32') throw new Error('no build for Windows (the add-on needs a C compiler and cc)');
  const compiler = process.env.CC || 'cc';
  const hash = createHash('sha256');
  for (const file of SOURCES) hash.update(readFileSync(join(sourceDir, file)));
  hash.update([compiler, ...FLAGS, process.platform, process.arch, cpus()[0]?.model ?? ''].join('\0'));
  const name = `ethash-${hash.digest('hex').slice(0, 16)}.node`;
  const dirs = buildDirs();
  for (const dir of dirs) if (existsSync(join(dir, name))) return { path: join(dir, name), built: false };

  const headers = nodeApiHeaders();
  if (headers === undefined) throw new Error('no Node-API headers (node_api.h): install node-api-headers');
  const dir = dirs.find(writable);
  if (dir === undefined) throw new Error(`no writable folder for the build (${dirs.join(', ')})`);
  const out = join(dir, name);
  const partial = `${out}.${process.pid}-${threadId}.partial`;
  const platformFlags = process.platform === 'darwin' ? ['-undefined', 'dynamic_lookup'] : [];
  const args = [...FLAGS, ...platformFlags, '-I', headers, '-o', partial, join(sourceDir, 'hashimoto.c')];
  args.push(join(sourceDir, 'addon.c'));
  try {
    // Node-API's symbols stay unresolved in the library: the node binary that loads it provides them.
    execFileSync(compiler, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
    // Renamed into place: threads or processes building at once never load a half-written file.
    renameSync(partial, out);
  } catch (error) {
    rmSync(partial, { force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`${compiler} failed: ${stderr || (error as Error).message}`.slice(0, 2000));
  }
  if (dir === dirs[0]) pruneOlderBuilds(dir, name);
  return { path: out, built: true };
}

/** Builds of earlier sources in the checkout's own folder (never the shared cache, where other versions' live). */
function pruneOlderBuilds(dir: string, keep: string): void {
  for (const file of readdirSync(dir))
    if (/^ethash-[0-9a-f]{16}\.node$/.test(file) && file !== keep) rmSync(join(dir, file), { force: true });
}

function writable(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
