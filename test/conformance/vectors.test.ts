/**
 * A fast subset of the external Ethereum vectors, replayed through a test-mode node's RPC by the conformance runner
 * (`npm run conformance` runs them all). The subset covers every fork Frontier … Berlin, rejected blocks and uncles,
 * a reorganisation, state tests (NoReward), one Ethash-sealed chain checked with the real seal, the header gas
 * limit bound (2^63 − 1 accepted; 2^63 refused, on a copy of a vector) and storage slots read as vectors spell them
 * (`0x00`, leading zeros and all, and respelt copies).
 * The vectors are found by test/helpers/vectors-dir.ts (override: SVC_VECTORS_DIR); without them the suite is
 * skipped and says why.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type RunSummary } from '../../conformance/index.js';
import { type NodeProcess, startNode } from '../helpers/node-process.js';
import { VECTORS_DIR } from '../helpers/vectors-dir.js';

const vectors = VECTORS_DIR;
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
  // Gas limits and transaction gas at 2^63 − 1, the largest a header may carry.
  ['legacy-constantinople/ValidBlocks/bcBlockGasLimitTest', 35],
  // Storage slot 0x00 in the post-state, read as spelt.
  ['legacy-cancun/ValidBlocks/bcStateTests/callcodeOutput1.json', 2],
];

let node: NodeProcess;

const run = (paths: string[], filter?: string): Promise<RunSummary> =>
  runConformance({ paths, url: node.url, ...(filter !== undefined ? { filter } : {}) });

const failures = (s: RunSummary) => s.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.id}: ${o.reason}`);

describe.skipIf(!present)('conformance vectors (fast subset)', () => {
  beforeAll(async () => {
    // The node `npm run conformance` starts (test mode, dev network), from the bundle as every test node is, with
    // the suite's shared Ethash cache: the sealed chain below needs epoch 0's, ~15 s of CPU to build anew.
    node = await startNode({ args: ['--testmode', '--network', 'dev', '--no-p2p'], timeoutMs: 60_000 });
  }, 60_000);
  afterAll(async () => node?.stop());

  it.each(BLOCKCHAIN_SUBSET)(
    'BlockchainTests %s',
    async (path, expected) => {
      const summary = await run([bt(path)]);
      expect(failures(summary)).toEqual([]);
      expect(summary.passed).toBe(expected);
    },
    60_000,
  );

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
    const summary = await run(
      [bt('legacy-constantinople/ValidBlocks/bcGasPricerTest/RPC_API_Test.json')],
      'RPC_API_Test_Byzantium',
    );
    expect(failures(summary)).toEqual([]);
    expect(summary.passed).toBe(1);
  }, 60_000);

  /** Runs `cases` (name → case) written to a temporary file. */
  async function runCases(cases: Record<string, unknown>): Promise<RunSummary> {
    const dir = mkdtempSync(join(tmpdir(), 'svc-conformance-case-'));
    try {
      const file = join(dir, 'derived.json');
      writeFileSync(file, JSON.stringify(cases));
      return await run([file]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('GeneralStateTests in the older format (no txbytes: signed from secretKey) pass as the newer ones do', async () => {
    // No vector here is in the older format, so stExample's legacy-transaction cases are turned into it (typed
    // transactions came after that format): every post entry loses its txbytes.
    const folder = join(vectors, 'GeneralStateTests/legacy-cancun/stExample');
    type Case = { transaction: Record<string, unknown>; post: Record<string, Array<Record<string, unknown>>> };
    const cases: Record<string, Case> = {};
    for (const name of readdirSync(folder).filter((n) => n.endsWith('.json'))) {
      for (const [id, c] of Object.entries(
        JSON.parse(readFileSync(join(folder, name), 'utf8')) as Record<string, Case>,
      ))
        if (!('accessLists' in c.transaction) && !('maxFeePerGas' in c.transaction)) cases[id] = c;
    }
    for (const c of Object.values(cases))
      for (const entries of Object.values(c.post)) for (const e of entries) delete e.txbytes;
    const summary = await runCases(cases);
    expect(failures(summary)).toEqual([]);
    expect(summary.passed).toBe(34);
  }, 60_000);

  it('refuses a block whose gas limit is 2^63 (one above the bound), naming the rule, then takes the valid one', async () => {
    const source = JSON.parse(
      readFileSync(bt('legacy-constantinople/ValidBlocks/bcBlockGasLimitTest/BlockGasLimit2p63m1.json'), 'utf8'),
    );
    const cases: Record<string, unknown> = {};
    for (const fork of ['Frontier', 'Byzantium', 'ConstantinopleFix']) {
      const good = source[`BlockGasLimit2p63m1_${fork}`];
      expect(BigInt(good.blocks[0].blockHeader.gasLimit)).toBe(2n ** 63n - 1n);
      // The parent's gas limit is 2^63 − 1 as well, so one more stays within the 1/1024 step: only the bound breaks.
      expect(BigInt(good.genesisBlockHeader.gasLimit)).toBe(2n ** 63n - 1n);
      const [header, txs, uncles] = RLP.decode(hexToBytes(good.blocks[0].rlp)) as [Uint8Array[], unknown, unknown];
      header[9] = bigIntToUnpaddedBytes(2n ** 63n);
      const tooHigh = {
        rlp: bytesToHex(RLP.encode([header, txs, uncles] as never)),
        expectException: 'GasLimitHigherThan2p63m1',
      };
      cases[`GasLimit2p63_${fork}`] = { ...good, blocks: [tooHigh, good.blocks[0]] };
    }
    const summary = await runCases(cases);
    expect(failures(summary)).toEqual([]);
    expect(summary.passed).toBe(3);
    for (const outcome of summary.outcomes) {
      expect(outcome.rejections).toHaveLength(1);
      expect(outcome.rejections![0]).toMatch(
        /^block 1 \(GasLimitHigherThan2p63m1\): .*gas limit 9223372036854775808 exceeds the maximum 2\^63 − 1.*gas-limit-above-max/,
      );
    }
  }, 60_000);

  it('reads a storage slot however the vector spells it (0x00, 0x, 0x0, 20 bytes), and notices a wrong value', async () => {
    const source = JSON.parse(readFileSync(bt('legacy-cancun/ValidBlocks/bcStateTests/callcodeOutput1.json'), 'utf8'));
    const good = source.callcodeOutput1_Berlin;
    const contract = '0x095e7baea6a6c7c4c2dfeb977efac326af552d87';
    const value = good.postState[contract].storage['0x00'];
    expect(value).toMatch(/^0x[0-9a-f]{64}$/);
    const respelt = (slot: string, v = value) => {
      const c = structuredClone(good);
      c.postState[contract].storage = { [slot]: v };
      return c;
    };
    const summary = await runCases({
      asVector: good,
      empty: respelt('0x'),
      short: respelt('0x0'),
      twentyBytes: respelt(`0x${'00'.repeat(20)}`),
      wrongValue: respelt('0x00', '0x01'),
    });
    const reasons = Object.fromEntries(summary.outcomes.map((o) => [o.id.split('::')[1], o.reason]));
    expect(reasons).toEqual({
      asVector: undefined,
      empty: undefined,
      short: undefined,
      twentyBytes: undefined,
      wrongValue: expect.stringMatching(`${contract} storage 0x00: got`),
    });
  }, 60_000);

  it('reports the first difference when a vector expects another state', async () => {
    const source = JSON.parse(
      readFileSync(bt('legacy-constantinople/ValidBlocks/bcValidBlockTest/SimpleTx.json'), 'utf8'),
    );
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
