import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that may share a worker's modules (isolate: false): they change no process-wide state they do not restore,
 * and each loaded most of src/ anew otherwise (the in-process nodes of test/rpc, ~3 s of CPU apiece; the engine
 * tests in the folders of test/chain, ~0.6 s apiece: 8 of them on one worker took 17.3 CPU s isolated, 13.1 s
 * shared). test/chain's own two files stay isolated: progress-log.test.ts counts timer ticks in a 110 ms window, which
 * failed once in a loaded shared run, and cache-limits.test.ts measures the engine's caches.
 */
const SHARED_MODULES = [
  'src/**/*.test.ts',
  'test/rpc/**/*.test.ts',
  'test/chain/*/**/*.test.ts',
  'clients/*/test/**/*.test.ts',
  'codegen/**/*.test.ts',
  'bench/**/*.test.ts',
];

/**
 * The longest files (wall seconds in a loaded full run, 2026-11-26), started first within their project. Without it a
 * clean clone (no timing cache) ran them in file-size order, and a ~60 s file that started near the end ran alone
 * while the other workers had nothing left to do. A file missing here only starts in vitest's own order.
 */
const LONGEST_FIRST = [
  // Wall seconds in a loaded CI run; the ~ ones scaled from alone-runs after the CPU cuts of the citrim round.
  'test/package/install.test.ts', // 131 s
  'test/crash/crash-loop.test.ts', // 90 s
  'test/p2p/simultaneous-dial.test.ts', // 64 s
  'test/p2p/snap-sync-faults.test.ts', // ~52 s
  'test/p2p/snap-sync.test.ts', // 48 s
  'test/docs/guide-snippets.test.ts', // 46 s
  'test/p2p/cluster.test.ts', // 46 s
  'test/conformance/vectors.test.ts', // ~43 s
  'test/fuzz/fuzz.test.ts', // ~40 s
  'test/crash/write-behind.test.ts', // 37 s
  'test/server/networks.test.ts', // 34 s
  'test/anvil/dump-after-restart.test.ts', // 32 s
  'test/chain/archive/history-import.test.ts', // ~31 s
  'test/rpc/checkpointing.test.ts', // 27 s
  'test/chain/engine/bulk-blocks.test.ts', // ~24 s
  // Quiet clean-clone run, 2026-12-07 (wall seconds of the file there).
  'test/chain/pow/wasm-differential.test.ts', // 32 s
  'test/chain/state/flat-build-kill.test.ts', // 25 s
  'test/docs/portal.test.ts', // 21 s
  'test/conformance/bastion.test.ts', // 20 s
  'test/chain/trace/fast-path.test.ts', // 20 s
  'test/clients/python-types.test.ts', // 13 s
  'test/fork/shared-cache.test.ts', // 12 s
];

/** The test/ files outside test/rpc/ and test/chain/'s folders (those share their modules already). */
const root = fileURLToPath(new URL('.', import.meta.url));
const OTHER_TEST_FILES = (readdirSync(join(root, 'test'), { recursive: true }) as string[])
  .map((file) => `test/${file.split('\\').join('/')}`)
  .filter(
    (file) =>
      file.endsWith('.test.ts') && !file.includes('/node_modules/') && !/^test\/(rpc\/|chain\/[^/]+\/)/.test(file),
  );

/**
 * Of those, the files that import no module of src/ (nor of scripts/, conformance/, codegen/, clients/ or bench/)
 * themselves but the dev accounts' constants, only Node, packages and test helpers: they drive node processes over
 * RPC, the CLI or the wire, and change no module state that another file could see. They share a worker's modules
 * too: in a fresh worker each paid ~0.4 s of CPU for the worker's start and vitest's and the helpers' modules (12 such
 * files of test/anvil, server, dev-flags and trace, two runs each: 20.2 and 20.5 CPU s isolated, 15.1 and 15.9 s
 * shared). The longest files stay isolated, so the order below still starts them first.
 */
const IMPORTS_MODULES =
  /from '(\.\.\/)+(src|scripts|conformance|codegen|clients|bench)\/(?!chain\/networks\/devAccounts\.js')/;
const DRIVES_PROCESSES_ONLY = OTHER_TEST_FILES.filter(
  (file) => !IMPORTS_MODULES.test(readFileSync(join(root, file), 'utf8')) && !LONGEST_FIRST.includes(file),
);

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(relative(spec.project.config.root, spec.moduleId).split('\\').join('/'));
      return at < 0 ? LONGEST_FIRST.length : at;
    };
    const order = new Map(base.map((spec, i) => [spec, i]));
    // Projects keep vitest's order (one after the other); within each, the longest first, then vitest's order.
    return [...base].sort(
      (a, b) =>
        (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
        rank(a) - rank(b) ||
        order.get(a)! - order.get(b)!,
    );
  }
}

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    // Worker threads of in-process engines (seal check, calls, sender recovery, Ethash) start from dist/ and its
    // bundle, which the global setup has just built from src/ (src/chain/workers/spawn.ts): ~0.25 s of CPU a worker
    // instead of ~1.9 s through tsx's hooks. SVC_NODE_TEST_CODE=sources keeps them on the sources, as it does nodes.
    env: process.env.SVC_NODE_TEST_CODE === 'sources' ? {} : { SVC_NODE_WORKERS_FROM_BUILD: '1' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most suites wait on node processes they started rather than compute, so more workers than the 2 cores
    // shorten the run; the CPU-heavy suites (scrypt, conformance) still get a core each. Three, measured on quiet
    // clean clones of one tree (.ci/run): 2 workers 10 min 17 s, 3 workers 9 min 39 s, 4 workers 9 min 58 s (the
    // fourth added ~66 CPU s of contention to a CPU-bound run).
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    // Two projects, run side by side in one pool (each runs the global setup again: ~0.1 s, nothing to build).
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: [...SHARED_MODULES, ...DRIVES_PROCESSES_ONLY], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts'],
          exclude: ['test/rpc/**', 'test/chain/*/**', ...DRIVES_PROCESSES_ONLY],
        },
      },
    ],
  },
});
