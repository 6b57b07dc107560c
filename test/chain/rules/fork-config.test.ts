/**
 * eth_config's table (src/chain/rules/fork-config.ts, precompiles.ts): which forks are current, next and last, their
 * fork hashes against the published ETC/Mordor ones p2p checks, and the precompiles of each rule set against the ones
 * @ethereumjs/evm actually runs for it.
 */
import { getActivePrecompiles } from '@ethereumjs/evm';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { dev, etc, mordor } from '../../../src/chain/networks/index.js';
import type { NetworkDefinition } from '../../../src/chain/networks/types.js';
import { ForkIdTable, forkBlocksOf } from '../../../src/chain/rules/fork-id.js';
import { forkConfigsOf } from '../../../src/chain/rules/fork-config.js';
import { EVM_RULE_SETS, evmRulesFor } from '../../../src/chain/rules/index.js';
import { PRECOMPILES_ADDED, precompilesOf } from '../../../src/chain/rules/precompiles.js';

const ETC_GENESIS = hexToBytes('0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3');
const MORDOR_GENESIS = hexToBytes('0xa68ebde7932eccb177d38d55dcc6461a019dd795a681e59b5a3e4f3a7259a3f1');
const hash = (bytes: Uint8Array) => bytesToHex(bytes).slice(2);
const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

describe('precompiles per rule set', () => {
  it('Spiral has ECREC…BLAKE2F at 0x01–0x09 and no KZG point evaluation', () => {
    expect(precompilesOf('spiral')).toEqual(
      ['ECREC', 'SHA256', 'RIPEMD160', 'ID', 'MODEXP', 'BN256_ADD', 'BN256_MUL', 'BN256_PAIRING', 'BLAKE2F'].map(
        (name, i) => ({ name, address: addr(i + 1) }),
      ),
    );
  });

  it('each rule set adds its own: frontier 4, atlantis the BN256 and MODEXP four, phoenix BLAKE2F', () => {
    expect(precompilesOf('frontier').map((p) => p.address)).toEqual([1, 2, 3, 4].map(addr));
    expect(precompilesOf('dieHard')).toEqual(precompilesOf('frontier'));
    expect(precompilesOf('atlantis').map((p) => p.name)).toContain('BN256_PAIRING');
    expect(precompilesOf('agharta')).toHaveLength(8);
    expect(precompilesOf('phoenix')).toHaveLength(9);
  });

  it("matches, for every rule set, the addresses @ethereumjs/evm runs under that rule set's Common", () => {
    for (const ruleSet of EVM_RULE_SETS) {
      const running = [...getActivePrecompiles(evmRulesFor(dev, ruleSet)).keys()].map(
        (a) => `0x${a.replace(/^0x/, '')}`,
      );
      expect(
        precompilesOf(ruleSet).map((p) => p.address),
        ruleSet,
      ).toEqual(running.sort());
    }
  });

  it("Bastion's entry is ECIP-1130's BLS12-381 (0x0b–0x11) and P256VERIFY (0x100)", () => {
    expect(PRECOMPILES_ADDED.bastion.map((p) => [p.address, p.name])).toEqual([
      [addr(0x0b), 'BLS12_G1ADD'],
      [addr(0x0c), 'BLS12_G1MSM'],
      [addr(0x0d), 'BLS12_G2ADD'],
      [addr(0x0e), 'BLS12_G2MSM'],
      [addr(0x0f), 'BLS12_PAIRING_CHECK'],
      [addr(0x10), 'BLS12_MAP_FP_TO_G1'],
      [addr(0x11), 'BLS12_MAP_FP2_TO_G2'],
      [addr(0x100), 'P256VERIFY'],
    ]);
  });
});

describe('current, next and last fork', () => {
  it('Mordor at genesis: current = the block-0 rules, next Agharta, last Spiral, with the fork hashes peers send', () => {
    const { current, next, last } = forkConfigsOf(mordor, MORDOR_GENESIS, 0n);
    expect([current.name, current.activationBlock, hash(current.forkHash)]).toEqual(['atlantis', 0n, '175782aa']);
    expect(current.chainId).toBe(63n);
    expect([next?.name, next?.activationBlock]).toEqual(['agharta', 301_243n]);
    expect([last?.name, last?.activationBlock, hash(last!.forkHash)]).toEqual(['spiral', 9_957_000n, '3a6b00d7']);
  });

  it('ETC mainnet one block before Spiral: next = last = Spiral; from Spiral on, nothing ahead', () => {
    const before = forkConfigsOf(etc, ETC_GENESIS, 19_249_999n);
    expect(before.current.name).toBe('mystique');
    expect(before.next?.name).toBe('spiral');
    expect(before.last).toEqual(before.next);
    const after = forkConfigsOf(etc, ETC_GENESIS, 19_250_000n);
    expect([after.current.name, after.current.activationBlock, after.next, after.last]).toEqual([
      'spiral',
      19_250_000n,
      null,
      null,
    ]);
    expect(after.current.forkHash).toEqual(before.next!.forkHash);
  });

  it('the forks p2p counts are the forks reported: each fork hash is the STATUS hash once it is active', () => {
    const table = new ForkIdTable(ETC_GENESIS, forkBlocksOf(etc));
    for (const block of table.forks) {
      const { current } = forkConfigsOf(etc, ETC_GENESIS, block);
      expect(current.activationBlock, `${block}`).toBe(block);
      expect(current.forkHash, `${block}`).toEqual(table.at(block).hash);
    }
    // Gotham changes rewards only: a fork of its own with the rule set it runs (Die Hard's).
    const gotham = forkConfigsOf(etc, ETC_GENESIS, etc.forks.gotham!).current;
    expect([gotham.name, gotham.ruleSet]).toEqual(['gotham', 'dieHard']);
  });

  it('a dev chain with Spiral moved to block 10 reports it as next before 10 and as current from 10', () => {
    const moved: NetworkDefinition = { ...dev, forks: { ...dev.forks, spiral: 10n } };
    const genesis = new Uint8Array(32).fill(7);
    const before = forkConfigsOf(moved, genesis, 9n);
    expect([before.current.name, before.current.activationBlock, before.current.ruleSet]).toEqual([
      'mystique',
      0n,
      'mystique',
    ]);
    expect([before.next?.name, before.next?.activationBlock]).toEqual(['spiral', 10n]);
    const after = forkConfigsOf(moved, genesis, 10n);
    expect([after.current.name, after.next]).toEqual(['spiral', null]);
    expect(after.current.forkHash).toEqual(before.next!.forkHash);
    expect(after.current.forkHash).not.toEqual(before.current.forkHash);
  });
});
