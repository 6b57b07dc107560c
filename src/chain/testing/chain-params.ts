/**
 * test_setChainParams' object (retesteth, product-behaviour §7.3) → what the engine opens a chain with: a network
 * definition (identity + genesis + pre-state) and the chain rules of the named forks, plus the seal engine.
 */
import { hexToBytes } from '@ethereumjs/util';
import { etcEngineRules } from '../engine/engine-adapters.js';
import type { ChainRules } from '../rules/engine-types.js';
import type { EtcForkSchedule, GenesisAccount, NetworkDefinition } from '../networks/types.js';
import { ethTestRules } from './eth-rules.js';
import {
  ChainParamsError,
  ETC_TEST_FORKS,
  parseForkParams,
  type EtcTestFork,
  type EthForkSchedule,
} from './fork-schedule.js';
import { bigintToBytes, testBytes, testQuantity, TestQuantityError } from './quantity.js';

export type SealEngine = 'NoProof' | 'NoReward' | 'Ethash';
export const SEAL_ENGINES: readonly SealEngine[] = ['NoProof', 'NoReward', 'Ethash'];

type Quantity = number | string;

/** The wire shape (already checked against the ChainParams schema by the dispatcher). */
export interface ChainParamsInput {
  readonly genesis: {
    readonly author: string;
    readonly difficulty: Quantity;
    readonly gasLimit: Quantity;
    readonly extraData: string;
    readonly timestamp: Quantity;
    readonly nonce: string;
    readonly mixHash: string;
  };
  readonly params: Readonly<Record<string, unknown>>;
  readonly sealEngine?: string;
  readonly accounts: Readonly<
    Record<
      string,
      {
        readonly balance?: Quantity;
        readonly code?: string;
        readonly nonce?: Quantity;
        readonly storage?: Readonly<Record<string, Quantity>>;
      }
    >
  >;
}

export interface TestChainSpec {
  readonly definition: NetworkDefinition;
  readonly rules: ChainRules;
  readonly sealEngine: SealEngine;
  /** genesis.author: the test miner's etherbase. */
  readonly coinbase: Uint8Array;
  /** What the fork params said, for logs. */
  readonly description: string;
}

/** Ethereum's minimum difficulty (the vectors' genesis difficulty is usually exactly this, 0x020000). */
const MINIMUM_DIFFICULTY = 131_072n;

export function parseChainParams(input: ChainParamsInput): TestChainSpec {
  try {
    return parse(input);
  } catch (err) {
    if (err instanceof TestQuantityError) throw new ChainParamsError(err.message);
    throw err;
  }
}

function parse(input: ChainParamsInput): TestChainSpec {
  const sealEngine = (input.sealEngine ?? 'NoProof') as SealEngine;
  if (!SEAL_ENGINES.includes(sealEngine)) throw new ChainParamsError(`unknown seal engine ${input.sealEngine}`);
  const chainIdParam = input.params.chainID ?? input.params.chainId;
  const chainId = chainIdParam === undefined ? 1n : testQuantity(chainIdParam as Quantity);
  const forks = parseForkParams(input.params);
  const g = input.genesis;
  const coinbase = hexToBytes(g.author as `0x${string}`);
  const alloc = accountsOf(input.accounts);
  const definitionBase = {
    // The engine's dev handling (no clock check, dev miner policy) suits a test chain; the name is not shown anywhere.
    name: 'dev' as const,
    chainId,
    networkId: chainId,
    netVersion: chainId.toString(),
    eraLength: 5_000_000n,
    bombPause: null,
    pow: { minimumDifficulty: MINIMUM_DIFFICULTY, ecip1099Block: null },
    genesis: {
      header: {
        parentHash: new Uint8Array(32),
        coinbase,
        timestamp: testQuantity(g.timestamp),
        extraData: testBytes(g.extraData),
        gasLimit: testQuantity(g.gasLimit),
        difficulty: testQuantity(g.difficulty),
        mixHash: hexToBytes(g.mixHash as `0x${string}`),
        nonce: hexToBytes(g.nonce as `0x${string}`),
      },
      loadAlloc: async () => alloc,
    },
    requiredBlockHashes: [],
  };
  if (forks.kind === 'etc') {
    const definition: NetworkDefinition = { ...definitionBase, forks: etcForksFrom0(forks.fork) };
    if (sealEngine === 'NoReward') throw new ChainParamsError('NoReward is only available with Ethereum fork names');
    return { definition, rules: etcEngineRules(definition), sealEngine, coinbase, description: `ETC_${forks.fork}` };
  }
  const definition: NetworkDefinition = { ...definitionBase, forks: etcEquivalentOf(forks.schedule) };
  const rules = ethTestRules({
    schedule: forks.schedule,
    chainId,
    eips: forks.eips,
    noReward: sealEngine === 'NoReward',
  });
  return { definition, rules, sealEngine, coinbase, description: describe(forks.schedule) };
}

function accountsOf(accounts: ChainParamsInput['accounts']): GenesisAccount[] {
  return Object.entries(accounts).map(([address, a]) => {
    const storage = Object.entries(a.storage ?? {}).map(
      ([slot, value]) => [bigintToBytes(testQuantity(slot), 32), bigintToBytes(testQuantity(value), 32)] as const,
    );
    const code = a.code === undefined ? undefined : testBytes(a.code);
    return {
      address: testBytes(address),
      balance: a.balance === undefined ? 0n : testQuantity(a.balance),
      ...(a.nonce !== undefined ? { nonce: testQuantity(a.nonce) } : {}),
      ...(code !== undefined && code.length > 0 ? { code } : {}),
      ...(storage.length > 0 ? { storage } : {}),
    };
  });
}

/**
 * The ETC upgrade with the same EVM as each Ethereum fork, for code that reads a definition's ETC schedule
 * (the engine's own rules for this chain come from `ethTestRules`, not from here).
 */
function etcEquivalentOf(s: EthForkSchedule): EtcForkSchedule {
  const at = (v: bigint | undefined): bigint | null => v ?? null;
  return {
    homestead: at(s.homestead),
    gasReprice: at(s.tangerineWhistle),
    dieHard: at(s.spuriousDragon),
    gotham: null,
    defuse: null,
    atlantis: at(s.byzantium),
    agharta: at(s.petersburg ?? s.constantinople),
    phoenix: at(s.istanbul),
    thanos: null,
    magneto: at(s.berlin),
    mystique: null,
    spiral: null,
    bastion: null,
  };
}

/** ETC_<Fork>: every ETC upgrade up to that one from block 0 (ECIP-1017 era rewards, no bomb). */
function etcForksFrom0(fork: EtcTestFork): EtcForkSchedule {
  const upTo = ETC_TEST_FORKS.indexOf(fork);
  const on = (name: EtcTestFork): bigint | null => (ETC_TEST_FORKS.indexOf(name) <= upTo ? 0n : null);
  return {
    homestead: 0n,
    gasReprice: 0n,
    dieHard: 0n,
    gotham: 0n,
    defuse: 0n,
    atlantis: on('Atlantis'),
    agharta: on('Agharta'),
    phoenix: on('Phoenix'),
    thanos: null,
    magneto: on('Magneto'),
    mystique: on('Mystique'),
    spiral: on('Spiral'),
    bastion: on('Bastion'),
  };
}

function describe(schedule: EthForkSchedule): string {
  const parts = Object.entries(schedule).map(([fork, at]) => `${fork}@${at}`);
  return parts.length === 0 ? 'frontier' : parts.join(',');
}

export { ChainParamsError };
