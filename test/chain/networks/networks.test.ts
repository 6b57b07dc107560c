import { describe, expect, it } from 'vitest';
import { dev, etc, getNetwork, mordor, NETWORK_NAMES, type EtcForkName } from '../../../src/chain/networks/index.js';

const FORK_ORDER: EtcForkName[] = [
  'homestead',
  'gasReprice',
  'dieHard',
  'gotham',
  'defuse',
  'atlantis',
  'agharta',
  'phoenix',
  'thanos',
  'magneto',
  'mystique',
  'spiral',
];
/** Drafts: named in every schedule, no block on any network until their ECIP sets one. */
const DRAFT_FORKS: EtcForkName[] = ['bastion'];

describe('network definitions', () => {
  it('carry the chain ids, devp2p network ids and net_version strings', () => {
    expect([dev.chainId, dev.networkId, dev.netVersion]).toEqual([1337n, 1337n, '1337']);
    expect([mordor.chainId, mordor.networkId, mordor.netVersion]).toEqual([63n, 7n, '63']);
    expect([etc.chainId, etc.networkId, etc.netVersion]).toEqual([61n, 1n, '61']);
    expect(NETWORK_NAMES.map((name) => getNetwork(name))).toEqual([dev, mordor, etc]);
    expect(() => getNetwork('ropsten')).toThrow(/Unknown network/);
  });

  it('schedule each upgrade no earlier than the ones it builds on', () => {
    for (const network of [dev, mordor, etc]) {
      expect(Object.keys(network.forks).sort()).toEqual([...FORK_ORDER, ...DRAFT_FORKS].sort());
      for (const draft of DRAFT_FORKS) expect(network.forks[draft]).toBeNull();
      const blocks = FORK_ORDER.map((name) => network.forks[name]);
      expect(blocks.every((b) => b !== null)).toBe(true);
      for (let i = 1; i < blocks.length; i++) expect(blocks[i]! >= blocks[i - 1]!).toBe(true);
      expect(network.pow.ecip1099Block).toBe(network.forks.thanos);
    }
  });

  it('match the published ETC and Mordor activation blocks', () => {
    expect(etc.forks).toEqual({
      homestead: 1_150_000n,
      gasReprice: 2_500_000n,
      dieHard: 3_000_000n,
      gotham: 5_000_000n,
      defuse: 5_900_000n,
      atlantis: 8_772_000n,
      agharta: 9_573_000n,
      phoenix: 10_500_839n,
      thanos: 11_700_000n,
      magneto: 13_189_133n,
      mystique: 14_525_000n,
      spiral: 19_250_000n,
      bastion: null,
    });
    expect(mordor.forks.agharta).toBe(301_243n);
    expect(mordor.forks.spiral).toBe(9_957_000n);
    expect([etc.eraLength, mordor.eraLength]).toEqual([5_000_000n, 2_000_000n]);
    expect([etc.pow.minimumDifficulty, mordor.pow.minimumDifficulty]).toEqual([131_072n, 131_072n]);
  });

  it('dev has everything from block 0 and a pinned low difficulty', () => {
    expect(FORK_ORDER.every((name) => dev.forks[name] === 0n)).toBe(true);
    expect(dev.genesis.header.difficulty).toBe(dev.pow.minimumDifficulty);
    expect(dev.pow.minimumDifficulty).toBeLessThan(2048n); // below 2048 the adjustment step is 0
    expect(dev.pow.minimumDifficulty).toBeGreaterThan(1n); // 2^256/difficulty must fit 32 bytes
  });
});
