/**
 * The order test files start in: longest first, so the workers end together instead of one starting a two-minute
 * file when the others are nearly done. Vitest orders by the durations of the last run on this machine, but CI runs a
 * clean clone with no such record and Vitest then starts the largest files first, which put install.test.ts 11th and
 * snap-sync-faults.test.ts 42nd. So the record is used where there is one, else the seconds below (a full 2-core
 * run recorded on this machine, 4 workers), and files neither knows keep Vitest's order after those.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds per file of a full run, for the files over ~10 s; the order matters, not the exact figure. */
const SECONDS: Readonly<Record<string, number>> = {
  'test/p2p/snap-sync-faults.test.ts': 150,
  'test/package/install.test.ts': 136,
  'test/p2p/simultaneous-dial.test.ts': 60,
  'test/conformance/vectors.test.ts': 60,
  'test/p2p/snap-sync.test.ts': 50,
  'test/chain/engine/bulk-blocks.test.ts': 48,
  'test/docs/guide-snippets.test.ts': 45,
  'test/rpc/personal/sendTransaction.test.ts': 40,
  'test/p2p/wire.test.ts': 35,
  'test/chain/archive/history-import.test.ts': 33,
  'test/server/safe-defaults.test.ts': 30,
  'test/rpc/checkpointing.test.ts': 30,
  'test/crash/crash-loop.test.ts': 30,
  'test/chain/accounts/keystore-v3.test.ts': 29,
  'test/p2p/snap-backfill.test.ts': 27,
  'test/rpc/subscriptions-clients.test.ts': 25,
  'test/rpc/subscriptions.test.ts': 25,
  'test/p2p/cluster.test.ts': 25,
  'src/chain/state/range-proof.test.ts': 24,
  'test/server/soak.test.ts': 24,
  'test/rpc/eth/write-pool.test.ts': 22,
  'test/fuzz/fuzz.test.ts': 22,
  'test/rpc/eth/mining-work.test.ts': 20,
  'test/p2p/eviction.test.ts': 18,
  'test/rpc/test-namespace.test.ts': 18,
  'test/rpc/eth/inputs.test.ts': 17,
  'test/rpc/persistence-sigkill.test.ts': 17,
  'test/trace/parity.test.ts': 17,
  'test/p2p/discovery.test.ts': 17,
  'src/node/settings/typed-keys.test.ts': 15,
  'test/rpc/persistence.test.ts': 15,
  'test/docs/portal.test.ts': 14,
  'test/server/start-up.test.ts': 14,
  'test/p2p/interop-ethereumjs.test.ts': 13,
  'test/p2p/discovery-hostile.test.ts': 13,
  'test/codegen/regenerate.test.ts': 13,
  'test/p2p/peer-search-report.test.ts': 12,
  'test/codegen/compile-fail.test.ts': 12,
};

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const root = this.ctx.config.root;
    const estimate = (spec: TestSpecification): number | undefined => {
      const path = relative(root, spec.moduleId);
      const recorded = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration;
      return recorded !== undefined ? recorded / 1000 : SECONDS[path];
    };
    return ordered
      .map((spec, index) => ({ spec, index, seconds: estimate(spec) ?? -1 }))
      .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
