/**
 * The package as a new user installs it (issue 24, items 1 and 2): the node packed (`npm pack` of a copy of this
 * working tree, which runs `prepack` and `prepare`) and installed into an empty project from its tarball, and installed from its path (a link
 * to this checkout, whose `prepare` npm runs), each with the client package beside it (`svc-node-client`, from its
 * own tarball or path), the node's tarball without source maps. In both: `npx svc-node --version` and a start print no compile message and the start loads
 * the node's bundle and no TypeScript, as `npm start` does; a file importing `svc-node-client` and `svc-node/client` type-checks.
 *
 * One install per source, shared by the cases: an install takes minutes on a loaded machine. The tarball project
 * also holds a `typescript` that throws when loaded (a user's TypeScript 7 broke the compile the bin used to try).
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onJsonLines } from '../helpers/json-lines.js';
import { repoRoot } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

const work = mkdtempSync(join(tmpdir(), 'svc-node-install-'));
const packs = join(work, 'packs');
const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const clientDir = join(repoRoot, 'clients/typescript');
/** What bin/svc-node.js says when it compiles or falls back to the sources. */
const COMPILE_MESSAGE = /cannot compile|through tsx|TypeScript/i;
const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn'];

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs a command to its end (asynchronously: the two installs run side by side). */
function run(command: string, args: readonly string[], cwd: string, timeoutMs = 600_000): Promise<Run> {
  const started = performance.now();
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child.pid!, 'SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not end within ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started) });
    });
  });
}

const running = new Set<number>();

/** Signals a process group that may have ended already. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/** Starts the node with `command args` on free loopback ports; resolves at its first JSON-RPC answer. */
/**
 * A module hook every Node process of a start loads (through NODE_OPTIONS, so npm's and npx's too): it appends each
 * file URL an ES import resolves to `SVC_NODE_LOADS`. Which files the node loaded shows what it started from.
 */
function loadTracer(): string {
  const file = join(work, 'trace-loads.mjs');
  if (existsSync(file)) return file;
  const hooks = [
    "import { appendFileSync } from 'node:fs';",
    'export async function resolve(specifier, context, next) {',
    '  const resolved = await next(specifier, context);',
    "  if (resolved.url.startsWith('file:')) appendFileSync(process.env.SVC_NODE_LOADS, `${resolved.url}\\n`);",
    '  return resolved;',
    '}',
  ].join('\n');
  writeFileSync(
    file,
    `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`,
  );
  return file;
}

async function firstAnswer(
  command: string,
  args: readonly string[],
  cwd: string,
): Promise<{ ms: number; stderr: string; loaded: string[]; portal: { status: number; text: string } }> {
  const datadir = mkdtempSync(join(work, 'datadir-'));
  const loads = `${datadir}.loads`;
  writeFileSync(loads, '');
  const flags = [
    '--http.port',
    '0',
    '--http.addr',
    '127.0.0.1',
    '--p2p.port',
    '0',
    '--p2p.addr',
    '127.0.0.1',
    '--datadir',
    datadir,
  ];
  const started = performance.now();
  // A process group of its own: npm and npx start the node through a shell, and all of them must end.
  const env = { ...process.env, NODE_OPTIONS: `--import ${loadTracer()}`, SVC_NODE_LOADS: loads };
  const child = spawn(command, [...args, ...flags], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.add(child.pid!);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line within 120 s\n${stderr}`)), 120_000);
      onJsonLines(child.stdout, (parsed) => {
        if (parsed?.msg === 'listening') {
          clearTimeout(timer);
          resolve(parsed.url as string);
        }
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code} before listening\n${stderr}`)));
    });
    const answer = await post(url, request('web3_clientVersion', []));
    expect(answer.body.result).toMatch(/^svc-node\//);
    const ms = Math.round(performance.now() - started);
    // The docs portal, generated at packing (never committed): served from the package's own docs/.
    const docs = await fetch(new URL('/docs/methods/eth_getBalance.html', url));
    const portal = { status: docs.status, text: await docs.text() };
    return { ms, stderr, loaded: readFileSync(loads, 'utf8').split('\n').filter(Boolean), portal };
  } finally {
    killGroup(child.pid!, 'SIGTERM');
    const killer = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), 10_000);
    if (child.exitCode === null && child.signalCode === null) await exited;
    clearTimeout(killer);
    running.delete(child.pid!);
  }
}

/**
 * An empty ES-module project that allows the install scripts the node needs. npm 11 matches a registry package by
 * name, but a tarball or a path only by its `file:` source, so those are allowed by source (a name would not do).
 */
function project(name: string, sources: readonly string[]): string {
  const dir = join(work, name);
  mkdirSync(dir);
  const allowScripts = Object.fromEntries([
    ...['classic-level', 'esbuild', 'keccak', 'secp256k1'].map((p) => [p, true]),
    ...sources.map((source) => [`file:${source.replace(/\/$/, '')}`, true]),
  ]);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: `first-hour-${name}`, private: true, type: 'module', allowScripts }, null, 2),
  );
  return dir;
}

const CHECK = `import { createClient, fromHex, httpTransport, toHex, waitForReceipt, type Receipt } from 'svc-node-client';
import * as viaNode from 'svc-node/client';

const client = createClient(httpTransport('http://127.0.0.1:8546/'));
const [from, to] = await client.eth_accounts();
const hash = await client.eth_sendTransaction({ from, to, value: toHex(10n ** 18n) });
const receipt: Receipt = await waitForReceipt(client, hash, { timeoutMs: 30_000 });
export const gas: bigint = fromHex(receipt.gasUsed);
export const same: typeof viaNode.createClient = createClient;
// @ts-expect-error eth_chainId answers a hex string: an error here shows the types are real, not \`any\`
export const wrong: number = await client.eth_chainId();
// @ts-expect-error an address, not a number
await viaNode.createClient(viaNode.httpTransport('http://127.0.0.1:8546/')).eth_getBalance(42);
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022'],
    types: [],
    strict: true,
    noEmit: true,
  },
  files: ['check.ts'],
};

/** Where `npm run codegen` writes (.gitignore's list of its outputs). */
const CODEGEN_PLACES = [
  'openrpc.json',
  'src/generated',
  'src/handlers',
  'clients/typescript/src',
  'clients/python',
  'docs',
];

/**
 * The working tree as git sees it (tracked and untracked files, not ignored ones) with this checkout's node_modules.
 * The tarballs are packed from it because packing runs `npm run build`, whose tsc rewrites dist/ in place, and other
 * test files run nodes from this checkout's dist/ meanwhile.
 */
function copyOfCheckout(): string {
  const dir = join(work, 'checkout');
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  expect(listed.status, listed.stderr).toBe(0);
  // And what `npm run codegen` wrote (git-ignored, so not listed above), with its stamp: the copy's prepack finds it
  // current, as in a checkout after `npm install`, instead of generating it all again (~6 s of CPU).
  const generated = spawnSync(
    'git',
    ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--', ...CODEGEN_PLACES],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  expect(generated.status, generated.stderr).toBe(0);
  const files = [
    ...listed.stdout.split('\0'),
    ...generated.stdout.split('\0').filter((f) => !f.includes('__pycache__')),
  ];
  for (const file of files.filter(Boolean)) {
    const from = join(repoRoot, file);
    if (!existsSync(from) || !lstatSync(from).isFile()) continue; // deleted but not committed, or the node_modules link
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(from, join(dir, file));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  // The checkout's build too (the global setup brought it up to date): bin/build.js keys staleness on content hashes,
  // so the copy's `prepare` finds nothing to compile or bundle, and packing pays only `npm run build` (tsc, for the
  // declarations) instead of also compiling and bundling all of src/ a second time (~60 s of CI's 88 s pack).
  cpSync(join(repoRoot, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(repoRoot, 'clients/typescript/dist'), join(dir, 'clients/typescript/dist'), { recursive: true });
  return dir;
}

const projects: Record<'tarball' | 'path', string> = { tarball: '', path: '' };
/** The files in svc-node's tarball. */
let packedFiles: string[] = [];
const installs: Record<string, Run> = {};

beforeAll(async () => {
  mkdirSync(packs);
  const checkout = copyOfCheckout();
  const packed = await run('npm', ['pack', '--pack-destination', packs, '--loglevel=warn'], checkout);
  expect(packed.code, packed.stderr).toBe(0);
  const packedClient = await run(
    'npm',
    ['pack', '--pack-destination', packs, '--loglevel=warn'],
    join(checkout, 'clients/typescript'),
  );
  expect(packedClient.code, packedClient.stderr).toBe(0);
  const tarball = (prefix: string) =>
    join(packs, readdirSync(packs).find((f) => f.startsWith(`${prefix}-${version}`))!);
  const nodeTgz = tarball('svc-node');
  const clientTgz = tarball('svc-node-client');
  console.log(
    `npm pack: svc-node ${packed.ms} ms (${statSync(nodeTgz).size} bytes), svc-node-client ${packedClient.ms} ms (${statSync(clientTgz).size} bytes)`,
  );

  const listing = spawnSync('tar', ['-tzf', nodeTgz], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  expect(listing.status, listing.stderr).toBe(0);
  packedFiles = listing.stdout.split('\n').filter(Boolean);
  console.log(`svc-node tarball: ${packedFiles.length} files`);

  projects.tarball = project('tarball', [nodeTgz, clientTgz]);
  projects.path = project('path', [repoRoot, clientDir]);
  const [fromTarball, fromPath] = await Promise.all([
    run('npm', ['install', ...NPM_FLAGS, nodeTgz, clientTgz], projects.tarball),
    run('npm', ['install', ...NPM_FLAGS, repoRoot, clientDir], projects.path),
  ]);
  installs.tarball = fromTarball;
  installs.path = fromPath;
  for (const [name, install] of Object.entries(installs)) {
    expect(install.code, `${name}: ${install.stderr}`).toBe(0);
    console.log(`npm install from the ${name}: ${install.ms} ms`);
  }
  // A user's TypeScript of another major, found further up from the installed package: the bin must never load it.
  const userTs = join(projects.tarball, 'node_modules/typescript');
  mkdirSync(userTs, { recursive: true });
  writeFileSync(
    join(userTs, 'package.json'),
    JSON.stringify({ name: 'typescript', version: '7.0.0', main: 'index.js' }),
  );
  writeFileSync(join(userTs, 'index.js'), "throw new Error('svc-node loaded its user\\'s TypeScript');\n");
}, 1_500_000);

afterAll(async () => {
  for (const pid of running) killGroup(pid, 'SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('the installed package', () => {
  it('packs no source maps unless asked (SVC_NODE_SOURCE_MAPS=1 at build): nothing loads them', () => {
    expect(packedFiles.length).toBeGreaterThan(100);
    expect(packedFiles.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(packedFiles).toContain('package/dist/bundle/main.js');
  });

  it('ships its bundle, the client build with declarations, and no compile step to run', () => {
    const installed = join(projects.tarball, 'node_modules/svc-node');
    for (const file of [
      'dist/bundle/main.js',
      'dist/main.js',
      // What `npm run codegen` writes from openrpc/ (not committed; packing generates it).
      'openrpc.json',
      'src/generated/openrpc.ts',
      'src/handlers/methods.generated.ts',
      'docs/index.html',
      'docs/methods/eth_getBalance.html',
      'clients/typescript/dist/index.js',
      'clients/typescript/dist/index.d.ts',
    ]) {
      expect(existsSync(join(installed, file)), file).toBe(true);
    }
    const client = join(projects.tarball, 'node_modules/svc-node-client');
    expect(JSON.parse(readFileSync(join(client, 'package.json'), 'utf8'))).toMatchObject({
      name: 'svc-node-client',
      exports: { '.': { types: './dist/index.d.ts' } },
    });
    expect(existsSync(join(client, 'dist/index.d.ts'))).toBe(true);
    expect(existsSync(join(client, 'node_modules'))).toBe(false); // no dependencies
  });

  it("covers every install script of the node's dependencies in its allowScripts (npm 11 lists the others at each install)", async () => {
    const listed = await run('npm', ['install-scripts', 'ls'], repoRoot, 120_000);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/No packages with unreviewed install scripts/);
  }, 180_000);

  it.each(['tarball', 'path'] as const)('from the %s: npm install warns of no install script', (source) => {
    // npm 11 warns (log.warn, so on stderr at --loglevel=warn) of every install script allowScripts leaves open.
    const install = installs[source]!;
    expect(install.stderr).not.toMatch(/not (yet )?covered by allowScripts/);
    expect(install.stderr).not.toMatch(/install-scripts/);
  });

  it.each(['tarball', 'path'] as const)(
    'from the %s: npx svc-node --version prints the version and nothing about compiling',
    async (source) => {
      const result = await run('npx', ['--no', '--', 'svc-node', '--version'], projects[source], 120_000);
      console.log(`npx svc-node --version (${source}): ${result.ms} ms`);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim()).toBe(version);
      expect(result.stderr).not.toMatch(COMPILE_MESSAGE);
    },
    180_000,
  );

  // What it loads, not how long it takes: a start that compiles or falls back to the TypeScript sources loads src/
  // or tsx (and is many times slower); the times are printed for the reader. Speed belongs to `npm run bench`.
  it('starts from its bundle, loading no TypeScript, from the tarball and from the path, as npm start does', async () => {
    const npmStart = await firstAnswer('npm', ['start', '--'], repoRoot);
    const tarball = await firstAnswer('npx', ['--no', '--', 'svc-node'], projects.tarball);
    const path = await firstAnswer('npx', ['--no', '--', 'svc-node'], projects.path);
    console.log(
      `first answer: npm start ${npmStart.ms} ms, installed from the tarball ${tarball.ms} ms, from the path ${path.ms} ms`,
    );
    const checkout = realpathSync(repoRoot);
    const cases = [
      { started: npmStart, root: checkout },
      { started: tarball, root: realpathSync(join(projects.tarball, 'node_modules/svc-node')) },
      { started: path, root: checkout }, // npm links a path install to the checkout itself
    ];
    for (const { started, root } of cases) {
      expect(started.stderr).not.toMatch(COMPILE_MESSAGE);
      expect(started.portal.status, `${root}: /docs/`).toBe(200);
      expect(started.portal.text).toContain('eth_getBalance');
      const ours = started.loaded.filter((url) => url.startsWith(`file://${root}/`));
      expect(ours, `${root}: ${ours.length} of its files loaded`).toContain(`file://${root}/dist/bundle/main.js`);
      expect(ours.filter((url) => url.includes('/src/') || /\.tsx?$/.test(url))).toEqual([]);
      expect(started.loaded.filter((url) => /\/node_modules\/(tsx|typescript)\//.test(url))).toEqual([]);
    }
  }, 600_000);

  it.each(['tarball', 'path'] as const)(
    'from the %s: svc-node-client and svc-node/client load in Node',
    async (source) => {
      const script =
        "const a = await import('svc-node-client'); const b = await import('svc-node/client'); console.log(a.toHex(255n), b.fromHex('0x10'), typeof b.createClient);";
      const loaded = await run(process.execPath, ['--input-type=module', '-e', script], projects[source], 60_000);
      expect(loaded.stderr).toBe('');
      expect(loaded.stdout.trim()).toBe('0xff 16n function');
    },
    90_000,
  );

  it.each(['tarball', 'path'] as const)(
    'from the %s: a file importing svc-node-client and svc-node/client type-checks',
    async (source) => {
      writeFileSync(join(projects[source], 'check.ts'), CHECK);
      writeFileSync(join(projects[source], 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
      const tsc = await run(
        process.execPath,
        [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', '.'],
        projects[source],
        300_000,
      );
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.code).toBe(0);
    },
    360_000,
  );
});
