import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';

export default defineConfig({
  test: {
    include: [
      'test/**/*.test.ts',
      'src/**/*.test.ts',
      'clients/*/test/**/*.test.ts',
      'codegen/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most suites wait on node processes they started rather than compute, so more workers than the 2 cores
    // shorten the run; the CPU-heavy suites (scrypt, conformance) still get a core each.
    maxWorkers: 4,
    // A worker loads a module once for all the files it runs instead of once per file: the files that run a node
    // in-process each imported most of src/ anew (~3 s of CPU apiece), 300 s of a full run's CPU. No test file
    // changes process-wide state it does not restore (vi.useRealTimers in afterEach where timers are faked).
    isolate: false,
    // Longest files first (test/sequencer.ts): a clean clone has no durations of a last run to order by.
    sequence: { sequencer: LongestFirst },
  },
});
