/**
 * The test vectors published with Bastion's precompile EIPs, run through the Bastion rule set's EVM (a CALL to the
 * precompile's address): output and gas as the vector says, failures as an exceptional halt that burns the gas.
 * Sources (copied unedited into test/fixtures/bastion/, see its README.md): ethereum/EIPs assets for EIP-2537 and
 * EIP-7951; for EIP-7883 go-ethereum's modexp_eip7883.json, whose 29 named cases carry the gas of EIP-7883's table.
 * The same calls on the Spiral rule set reach no precompile (an empty account: empty output, no gas).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Common } from '@ethereumjs/common';
import { createEVM, type EVM } from '@ethereumjs/evm';
import { bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { beforeAll, describe, expect, it } from 'vitest';
import { dev } from '../../../src/chain/networks/index.js';
import { evmRulesFor } from '../../../src/chain/rules/index.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/bastion');
const bastionDev = { ...dev, forks: { ...dev.forks, bastion: 0n } };

interface Vector {
  readonly Input: string;
  readonly Expected?: string;
  readonly ExpectedError?: string;
  readonly Gas?: number;
  readonly Name: string;
}
const load = (path: string): Vector[] => JSON.parse(readFileSync(join(FIXTURES, path), 'utf8')) as Vector[];

/** EIP-2537's addresses (final numbering: MUL is an MSM of one pair). */
const BLS: ReadonlyArray<readonly [file: string, address: number]> = [
  ['add_G1_bls', 0x0b],
  ['mul_G1_bls', 0x0c],
  ['add_G2_bls', 0x0d],
  ['mul_G2_bls', 0x0e],
  ['pairing_check_bls', 0x0f],
  ['map_fp_to_G1_bls', 0x10],
  ['map_fp2_to_G2_bls', 0x11],
];
const BLS_FAIL: ReadonlyArray<readonly [file: string, address: number]> = [
  ['fail-add_G1_bls', 0x0b],
  ['fail-mul_G1_bls', 0x0c],
  ['fail-msm_G1_bls', 0x0c],
  ['fail-add_G2_bls', 0x0d],
  ['fail-mul_G2_bls', 0x0e],
  ['fail-msm_G2_bls', 0x0e],
  ['fail-pairing_check_bls', 0x0f],
  ['fail-map_fp_to_G1_bls', 0x10],
  ['fail-map_fp2_to_G2_bls', 0x11],
];
/** EIP-7951's text: 6900 gas (its test-vectors.json still says 3450, RIP-7212's price). */
const P256_GAS = 6900n;
const GAS_LIMIT = 10_000_000n;

const addressOf = (n: number) => createAddressFromString(`0x${n.toString(16).padStart(40, '0')}`);

async function call(evm: EVM, address: number, input: string) {
  const r = await evm.runCall({ to: addressOf(address), data: hexToBytes(`0x${input}`), gasLimit: GAS_LIMIT });
  return {
    output: bytesToHex(r.execResult.returnValue).slice(2),
    gas: r.execResult.executionGasUsed,
    error: r.execResult.exceptionError?.error,
  };
}

let bastion: EVM;
let spiral: EVM;
const evmOf = (common: Common) => createEVM({ common });

describe('Bastion precompile vectors (EIP-2537, EIP-7883, EIP-7951)', () => {
  beforeAll(async () => {
    bastion = await evmOf(evmRulesFor(bastionDev, 'bastion'));
    spiral = await evmOf(evmRulesFor(bastionDev, 'spiral'));
  });

  it.each(BLS)('EIP-2537 %s (precompile %i): output and gas', async (file, address) => {
    const vectors = load(`eip-2537/${file}.json`);
    let passed = 0;
    for (const v of vectors) {
      const r = await call(bastion, address, v.Input);
      expect({ name: v.Name, ...r }).toEqual({
        name: v.Name,
        output: v.Expected,
        gas: BigInt(v.Gas!),
        error: undefined,
      });
      passed++;
    }
    expect(passed).toBe(vectors.length);
    const before = await call(spiral, address, vectors[0]!.Input);
    expect(before).toEqual({ output: '', gas: 0n, error: undefined });
  });

  it.each(BLS_FAIL)(
    'EIP-2537 %s (precompile %i): an exceptional halt that takes all the gas',
    async (file, address) => {
      for (const v of load(`eip-2537/${file}.json`)) {
        const r = await call(bastion, address, v.Input);
        expect({ name: v.Name, failed: r.error !== undefined, gas: r.gas }).toEqual({
          name: v.Name,
          failed: true,
          gas: GAS_LIMIT,
        });
      }
    },
  );

  it('EIP-7883 MODEXP prices (and EIP-7823 bounds) on go-ethereum/EIP-7883 vectors', async () => {
    const vectors = load('eip-7883/modexp_eip7883.json');
    expect(vectors).toHaveLength(45);
    for (const v of vectors) {
      const r = await call(bastion, 0x05, v.Input);
      expect({ name: v.Name, ...r }).toEqual({
        name: v.Name,
        output: v.Expected,
        gas: BigInt(v.Gas!),
        error: undefined,
      });
    }
    // EIP-7883's table, first row: 200 gas before (EIP-2565), 500 from Bastion.
    const first = vectors.find((v) => v.Name === 'nagydani-1-square')!;
    expect((await call(spiral, 0x05, first.Input)).gas).toBe(200n);
    // EIP-7823: a 1025-byte base fails from Bastion.
    const tooLong = `${(1025).toString(16).padStart(64, '0')}${'1'.padStart(64, '0')}${'1'.padStart(64, '0')}`;
    expect((await call(bastion, 0x05, `${tooLong}${'02'.repeat(1027)}`)).error).toBeDefined();
    expect((await call(spiral, 0x05, `${tooLong}${'02'.repeat(1027)}`)).error).toBeUndefined();
  });

  it('EIP-7951 P256VERIFY at 0x100: every published vector', async () => {
    const vectors = load('eip-7951/test-vectors.json');
    let passed = 0;
    for (const v of vectors) {
      const r = await call(bastion, 0x100, v.Input);
      expect({ name: v.Name, ...r }).toEqual({ name: v.Name, output: v.Expected, gas: P256_GAS, error: undefined });
      passed++;
    }
    expect(passed).toBe(781);
    expect(await call(spiral, 0x100, vectors[0]!.Input)).toEqual({ output: '', gas: 0n, error: undefined });
  });
});
