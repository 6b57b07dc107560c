/**
 * The bundle `svc-node` starts from (bin/bundle.js): `node bin/build.js` brings it up to date with dist/, a change of
 * what dist/ was compiled from makes it stale (content: touching files does not), and a node started from it still finds what sits beside its modules in dist/ (the Ethash
 * cache worker, the sender-recovery worker, docs/), with no warning that it fell back to its main thread; the call
 * time limit applies to the EVM inside the bundle, and bundled nodes peer and sync. The worker entries a dev node starts
 * are bundled too, the seal-check worker's without any of the engine's narrow execution paths.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HDNodeWallet, JsonRpcProvider, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staleSources, stampFile } from '../../bin/build.js';
import { bundleEntry, bundleIsStale, checkWorkerGraphs, pruneUnreachable, WORKER_ENTRIES } from '../../bin/bundle.js';
import { DEV_MNEMONIC } from '../../src/chain/networks/devAccounts.js';
import { repoRoot, startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

const bundleDir = join(repoRoot, 'dist/bundle');
const dirs: string[] = [];
const nodes: NodeProcess[] = [];
let provider: JsonRpcProvider | undefined;
const DEV_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
/** Init code returning the runtime `JUMPDEST PUSH1 0 JUMP`: a loop that only the time limit ends under a high gas cap. */
const LOOP_DEPLOY = '0x6004600c60003960046000f35b600056';
/**
 * Liveness, not speed: the first Ethash block waits for the worker to build epoch 0's cache (~2.5 s of CPU alone),
 * which in a full parallel run on 2 cores took over 60 s.
 */
const MINING_WAIT_MS = 150_000;

function buildAndBundle(): void {
  const run = spawnSync(process.execPath, ['bin/build.js'], { cwd: repoRoot, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/bundle up to date in dist\/bundle\//);
}

beforeAll(() => buildAndBundle(), 60_000);

afterAll(async () => {
  provider?.destroy();
  await Promise.all(nodes.map((n) => n.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the bundle', () => {
  it('is up to date after a build, whatever the mtimes; stale once a source changes; up to date after the next build', () => {
    expect(existsSync(bundleEntry)).toBe(true);
    expect(bundleIsStale()).toBe(false);
    // What an install from a tarball or git does: sources extracted after dist/, so newer than their output.
    const now = new Date();
    utimesSync(join(repoRoot, 'dist/main.js'), new Date(now.getTime() - 60_000), new Date(now.getTime() - 60_000));
    utimesSync(join(repoRoot, 'src/main.ts'), now, now);
    expect(staleSources()).toEqual([]);
    expect(bundleIsStale()).toBe(false);
    // What an edit of src/main.ts does: its content is no longer the one the stamp says dist/main.js was compiled from.
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as { sources: Record<string, string> };
    writeFileSync(
      stampFile,
      JSON.stringify({ ...stamp, sources: { ...stamp.sources, 'src/main.ts': '0'.repeat(40) } }),
    );
    expect(staleSources()).toEqual([join(repoRoot, 'src/main.ts')]);
    expect(bundleIsStale()).toBe(true);
    buildAndBundle();
    expect(staleSources()).toEqual([]);
    expect(bundleIsStale()).toBe(false);
  }, 60_000);

  it('points every module-relative URL at a file that exists in dist/', () => {
    const targets = new Set<string>();
    for (const name of readdirSync(bundleDir).filter((n) => n.endsWith('.js'))) {
      const text = readFileSync(join(bundleDir, name), 'utf8');
      for (const [, relative] of text.matchAll(/new URL\("(\.\.\/[^"]+)",\s*import\.meta\.url\)/g))
        targets.add(relative!);
    }
    // Those that spawn workers (sender recovery, Ethash cache) and find docs/ and the package version.
    expect(targets.size).toBeGreaterThanOrEqual(4);
    for (const relative of targets)
      expect(existsSync(fileURLToPath(new URL(relative, `file://${bundleDir}/`))), relative).toBe(true);
  });

  it('leaves, pruned for packing, only what its entries import: no earlier build, no source map unless asked', () => {
    pruneUnreachable(); // this checkout's own earlier builds
    const before = readdirSync(bundleDir);
    writeFileSync(join(bundleDir, 'chunk-EARLIER0.js'), 'export const earlier = 1;\n');
    expect(pruneUnreachable()).toBe(1);
    expect(readdirSync(bundleDir)).toEqual(before);
    if (process.env.SVC_NODE_SOURCE_MAPS === undefined) expect(before.filter((n) => n.endsWith('.map'))).toEqual([]);
    expect(before.filter((n) => n.startsWith('chunk-')).length).toBeGreaterThan(0);
  });

  it('holds the workers a dev node starts beside main.js, and no narrow execution path in the seal-check worker', () => {
    for (const entry of WORKER_ENTRIES) expect(existsSync(join(bundleDir, `${entry.split('/').pop()}.js`))).toBe(true);
    // esbuild's metafile as bin/bundle.js reads it: the worker's entry, the chunks it imports, their input modules.
    const metafile = (narrow: boolean) => ({
      outputs: {
        'dist/bundle/seal-check-worker.js': {
          entryPoint: 'dist/chain/exec/seal-check-worker.js',
          imports: [{ path: 'dist/bundle/chunk-A.js' }, { path: 'node:worker_threads' }],
          inputs: { 'dist/chain/exec/seal-check-worker.js': {} },
        },
        'dist/bundle/chunk-A.js': {
          imports: [],
          inputs: {
            'dist/chain/exec/credit-rewards.js': {},
            ...(narrow ? { 'dist/chain/exec/plain-transfers.js': {} } : {}),
          },
        },
        'dist/bundle/main.js': {
          entryPoint: 'dist/main.js',
          imports: [],
          inputs: { 'dist/chain/exec/call-frames.js': {} },
        },
      },
    });
    expect(() => checkWorkerGraphs(metafile(false))).not.toThrow();
    expect(() => checkWorkerGraphs(metafile(true))).toThrow(/plain-transfers\.js, a narrow execution path/);
  });

  it(
    'runs PoW dev nodes whose workers start and that peer: sealed blocks, 40 transfers at once, sync, docs, no warnings',
    async () => {
      const cacheDir = mkdtempSync(join(tmpdir(), 'svc-node-bundle-ethash-')); // empty: epoch 0 is built by the worker
      dirs.push(cacheDir);
      const env = { SVC_NODE_NETWORK_RPC_CALL_GAS_CAP: '2000000000', SVC_NODE_NETWORK_RPC_CALL_TIMEOUT: '1s' };
      const a = await startNode({ code: 'bundle', args: ['--seal', 'ethash', '--ethash.cachedir', cacheDir], env });
      nodes.push(a);
      provider = new JsonRpcProvider(a.url, 1337, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 });
      const wallet = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/1");
      const nonce = await provider.getTransactionCount(wallet.address, 'pending');
      const to = Wallet.createRandom().address;
      // More than the 16 recoveries after which the pool moves sender recovery to its worker.
      const raws = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          wallet.signTransaction({
            type: 0,
            chainId: 1337n,
            nonce: nonce + i,
            to,
            value: 1n,
            gasLimit: 21_000n,
            gasPrice: 10n ** 9n,
          }),
        ),
      );
      const hashes = await Promise.all(
        raws.map((raw) => provider!.send('eth_sendRawTransaction', [raw]) as Promise<string>),
      );
      const receipt = await provider.waitForTransaction(hashes.at(-1)!, 1, MINING_WAIT_MS);
      expect(receipt?.status).toBe(1);
      expect(await provider.getBalance(to)).toBe(40n);
      const block = await provider.getBlock(receipt!.blockNumber);
      expect(block?.nonce).not.toBe('0x0000000000000000'); // a real Ethash seal, not an instant one

      // The call time limit wraps the Interpreter of the EVM the bundle runs (one copy of @ethereumjs/evm in it).
      const deployed = await provider.send('eth_sendTransaction', [
        { from: DEV_ACCOUNT, data: LOOP_DEPLOY, gas: '0x30000' },
      ]);
      const loop = (await provider.waitForTransaction(deployed as string, 1, MINING_WAIT_MS))!.contractAddress!;
      const endless = await post(a.url, request('eth_call', [{ to: loop, gas: '0x77359400' }, 'latest']));
      expect(endless.body.error?.code).toBe(-32005);

      // Peering from the bundle: a second node syncs the first one's chain.
      const b = await startNode({
        code: 'bundle',
        args: ['--seal', 'ethash', '--ethash.cachedir', cacheDir, '--no-mine'],
      });
      nodes.push(b);
      expect((await post(b.url, request('net_connectToPeer', [a.enode]))).body.result).toBe(true);
      const head = await provider.getBlockNumber();
      const deadline = Date.now() + 60_000;
      while (Number((await post(b.url, request('eth_blockNumber', []))).body.result) < head) {
        expect(Date.now(), 'the second node did not sync').toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }

      const docs = await fetch(new URL('docs/', a.url));
      expect(docs.status).toBe(200);
      expect(await docs.text()).toMatch(/<html/i);

      for (const node of [a, b]) {
        const complaints = node.logs.filter((l) => l.level === 'warn' || l.level === 'error' || l.level === 'fatal');
        expect(complaints).toEqual([]);
      }
    },
    4 * MINING_WAIT_MS,
  );
});
