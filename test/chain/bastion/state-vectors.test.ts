/**
 * ethereum/tests' Cancun vectors for EIP-1153, EIP-5656 and EIP-6780 on the Bastion rule set, and the Shanghai cases
 * of the same files on Spiral (they pin the behaviour before Bastion), compared account by account (see
 * state-vectors.ts for what is left out and why). Fixtures: test/fixtures/bastion/state (a subset, see its README).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dev } from '../../../src/chain/networks/index.js';
import { evmRulesFor } from '../../../src/chain/rules/index.js';
import { type BlockchainCase, runBlockchainCase } from './state-vectors.js';

const ROOT = join(import.meta.dirname, '../../fixtures/bastion/state');
const bastionDev = { ...dev, forks: { ...dev.forks, bastion: 0n } };
const BASTION_PRECOMPILES = new Set([0x0bn, 0x0cn, 0x0dn, 0x0en, 0x0fn, 0x10n, 0x11n, 0x100n]);
const RULES = { Cancun: 'bastion', Shanghai: 'spiral' } as const;

/** Folder → [Cancun cases passing, of them with 0x100 taken out, Shanghai cases passing on Spiral]: exact, so a case that stops running fails the test. */
const EXPECTED: ReadonlyArray<readonly [string, number, number, number]> = [
  ['stEIP1153-transientStorage', 6, 0, 0],
  ['eip1153_tstore', 0, 13, 0],
  ['stEIP5656-MCOPY', 26, 0, 0],
  ['eip5656_mcopy', 0, 8, 0],
  ['eip6780_selfdestruct', 20, 0, 14],
];

describe('Cancun EVM vectors on Bastion (EIP-1153, 5656, 6780)', () => {
  it.each(EXPECTED)(
    '%s',
    async (folder, cancun, shadowedCancun, shanghai) => {
      const passed = { Cancun: 0, Shanghai: 0 };
      const failed: string[] = [];
      let withoutP256 = 0;
      for (const file of readdirSync(join(ROOT, folder))
        .filter((f) => f.endsWith('.json'))
        .sort()) {
        const cases = JSON.parse(readFileSync(join(ROOT, folder, file), 'utf8')) as Record<string, BlockchainCase>;
        for (const [name, c] of Object.entries(cases)) {
          const network = c.network as keyof typeof RULES;
          if (!(network in RULES)) continue;
          // Pyspecs place test contracts from 0x…0100 up: on Bastion that address is P256VERIFY (EIP-7951, an Osaka
          // precompile Cancun did not have), so those cases run with that one precompile taken out, and are counted apart.
          const shadowed = Object.keys(c.pre)
            .map((a) => BigInt(a))
            .filter((a) => network === 'Cancun' && BASTION_PRECOMPILES.has(a));
          const r = await runBlockchainCase(c, evmRulesFor(bastionDev, RULES[network]), shadowed);
          if (r.ok && shadowed.length > 0) withoutP256++;
          else if (r.ok) passed[network]++;
          else failed.push(`${name}: ${r.diff}`);
        }
      }
      console.log(
        `${folder}: Cancun on bastion ${passed.Cancun}, Shanghai on spiral ${passed.Shanghai}, failed ${failed.length}, Cancun on bastion without 0x100 ${withoutP256}`,
      );
      expect(failed).toEqual([]);
      expect([passed.Cancun, withoutP256, passed.Shanghai]).toEqual([cancun, shadowedCancun, shanghai]);
    },
    300_000,
  );
});
