/**
 * The precompiled contracts of each EVM rule set, by the names EIP-7910 (`eth_config`) reports them under. Each rule
 * set lists only what it adds: a rule set's precompiles are those of every rule set up to it, so a new fork is one
 * entry. ETC never adopted Cancun, so there is no KZG point evaluation at 0x0a.
 */
import { EVM_RULE_SETS, type EvmRuleSetName } from './forks.js';

export interface Precompile {
  /** EIP-7910's name: `ECREC`, `BN256_ADD`, `BLS12_G1ADD`, … */
  readonly name: string;
  /** 20-byte address, 0x-prefixed lowercase hex with its leading zeros. */
  readonly address: `0x${string}`;
}

const at = (n: number): `0x${string}` => `0x${n.toString(16).padStart(40, '0')}`;
const added = (entries: ReadonlyArray<readonly [number, string]>): readonly Precompile[] =>
  entries.map(([address, name]) => ({ name, address: at(address) }));

/** What each rule set adds (bastion: ECIP-1130's EIP-2537 BLS12-381 and EIP-7951 secp256r1). */
export const PRECOMPILES_ADDED: { readonly [K in EvmRuleSetName]: readonly Precompile[] } = {
  frontier: added([
    [0x01, 'ECREC'],
    [0x02, 'SHA256'],
    [0x03, 'RIPEMD160'],
    [0x04, 'ID'],
  ]),
  homestead: [],
  gasReprice: [],
  dieHard: [],
  // ECIP-1054: Byzantium's EIP-198 and EIP-196/197.
  atlantis: added([
    [0x05, 'MODEXP'],
    [0x06, 'BN256_ADD'],
    [0x07, 'BN256_MUL'],
    [0x08, 'BN256_PAIRING'],
  ]),
  agharta: [],
  // ECIP-1088: Istanbul's EIP-152.
  phoenix: added([[0x09, 'BLAKE2F']]),
  magneto: [],
  mystique: [],
  spiral: [],
  bastion: added([
    [0x0b, 'BLS12_G1ADD'],
    [0x0c, 'BLS12_G1MSM'],
    [0x0d, 'BLS12_G2ADD'],
    [0x0e, 'BLS12_G2MSM'],
    [0x0f, 'BLS12_PAIRING_CHECK'],
    [0x10, 'BLS12_MAP_FP_TO_G1'],
    [0x11, 'BLS12_MAP_FP2_TO_G2'],
    [0x100, 'P256VERIFY'],
  ]),
};

/** Every precompile in force under `ruleSet`, by ascending address. */
export function precompilesOf(ruleSet: EvmRuleSetName): readonly Precompile[] {
  const out: Precompile[] = [];
  for (const name of EVM_RULE_SETS) {
    out.push(...PRECOMPILES_ADDED[name]);
    if (name === ruleSet) break;
  }
  return out;
}

/**
 * Whether `address` (20 bytes) lies below 2^16, where precompiles sit, present and future: a value transfer there
 * runs one, so the paths that skip the EVM for a plain transfer (block assembly, gas estimation) leave these alone.
 */
export function inPrecompileRange(address: Uint8Array): boolean {
  for (let i = 0; i < 18; i++) if (address[i] !== 0) return false;
  return true;
}
