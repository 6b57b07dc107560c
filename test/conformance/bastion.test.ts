/**
 * The conformance runner's Bastion mode (`npm run conformance -- --bastion`) against a test-mode node: ethereum/tests'
 * Cancun BlockchainTests for EIP-1153, 5656 and 6780 replayed as transactions on an ETC_Bastion chain (their
 * Shanghai cases on ETC_Spiral), and the vectors published with EIP-2537, 7883 and 7951 run against Bastion's
 * precompiles by eth_call and mined transactions. Fixtures: test/fixtures/bastion (see its README.md).
 * Counts are exact, so a case that stops running, or starts being skipped, fails the test.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type RunSummary } from '../../conformance/index.js';
import { type NodeProcess, startNode } from '../helpers/node-process.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/bastion');
const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';
const SHADOWED = /keeps a contract at 0x0+100, a Bastion precompile Cancun does not have/;

let node: NodeProcess;

const run = (paths: string[], filter?: string): Promise<RunSummary> =>
  runConformance({ paths, url: node.url, bastion: true, ...(filter !== undefined ? { filter } : {}) });

const failures = (s: RunSummary) => s.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.id}: ${o.reason}`);
const passedOn = (s: RunSummary, network: string) =>
  s.outcomes.filter((o) => o.status === 'passed' && new RegExp(`[_-]${network}[-_\\]]|_${network}$`).test(o.id)).length;

/** Runs `cases` (name → case) written to a temporary file. */
async function runCases(cases: Record<string, unknown> | unknown[], name = 'derived.json'): Promise<RunSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bastion-case-'));
  try {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(cases));
    return await run([file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const load = (path: string) => JSON.parse(readFileSync(join(FIXTURES, path), 'utf8'));

/** [folder, Cancun cases passed on ETC_Bastion, Shanghai cases passed on ETC_Spiral, skipped]. */
const STATE: ReadonlyArray<readonly [string, number, number, number]> = [
  ['stEIP1153-transientStorage', 6, 0, 0],
  // Every case keeps a contract at 0x…0100, Bastion's P256VERIFY (skipped, with the reason).
  ['eip1153_tstore', 0, 0, 13],
  ['stEIP5656-MCOPY', 26, 0, 0],
  ['eip5656_mcopy', 0, 0, 8],
  // 2 Paris cases: skipped as after Berlin.
  ['eip6780_selfdestruct', 20, 14, 2],
];

/** [folder, vectors passed]: EIP-2537 counts its fail-* files' vectors (a failure that takes all the gas). */
const PRECOMPILES: ReadonlyArray<readonly [string, number]> = [
  ['eip-2537', 146],
  ['eip-7883', 45],
  ['eip-7951', 781],
];

describe('conformance runner, Bastion mode', () => {
  beforeAll(async () => {
    node = await startNode({ args: ['--testmode', '--network', 'dev', '--no-p2p'], timeoutMs: 60_000 });
  }, 60_000);
  afterAll(async () => node?.stop());

  it.each(STATE)(
    'BlockchainTests %s: Cancun on ETC_Bastion, Shanghai on ETC_Spiral',
    async (folder, cancun, shanghai, skipped) => {
      const summary = await run([join(FIXTURES, 'state', folder)]);
      expect(failures(summary)).toEqual([]);
      expect([passedOn(summary, 'Cancun'), passedOn(summary, 'Shanghai'), summary.skipped]).toEqual([
        cancun,
        shanghai,
        skipped,
      ]);
      for (const o of summary.outcomes.filter((o) => o.status === 'skipped'))
        expect(o.reason).toMatch(folder === 'eip6780_selfdestruct' ? /^fork Paris is after Berlin/ : SHADOWED);
      // What the comparison left out is said per case, and it is only the coinbase and the beacon-roots contract.
      for (const o of summary.outcomes.filter((o) => o.status === 'passed')) {
        expect(o.leftOut).toBeDefined();
        for (const line of o.leftOut!)
          expect(line).toMatch(
            /^(coinbase 0x[0-9a-f]{40} \(fee market, block reward\)|beacon roots 0x000f3df6d732807ef1319fb7b8bb8522d0beac02 \(EIP-4788 system call\))$/,
          );
      }
    },
    120_000,
  );

  it.each(PRECOMPILES)(
    'precompile vectors %s: output by eth_call, gas by a mined transaction',
    async (folder, passed) => {
      const summary = await run([join(FIXTURES, folder)]);
      expect(failures(summary)).toEqual([]);
      expect([summary.passed, summary.skipped]).toEqual([passed, 0]);
    },
    120_000,
  );

  it('refuses to judge a block the vector expects invalid: skipped, with the reason', async () => {
    const source = load('state/stEIP1153-transientStorage/17_tstoreGas.json');
    const good = Object.values(source)[0] as { blocks: unknown[] };
    const withInvalid = { ...good, blocks: [...good.blocks, { rlp: '0xc0', expectException: 'TR_TypeNotSupported' }] };
    const summary = await runCases({ withInvalid });
    expect(summary.outcomes.map((o) => [o.status, o.reason])).toEqual([
      ['skipped', expect.stringMatching(/block the vector expects invalid \(TR_TypeNotSupported\)/)],
    ]);
  }, 60_000);

  it('reports the first difference when the vector expects another state or another output', async () => {
    const source = load('state/stEIP1153-transientStorage/17_tstoreGas.json');
    const good = Object.values(source)[0] as { postState: Record<string, { storage: Record<string, string> }> };
    const wrong = structuredClone(good);
    // Not the beacon-roots contract: its storage is left out (and changing it must change nothing).
    const [address, account] = Object.entries(wrong.postState).find(
      ([a, { storage }]) => Object.keys(storage).length > 0 && a !== BEACON_ROOTS,
    )!;
    const [slot] = Object.keys(account.storage);
    account.storage[slot!] = '0x0badbeef';
    const beaconChanged = structuredClone(good);
    for (const s of Object.keys(beaconChanged.postState[BEACON_ROOTS]!.storage))
      beaconChanged.postState[BEACON_ROOTS]!.storage[s] = '0x01';
    const state = await runCases({ good, wrong, beaconChanged });
    expect(state.outcomes.map((o) => [o.status, o.reason])).toEqual([
      ['passed', undefined],
      ['failed', expect.stringContaining(`${address} storage ${slot}: got`)],
      ['passed', undefined],
    ]);

    const vectors = load('eip-2537/add_G1_bls.json').slice(0, 2);
    vectors[1].Expected = `${vectors[1].Expected.slice(0, -1)}${vectors[1].Expected.endsWith('0') ? '1' : '0'}`;
    vectors[0].Gas += 1;
    const precompile = await runCases(vectors, 'add_G1_bls.json');
    expect(precompile.outcomes.map((o) => [o.status, o.reason?.replace(/:.*/, '')])).toEqual([
      ['failed', 'gas'],
      ['failed', 'output'],
    ]);
  }, 60_000);
});
