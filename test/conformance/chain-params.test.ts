/** test_setChainParams' parsing: fork names, transitions, the classic dialect, number encodings, rules per block. */
import { describe, expect, it } from 'vitest';
import { createBlockHeader } from '@ethereumjs/block';
import { parseChainParams } from '../../src/chain/testing/chain-params.js';
import { ethHardforkAt } from '../../src/chain/testing/eth-rules.js';
import { parseForkName, parseForkParams } from '../../src/chain/testing/fork-schedule.js';
import { testQuantity } from '../../src/chain/testing/quantity.js';

const genesis = {
  author: '0x8888f1f195afa192cfee860698584c030f4c9db1',
  difficulty: '0x020000',
  gasLimit: '0x2fefd8',
  extraData: '0x',
  timestamp: '0',
  nonce: '0x0000000000000000',
  mixHash: `0x${'00'.repeat(32)}`,
};

describe('retesteth numbers', () => {
  it('accepts JSON numbers, decimal strings and hex with leading zeros', () => {
    expect(testQuantity(1000)).toBe(1000n);
    expect(testQuantity('1000')).toBe(1000n);
    expect(testQuantity('0x0003e8')).toBe(1000n);
    expect(testQuantity('0x')).toBe(0n);
    expect(() => testQuantity('12a')).toThrow(/neither/);
  });
});

describe('fork params', () => {
  it('maps Ethereum fork names to the forks in force from block 0', () => {
    const istanbul = parseForkName('Istanbul');
    expect(istanbul.kind).toBe('eth');
    if (istanbul.kind !== 'eth') return;
    expect(ethHardforkAt(istanbul.schedule, 0n)).toBe('istanbul');
    expect(istanbul.schedule.muirGlacier).toBeUndefined();
    const fix = parseForkName('ConstantinopleFix');
    if (fix.kind === 'eth') expect(ethHardforkAt(fix.schedule, 0n)).toBe('petersburg');
  });

  it('switches rules at the block a transition name gives', () => {
    const t = parseForkName('FrontierToHomesteadAt5');
    if (t.kind !== 'eth') throw new Error('expected Ethereum rules');
    expect(ethHardforkAt(t.schedule, 4n)).toBe('chainstart');
    expect(ethHardforkAt(t.schedule, 5n)).toBe('homestead');
    const dao = parseForkName('HomesteadToDaoAt5');
    if (dao.kind === 'eth') expect(dao.schedule).toEqual({ homestead: 0n, dao: 5n });
  });

  it('reads the classic dialect, absent = never', () => {
    const p = parseForkParams({
      homesteadForkBlock: '0x00',
      EIP150ForkBlock: 2,
      byzantiumForkBlock: '10',
      chainID: '0x01',
    });
    if (p.kind !== 'eth') throw new Error('expected Ethereum rules');
    expect(p.schedule).toEqual({ homestead: 0n, tangerineWhistle: 2n, byzantium: 10n });
    expect(ethHardforkAt(p.schedule, 9n)).toBe('tangerineWhistle');
  });

  it('refuses London and unknown names, takes ETC_ names and +EIP suffixes', () => {
    expect(() => parseForkName('London')).toThrow(/no London/);
    expect(() => parseForkName('BerlinToLondonAt5')).toThrow(/no London/);
    expect(() => parseForkName('Byzantium2')).toThrow(/unknown fork name/);
    expect(parseForkName('ETC_Magneto')).toEqual({ kind: 'etc', fork: 'Magneto', eips: [] });
    expect(parseForkName('Istanbul+2929').eips).toEqual([2929]);
  });

  it('ETC_Bastion: every ETC upgrade through Bastion from block 0, on the Bastion rule set', () => {
    expect(parseForkName('ETC_Bastion')).toEqual({ kind: 'etc', fork: 'Bastion', eips: [] });
    const spec = parseChainParams({ genesis, params: { fork: 'ETC_Bastion' }, accounts: {} });
    expect([spec.definition.forks.spiral, spec.definition.forks.bastion]).toEqual([0n, 0n]);
    expect(spec.rules.commonAt(1n).isActivatedEIP(1153)).toBe(true);
    expect(spec.rules.commonAt(1n).isActivatedEIP(1559)).toBe(false);
    const spiral = parseChainParams({ genesis, params: { fork: 'ETC_Spiral' }, accounts: {} });
    expect([spiral.definition.forks.spiral, spiral.definition.forks.bastion]).toEqual([0n, null]);
    expect(spiral.rules.commonAt(1n).isActivatedEIP(3855)).toBe(true);
    expect(spiral.rules.commonAt(1n).isActivatedEIP(1153)).toBe(false);
  });
});

describe('chain rules of a test chain', () => {
  it('NoReward credits nothing but still touches the coinbase before EIP-158', () => {
    const frontier = parseChainParams({ genesis, params: { fork: 'Frontier' }, sealEngine: 'NoReward', accounts: {} });
    const berlin = parseChainParams({ genesis, params: { fork: 'Berlin' }, sealEngine: 'NoReward', accounts: {} });
    const header = (spec: typeof frontier) =>
      createBlockHeader({ number: 1n, coinbase: genesis.author as `0x${string}` }, { common: spec.rules.commonAt(1n) });
    expect(frontier.rules.rewards(header(frontier), []).map((r) => r.amount)).toEqual([0n]);
    expect(berlin.rules.rewards(header(berlin), [])).toEqual([]);
  });

  it('pays Ethereum rewards by fork: 5 ETH Frontier, 2 ETH from Constantinople', () => {
    const reward = (fork: string) => {
      const spec = parseChainParams({ genesis, params: { fork }, accounts: {} });
      const h = createBlockHeader({ number: 1n }, { common: spec.rules.commonAt(1n) });
      return spec.rules.rewards(h, [])[0].amount;
    };
    expect(reward('Frontier')).toBe(5n * 10n ** 18n);
    expect(reward('Byzantium')).toBe(3n * 10n ** 18n);
    expect(reward('ConstantinopleFix')).toBe(2n * 10n ** 18n);
  });

  it('a DAO chain demands the dao-hard-fork extra data in its first ten blocks', async () => {
    const spec = parseChainParams({ genesis, params: { fork: 'HomesteadToDaoAt2' }, accounts: {} });
    const common = spec.rules.commonAt(2n);
    const parent = createBlockHeader(
      { number: 1n, timestamp: 100n, difficulty: 131072n, gasLimit: 3_000_000n },
      { common },
    );
    const child = (extraData: Uint8Array) =>
      createBlockHeader(
        {
          number: 2n,
          parentHash: parent.hash(),
          timestamp: 101n,
          difficulty: spec.rules.difficulty(parent, 101n),
          gasLimit: 3_000_000n,
          extraData,
        },
        { common },
      );
    expect(await spec.rules.validateHeader(parent, child(new Uint8Array(0)))).toMatch(/DAO fork block 2/);
    expect(await spec.rules.validateHeader(parent, child(new TextEncoder().encode('dao-hard-fork')))).toBeUndefined();
  });

  it('refuses an unknown seal engine', () => {
    expect(() => parseChainParams({ genesis, params: { fork: 'Berlin' }, sealEngine: 'Clique', accounts: {} })).toThrow(
      /unknown seal engine Clique/,
    );
  });
});
