import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dev, etc, mordor } from '../../../src/chain/networks/index.js';
import {
  bombPeriodReference,
  calcDifficulty,
  difficultyBomb,
  etcRules,
  ethRules,
  type ChainRules,
} from '../../../src/chain/rules/index.js';
import { VECTORS_DIR } from '../../helpers/vectors-dir.js';

const VECTORS = VECTORS_DIR;
const hexBig = (value: string) => BigInt(value);

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsonFiles(path) : name.endsWith('.json') ? [path] : [];
  });
}

/** ethereum/tests fork names → Ethereum rules with every fork of that name at block 0. */
const ETH_NETWORK_RULES: Record<string, ChainRules> = {
  Frontier: ethRules({}),
  Homestead: ethRules({ homestead: 0n }),
  EIP150: ethRules({ homestead: 0n }),
  EIP158: ethRules({ homestead: 0n }),
  Byzantium: ethRules({ homestead: 0n, byzantium: 0n }),
  Constantinople: ethRules({ homestead: 0n, byzantium: 0n, constantinople: 0n }),
  ConstantinopleFix: ethRules({ homestead: 0n, byzantium: 0n, constantinople: 0n }),
  Istanbul: ethRules({ homestead: 0n, byzantium: 0n, constantinople: 0n }),
  Berlin: ethRules({ homestead: 0n, byzantium: 0n, constantinople: 0n, muirGlacier: 0n }),
};

describe('Ethereum DifficultyTests (ethRules)', () => {
  const files = jsonFiles(join(VECTORS, 'DifficultyTests'));
  it('finds the vector files', () => expect(files.length).toBe(4));
  for (const file of files) {
    it(file.slice(VECTORS.length + 1), () => {
      const suite = JSON.parse(readFileSync(file, 'utf8')) as Record<
        string,
        Record<string, Record<string, Record<string, string>>>
      >;
      let checked = 0;
      for (const group of Object.values(suite)) {
        for (const [fork, cases] of Object.entries(group)) {
          if (fork === '_info') continue;
          const rules = ETH_NETWORK_RULES[fork];
          expect(rules, `rules for ${fork}`).toBeDefined();
          for (const [name, c] of Object.entries(cases)) {
            const parent = {
              number: hexBig(c.currentBlockNumber!) - 1n,
              timestamp: hexBig(c.parentTimestamp!),
              difficulty: hexBig(c.parentDifficulty!),
              hasUncles: hexBig(c.parentUncles!) !== 0n,
            };
            expect(calcDifficulty(rules!.difficulty, parent, hexBig(c.currentTimestamp!)), name).toBe(
              hexBig(c.currentDifficulty!),
            );
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThanOrEqual(1000);
    });
  }
});

describe('difficulty in BlockchainTests chains (ethRules, Frontier … Berlin)', () => {
  it('every valid block carries the difficulty computed from its parent', () => {
    let checked = 0;
    for (const file of jsonFiles(join(VECTORS, 'BlockchainTests'))) {
      const suite = JSON.parse(readFileSync(file, 'utf8')) as Record<
        string,
        {
          network: string;
          genesisBlockHeader: Record<string, string>;
          blocks: { blockHeader?: Record<string, string> }[];
        }
      >;
      for (const [name, test] of Object.entries(suite)) {
        const rules = ETH_NETWORK_RULES[test.network];
        if (rules === undefined) continue; // London+ (EIP-1559, PoS): not ETC material
        const byHash = new Map<string, Record<string, string>>([
          [test.genesisBlockHeader.hash!, test.genesisBlockHeader],
        ]);
        for (const { blockHeader } of test.blocks) {
          if (blockHeader === undefined) continue;
          byHash.set(blockHeader.hash!, blockHeader);
          const parent = byHash.get(blockHeader.parentHash!);
          if (parent === undefined) continue;
          const expected = calcDifficulty(
            rules.difficulty,
            {
              number: hexBig(parent.number!),
              timestamp: hexBig(parent.timestamp!),
              difficulty: hexBig(parent.difficulty!),
              hasUncles: parent.uncleHash !== '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
            },
            hexBig(blockHeader.timestamp!),
          );
          expect(expected, `${name} block ${hexBig(blockHeader.number!)}`).toBe(hexBig(blockHeader.difficulty!));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

describe('ETC difficulty (etcRules)', () => {
  const mainnet = etcRules(etc).difficulty;

  it('reproduces mainnet blocks 1 and 2 (Frontier rule, shared with Ethereum)', () => {
    // Genesis: difficulty 2^34, timestamp 0. Block 1 at 1438269988, block 2 at 1438270017.
    const d1 = calcDifficulty(
      mainnet,
      { number: 0n, timestamp: 0n, difficulty: 0x400000000n, hasUncles: false },
      1438269988n,
    );
    expect(d1).toBe(17_171_480_576n);
    const d2 = calcDifficulty(
      mainnet,
      { number: 1n, timestamp: 1438269988n, difficulty: d1, hasUncles: false },
      1438270017n,
    );
    expect(d2).toBe(17_163_096_064n);
  });

  it('pauses the bomb at Die Hard (ECIP-1010), resumes it 2M blocks late, and removes it at Defuse (ECIP-1041)', () => {
    expect(bombPeriodReference(mainnet, 2_999_999n)).toBe(2_999_999n);
    expect(bombPeriodReference(mainnet, 3_000_000n)).toBe(3_000_000n);
    expect(bombPeriodReference(mainnet, 4_999_999n)).toBe(3_000_000n);
    expect(bombPeriodReference(mainnet, 5_000_000n)).toBe(3_000_000n);
    expect(bombPeriodReference(mainnet, 5_899_999n)).toBe(3_899_999n);
    expect(bombPeriodReference(mainnet, 5_900_000n)).toBeNull();
    expect(difficultyBomb(mainnet, 4_500_000n)).toBe(2n ** 28n); // 3,000,000/100,000 − 2 = 28
    expect(difficultyBomb(mainnet, 5_800_000n)).toBe(2n ** 36n); // (5.8M − 2M)/100k − 2 = 36
    expect(difficultyBomb(mainnet, 9_000_000n)).toBe(0n);
    // Ethereum's EIP-649 delay never applied on ETC: Atlantis changes the adjustment only.
    const parent = { number: 8_771_999n, timestamp: 1000n, difficulty: 150_000_000_000_000n, hasUncles: true };
    const q = parent.difficulty / 2048n;
    expect(calcDifficulty(mainnet, parent, 1009n)).toBe(parent.difficulty + q * (2n - 1n)); // EIP-100 with uncles
    expect(calcDifficulty(mainnet, { ...parent, number: 8_770_000n }, 1009n)).toBe(parent.difficulty + q * (1n - 0n)); // EIP-2 before
  });

  it('clamps at the minimum difficulty before adding the bomb', () => {
    const early = { number: 200_000n, timestamp: 0n, difficulty: 131_072n, hasUncles: false };
    expect(calcDifficulty(mainnet, early, 100n)).toBe(131_072n + 1n); // Frontier: −q, clamped, then bomb 2^0
    expect(calcDifficulty(etcRules(mordor).difficulty, { ...early, number: 5_000_000n }, 10_000n)).toBe(131_072n); // no bomb on Mordor
  });

  it('stays pinned at the dev minimum whatever the block time', () => {
    const rules = etcRules(dev).difficulty;
    const genesis = { number: 0n, timestamp: 0n, difficulty: dev.genesis.header.difficulty, hasUncles: false };
    for (const [dt, uncles] of [
      [1n, false],
      [1n, true],
      [100n, false],
      [100_000n, true],
    ] as const) {
      expect(calcDifficulty(rules, { ...genesis, number: 40_000_000n, hasUncles: uncles }, dt)).toBe(
        dev.pow.minimumDifficulty,
      );
    }
  });
});
