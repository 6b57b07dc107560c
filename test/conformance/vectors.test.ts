/**
 * A fast subset of the external Ethereum vectors, replayed through a test-mode node's RPC by the conformance runner
 * (`npm run conformance` runs them all). The subset covers every fork Frontier … Berlin, rejected blocks and uncles,
 * a reorganisation, state tests (NoReward) and one Ethash-sealed chain checked with the real seal.
 * The vectors live beside the repository in ../shared/vectors (override: SVC_VECTORS_DIR); without them the suite
 * is skipped and says why.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type RunSummary } from '../../conformance/index.js';
import { startTestNode, type TestNode } from '../../conformance/node.js';
import { repoRoot } from '../helpers/node-process.js';

const vectors = process.env.SVC_VECTORS_DIR ?? join(repoRoot, '../shared/vectors');
const present = existsSync(join(vectors, 'BlockchainTests'));
if (!present) console.log(`conformance vectors skipped: no vectors folder at ${vectors} (set SVC_VECTORS_DIR)`);

const bt = (p: string) => join(vectors, 'BlockchainTests', p);

/** [path, expected passing cases]: exact counts, so a case that silently stops running fails the test. */
const BLOCKCHAIN_SUBSET: ReadonlyArray<readonly [string, number]> = [
  ['legacy-constantinople/ValidBlocks/bcValidBlockTest/SimpleTx.json', 7],
  ['legacy-constantinople/InvalidBlocks/bcBlockGasLimitTest', 7],
  ['legacy-constantinople/InvalidBlocks/bcUncleSpecialTests', 3],
  ['legacy-constantinople/InvalidBlocks/bcUncleHeaderValidity/diffTooLow.json', 7],
  ['legacy-constantinople/InvalidBlocks/bcUncleHeaderValidity/wrongStateRoot.json', 7],
  ['legacy-constantinople/ValidBlocks/bcUncleSpecialTests', 14],
  ['legacy-cancun/ValidBlocks/bcMultiChainTest/ChainAtoChainBtoChainA.json', 2],
  ['legacy-cancun/InvalidBlocks/bcStateTests/TransactionNonceCheck.json', 2],
  ['legacy-cancun/InvalidBlocks/bcUncleHeaderValidity/incorrectUncleTimestamp.json', 2],
];

let node: TestNode;

const run = (paths: string[], filter?: string): Promise<RunSummary> =>
  runConformance({ paths, url: node.url, ...(filter !== undefined ? { filter } : {}) });

const failures = (s: RunSummary) => s.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.id}: ${o.reason}`);

describe.skipIf(!present)('conformance vectors (fast subset)', () => {
  beforeAll(async () => {
    node = await startTestNode();
  }, 60_000);
  afterAll(async () => node?.stop());

  it.each(BLOCKCHAIN_SUBSET)('BlockchainTests %s', async (path, expected) => {
    const summary = await run([bt(path)]);
    expect(failures(summary)).toEqual([]);
    expect(summary.passed).toBe(expected);
  }, 60_000);

  it('skips the London+ cases of a Cancun-snapshot file and says why', async () => {
    const summary = await run([bt('legacy-cancun/InvalidBlocks/bcStateTests/TransactionNonceCheck.json')]);
    const skipped = summary.outcomes.filter((o) => o.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((o) => /after Berlin/.test(o.reason ?? ''))).toBe(true);
  }, 60_000);

  it('GeneralStateTests stExample: every fork Frontier … Berlin as one-block NoReward chains', async () => {
    const summary = await run([join(vectors, 'GeneralStateTests/legacy-cancun/stExample')]);
    expect(failures(summary)).toEqual([]);
    expect(summary.passed).toBe(70);
  }, 60_000);

  it('an Ethash-sealed chain (RPC_API_Test, Byzantium) passes with the real seal check', async () => {
    const summary = await run([bt('legacy-constantinople/ValidBlocks/bcGasPricerTest/RPC_API_Test.json')], 'RPC_API_Test_Byzantium');
    expect(failures(summary)).toEqual([]);
    expect(summary.passed).toBe(1);
  }, 60_000);

  it('reports the first difference when a vector expects another state', async () => {
    const source = JSON.parse(readFileSync(bt('legacy-constantinople/ValidBlocks/bcValidBlockTest/SimpleTx.json'), 'utf8'));
    const good = source.SimpleTx_ConstantinopleFix;
    const withoutCoinbase = structuredClone(good);
    delete withoutCoinbase.postState['0x8888f1f195afa192cfee860698584c030f4c9db1'];
    const wrongBalance = structuredClone(good);
    wrongBalance.postState['0x095e7baea6a6c7c4c2dfeb977efac326af552d87'].balance = '0x0b';
    const dir = mkdtempSync(join(tmpdir(), 'svc-conformance-case-'));
    try {
      const file = join(dir, 'altered.json');
      writeFileSync(file, JSON.stringify({ withoutCoinbase, wrongBalance }));
      const summary = await run([file]);
      const reasons = Object.fromEntries(summary.outcomes.map((o) => [o.id.split('::')[1], o.reason]));
      expect(summary.failed).toBe(2);
      expect(reasons.withoutCoinbase).toMatch(/extra account 0x8888f1f195afa192cfee860698584c030f4c9db1/);
      expect(reasons.wrongBalance).toMatch(/0x095e7baea6a6c7c4c2dfeb977efac326af552d87 balance: got 10, expected 11/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
