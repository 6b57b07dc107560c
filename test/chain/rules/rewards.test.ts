import { describe, expect, it } from 'vitest';
import { etc, mordor, dev } from '../../../src/chain/networks/index.js';
import { blockRewards, eraBlockReward, eraOf, etcRules, ethRules } from '../../../src/chain/rules/index.js';

const ETC = 10n ** 18n;
const milli = (n: bigint) => (n * ETC) / 1000n;

describe('ECIP-1017 rewards', () => {
  const mainnet = etcRules(etc).rewards;
  const testnet = etcRules(mordor).rewards;

  it('reduce 20% per era, first at block 5,000,001 (Mordor 2,000,001)', () => {
    const reward = (config: typeof mainnet, n: bigint) => blockRewards(config, n, []).miner;
    expect(reward(mainnet, 1n)).toBe(5n * ETC);
    expect(reward(mainnet, 5_000_000n)).toBe(5n * ETC);
    expect(reward(mainnet, 5_000_001n)).toBe(4n * ETC);
    expect(reward(mainnet, 10_000_000n)).toBe(4n * ETC);
    expect(reward(mainnet, 10_000_001n)).toBe(milli(3200n));
    expect(reward(mainnet, 15_000_001n)).toBe(milli(2560n));
    expect(reward(mainnet, 20_000_001n)).toBe(milli(2048n));
    expect(reward(mainnet, 25_000_001n)).toBe(16_384n * 10n ** 14n); // 1.6384 ETC, era 5
    expect(reward(testnet, 2_000_000n)).toBe(5n * ETC);
    expect(reward(testnet, 2_000_001n)).toBe(4n * ETC);
    expect(reward(etcRules(dev).rewards, 1n)).toBe(5n * ETC);
    expect([eraOf(0n, 5_000_000n), eraOf(5_000_000n, 5_000_000n), eraOf(5_000_001n, 5_000_000n)]).toEqual([0n, 0n, 1n]);
  });

  it('round once per era (ECIP-1039), not once per step', () => {
    let stepwise = 5n * ETC;
    for (let era = 1n; era <= 40n; era++) stepwise = (stepwise * 4n) / 5n;
    expect(eraBlockReward(40n)).toBe((5n * ETC * 4n ** 40n) / 5n ** 40n);
    expect(eraBlockReward(40n)).not.toBe(stepwise);
  });

  it('pay uncles by depth in era 0 and a flat 1/32 from era 1', () => {
    // Pre-Gotham (plain Ethash) at 4,999,999 and era 0 under Gotham give the same numbers.
    for (const n of [4_999_999n, 5_000_000n]) {
      const r = blockRewards(mainnet, n, [{ number: n - 1n }, { number: n - 6n }]);
      expect(r.miner).toBe(5n * ETC + 2n * ((5n * ETC) / 32n));
      expect(r.uncles).toEqual([(7n * 5n * ETC) / 8n, (2n * 5n * ETC) / 8n]);
    }
    const era1 = blockRewards(mainnet, 5_000_001n, [{ number: 5_000_000n }, { number: 4_999_995n }]);
    expect(era1.miner).toBe(4n * ETC + 2n * milli(125n));
    expect(era1.uncles).toEqual([milli(125n), milli(125n)]);
    const era2 = blockRewards(mainnet, 10_000_001n, [{ number: 10_000_000n }]);
    expect(era2.uncles).toEqual([milli(100n)]);
    expect(era2.miner).toBe(milli(3300n));
  });
});

describe('Ethereum rewards (ethRules)', () => {
  it('follow the 5/3/2 ETH schedule with depth-scaled uncles', () => {
    const rules = ethRules({ homestead: 0n, byzantium: 10n, constantinople: 20n }).rewards;
    expect(blockRewards(rules, 9n, []).miner).toBe(5n * ETC);
    expect(blockRewards(rules, 10n, []).miner).toBe(3n * ETC);
    const r = blockRewards(rules, 20n, [{ number: 19n }]);
    expect(r.miner).toBe(2n * ETC + (2n * ETC) / 32n);
    expect(r.uncles).toEqual([(7n * 2n * ETC) / 8n]);
  });
});
