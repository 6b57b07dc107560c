/**
 * The native Ethash (native/ethash/*.c, a Node-API add-on): light hashimoto over a copy of the epoch cache in huge
 * pages, the parent reads of up to 16 hashes interleaved. WebAssembly cannot ask for huge pages, and its hashes wait
 * on memory for most of their time (see light.ts). The add-on is compiled on this machine with the system's C
 * compiler (`cc`, or $CC), for this CPU (-march=native), against Node-API's headers (the node-api-headers package,
 * else those beside Node): by `node bin/build.js` (what `npm ci` runs as `prepare`), or here in the background on
 * first use when no build for these sources and this CPU exists yet. When it cannot be built or loaded the WebAssembly path runs,
 * with one warning saying why; SVC_ETHASH_NATIVE=0, or `setEthashNativeEnabled(false)`, turns it off.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
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

/** A compile takes seconds (~4 s of CPU); past this it has hung. */
const COMPILE_TIMEOUT_MS = 120_000;
/** While a build is under way, how often a thread looks for its output. */
const LOOK_AGAIN_MS = 1000;

let enabled = process.env.SVC_ETHASH_NATIVE !== '0';
let loaded: NativeEthash | null | undefined;
let why: string | undefined;
/** Until then, a thread waiting for a build does not look for it (a hash must not pay a file lookup). */
let lookAgainAt = 0;

/** Turns the native path on or off for this thread (tests compare it with the other paths). */
export function setEthashNativeEnabled(on: boolean): void {
  enabled = on;
}

/**
 * The add-on, or undefined when it is off, cannot be built or loaded here (`nativeEthashProblem` says why), or is
 * still being compiled: a first use with no build compiles it in the background (seconds of a C compiler's time, the
 * event loop never waits for it), WebAssembly hashing meanwhile.
 */
export function ethashNative(): NativeEthash | undefined {
  if (!enabled) return undefined;
  if (loaded !== undefined) return loaded ?? undefined;
  if (Date.now() < lookAgainAt) return undefined;
  try {
    const plan = buildPlan();
    if (plan.existing !== undefined) {
      loaded = createRequire(import.meta.url)(plan.existing) as NativeEthash;
      return loaded;
    }
    lookAgainAt = Date.now() + LOOK_AGAIN_MS;
    compileInBackground(plan);
  } catch (error) {
    unavailable(error as Error);
  }
  return undefined;
}

function unavailable(error: Error): void {
  loaded = null;
  why = error.message;
  process.emitWarning(`native Ethash unavailable, WebAssembly runs instead: ${why}`, { code: 'SVC_ETHASH_NATIVE' });
}

/**
 * Compiles `plan` unless another thread or process holds its lock (then this one waits for its output, looking again
 * every LOOK_AGAIN_MS; a lock older than a compile can take is stale and taken over).
 */
function compileInBackground(plan: BuildPlan): void {
  const lock = `${plan.out}.lock`;
  try {
    closeSync(openSync(lock, 'wx'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Held by another thread or process; one older than a compile can take was left by a builder that died.
    const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (Date.now() - since > COMPILE_TIMEOUT_MS) rmSync(lock, { force: true });
    return;
  }
  execFile(plan.compiler, plan.args, { timeout: COMPILE_TIMEOUT_MS }, (error, _stdout, stderr) => {
    try {
      if (error !== null) throw compileError(plan.compiler, error, stderr);
      renameSync(plan.partial, plan.out);
      lookAgainAt = 0; // loaded on the next call
    } catch (failure) {
      unavailable(failure as Error);
    } finally {
      rmSync(plan.partial, { force: true });
      rmSync(lock, { force: true });
    }
  });
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

interface BuildPlan {
  /** The build of these sources for this compiler, CPU and platform, if one exists. */
  readonly existing?: string;
  readonly compiler: string;
  readonly args: readonly string[];
  /** Where the build goes, and the file it is written to first (renamed into place: never loaded half-written). */
  readonly out: string;
  readonly partial: string;
}

/**
 * Where the add-on is or goes and how to compile it. The file name carries a hash of the sources, the compiler, the
 * CPU and the platform: a stale build is never loaded, and one built for another CPU is not picked up. Throws when
 * it cannot be built here.
 */
function buildPlan(): BuildPlan {
  if (process.platform === 'win32') throw new Error('no build for Windows (the add-on needs a C compiler and cc)');
  const compiler = process.env.CC || 'cc';
  const hash = createHash('sha256');
  for (const file of SOURCES) hash.update(readFileSync(join(sourceDir, file)));
  hash.update([compiler, ...FLAGS, process.platform, process.arch, cpus()[0]?.model ?? ''].join('\0'));
  const name = `ethash-${hash.digest('hex').slice(0, 16)}.node`;
  const dirs = buildDirs();
  const existing = dirs.map((dir) => join(dir, name)).find((path) => existsSync(path));
  const headers = nodeApiHeaders();
  if (existing === undefined && headers === undefined)
    throw new Error('no Node-API headers (node_api.h): install node-api-headers');
  const dir = existing === undefined ? dirs.find(writable) : dirname(existing);
  if (dir === undefined) throw new Error(`no writable folder for the build (${dirs.join(', ')})`);
  const out = join(dir, name);
  const partial = `${out}.${process.pid}-${threadId}.partial`;
  // Node-API's symbols stay unresolved in the library: the node binary that loads it provides them.
  const platformFlags = process.platform === 'darwin' ? ['-undefined', 'dynamic_lookup'] : [];
  const sources = [join(sourceDir, 'hashimoto.c'), join(sourceDir, 'addon.c')];
  const args = [...FLAGS, ...platformFlags, '-I', headers ?? '', '-o', partial, ...sources];
  return { existing, compiler, args, out, partial };
}

function compileError(compiler: string, error: Error, stderr: string | Buffer | undefined): Error {
  const said = stderr?.toString().trim();
  return new Error(`${compiler} failed: ${said || error.message}`.slice(0, 2000));
}

/**
 * The add-on's path, compiled now (`built`) if no build of these sources exists for this compiler, CPU and platform:
 * what `node bin/build.js` runs. Throws with the reason when it cannot be built.
 */
export function buildNativeEthash(): { path: string; built: boolean } {
  const plan = buildPlan();
  if (plan.existing !== undefined) return { path: plan.existing, built: false };
  try {
    execFileSync(plan.compiler, plan.args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: COMPILE_TIMEOUT_MS });
    renameSync(plan.partial, plan.out);
  } catch (error) {
    rmSync(plan.partial, { force: true });
    throw compileError(plan.compiler, error as Error, (error as { stderr?: Buffer }).stderr);
  }
  if (dirname(plan.out) === buildDirs()[0]) pruneOlderBuilds(dirname(plan.out), basename(plan.out));
  return { path: plan.out, built: true };
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
