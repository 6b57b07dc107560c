import { defineConfig } from 'vitest/config';

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
  },
});
