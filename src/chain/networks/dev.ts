import { hexToBytes, utf8ToBytes } from '@ethereumjs/util';
import { DEV_ACCOUNT_BALANCE, DEV_ACCOUNTS } from './devAccounts.js';
import type { CheckpointingDefinition, NetworkDefinition } from './types.js';

/**
 * Dev minimum difficulty (= genesis difficulty, so it stays pinned: below 2048 the adjustment step
 * `parent/2048` is 0, and the bomb is removed from block 0).
 *
 * Why 2: sealing needs on average `difficulty` light Ethash hashes. At the ≥200 hashes/s the fast
 * verifier targets (≈2–5 ms per light hash) that is a few ms per block, with the real algorithm and
 * real epoch cache. Not 1: at difficulty 1 every nonce wins, and the `eth_getWork` boundary
 * 2^256/difficulty would not fit its 32 bytes; at 2 the boundary is 2^255 and half of all nonces
 * are rejected, so the seal check still means something.
 */
export const DEV_MINIMUM_DIFFICULTY = 2n;

/**
 * 30,000,000: what Hardhat/Anvil/geth --dev use, enough for any contract deploy (Spiral's
 * 49,152-byte initcode limit included) and ~1,400 plain transfers per block.
 */
export const DEV_GAS_LIMIT = 30_000_000n;

const ZERO32 = new Uint8Array(32);

export const dev: NetworkDefinition = {
  name: 'dev',
  chainId: 1337n,
  networkId: 1337n,
  netVersion: '1337',
  // Everything through Spiral from block 0: one EVM rule set, Etchash epochs of 60,000 blocks.
  forks: {
    homestead: 0n,
    gasReprice: 0n,
    dieHard: 0n,
    gotham: 0n,
    defuse: 0n,
    atlantis: 0n,
    agharta: 0n,
    phoenix: 0n,
    thanos: 0n,
    magneto: 0n,
    mystique: 0n,
    spiral: 0n,
    // Off until an operator schedules it (ECIP-1130 names no block yet).
    bastion: null,
  },
  eraLength: 5_000_000n,
  bombPause: null,
  pow: { minimumDifficulty: DEV_MINIMUM_DIFFICULTY, ecip1099Block: 0n },
  genesis: {
    header: {
      parentHash: ZERO32,
      coinbase: new Uint8Array(20),
      timestamp: 0n,
      extraData: utf8ToBytes('svc-node dev'),
      gasLimit: DEV_GAS_LIMIT,
      difficulty: DEV_MINIMUM_DIFFICULTY,
      mixHash: ZERO32,
      nonce: new Uint8Array(8),
    },
    loadAlloc: async () =>
      DEV_ACCOUNTS.map((account) => ({
        address: hexToBytes(account.address as `0x${string}`),
        balance: DEV_ACCOUNT_BALANCE,
      })),
  },
  requiredBlockHashes: [],
};

/** The dev accounts whose keys form the dev checkpointing federation: 7, 8 and 9 of the test mnemonic. */
export const DEV_FEDERATION_ACCOUNTS: readonly number[] = [7, 8, 9];

/**
 * ECIP-1097 checkpointing for dev (`--checkpointing`): a three-member federation made of dev accounts 7, 8 and 9
 * (so 2 signatures make a checkpoint), active from block 1. Their public keys are written out, like the account
 * addresses; `test/chain/checkpointing/federation.test.ts` re-derives them from the private keys. Public test keys:
 * anyone can sign dev checkpoints, which is the point.
 */
export const DEV_CHECKPOINTING: CheckpointingDefinition = {
  activationBlock: 1n,
  federationPublicKeys: [
    '0x01f2bf1fa920e77a43c7aec2587d0b3814093420cc59a9b3ad66dd5734dda7be6f8b7de790eac3a720fd8e4bcb9eae9434f843d3cec111d9e07adeddeae090f2',
    '0x931e7fda8da226f799f791eefc9afebcd7ae2b1b19a03c5eaa8d72122d9fe74d887a3962ff861190b531ab31ee82f0d7f255dfe3ab73ca627bd70ab3d1cbb417',
    '0x3255458e24278e31d5940f304b16300fdff3f6efd3e2a030b5818310ac67af45e28d057e6a332d07e0c5ab09d6947fd4eed1a646edbf224e2d2fec6f49f90abc',
  ].map((key) => hexToBytes(key as `0x${string}`)),
};

/** The dev network with checkpointing on: same genesis, but every header from block 1 has the 16th field. */
export const devWithCheckpointing: NetworkDefinition = { ...dev, checkpointing: DEV_CHECKPOINTING };

/**
 * `def` with another set of funded test accounts at genesis (`--accounts`, `--balance`, `--mnemonic`): another
 * genesis state, so another chain, which the datadir's stored genesis then tells apart from the default one.
 */
export function devWithAccounts(
  def: NetworkDefinition,
  addresses: readonly string[],
  balance: bigint,
): NetworkDefinition {
  return {
    ...def,
    genesis: {
      ...def.genesis,
      loadAlloc: async () => addresses.map((a) => ({ address: hexToBytes(a as `0x${string}`), balance })),
    },
  };
}
