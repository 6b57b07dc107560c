import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most suites wait on node processes they started rather than compute, so more workers than the 2 cores
    // shorten the run; the CPU-heavy suites (scrypt, conformance) still get a core each. Three, measured on quiet
    // clean clones of one tree (.ci/run): 2 workers 10 min 17 s, 3 workers 9 min 39 s, 4 workers 9 min 58 s (the
    // fourth added ~66 CPU s of contention to a CPU-bound run).
    maxWorkers: 3,
    // Two projects, run side by side in one pool (each runs the global setup again: ~0.1 s, nothing to build).
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED_MODULES, isolate: false } },
      {
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: ['test/rpc/**', 'test/chain/*/**'] },
      },
    ],
  },
});
