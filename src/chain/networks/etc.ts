import { hexToBytes } from '@ethereumjs/util';
import { loadEthereumMainnetAlloc } from './mainnetAlloc.js';
import type { NetworkDefinition } from './types.js';

const ZERO32 = new Uint8Array(32);

/** Ethereum Classic mainnet (core-geth `params/config_classic.go`); genesis = Ethereum's, unchanged. */
export const etc: NetworkDefinition = {
  name: 'etc',
  chainId: 61n,
  networkId: 1n,
  netVersion: '61',
  forks: {
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
    // ECIP-1130 names no block yet.
    bastion: null,
  },
  eraLength: 5_000_000n,
  // ECIP-1010: the bomb clock stops at Die Hard and resumes 2,000,000 blocks later (until Defuse).
  bombPause: { pauseBlock: 3_000_000n, continueBlock: 5_000_000n },
  pow: { minimumDifficulty: 131_072n, ecip1099Block: 11_700_000n },
  genesis: {
    header: {
      parentHash: ZERO32,
      coinbase: new Uint8Array(20),
      timestamp: 0n,
      extraData: hexToBytes('0x11bbe8db4e347b4e8c937c1c8370e4b5ed33adb3db69cbdb7a38e1e50b1b82fa'),
      gasLimit: 5000n,
      difficulty: 0x400000000n,
      mixHash: ZERO32,
      nonce: hexToBytes('0x0000000000000042'),
    },
    loadAlloc: loadEthereumMainnetAlloc,
    expectedHash: hexToBytes('0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3'),
    expectedStateRoot: hexToBytes('0xd7f8974fb5ac78d9ac099b9ad5018bedc2ce0a72dad1827a1709da30580f0544'),
  },
  // The DAO-fork block and Gas-reprice block, which tell ETC peers from ETH ones.
  requiredBlockHashes: [
    [1_920_000n, hexToBytes('0x94365e3a8c0b35089c1d1195081fe7489b528a84b22199c916180db8b28ade7f')],
    [2_500_000n, hexToBytes('0xca12c63534f565899681965528d536c52cb05b7c48e269c2a6cb77ad864d878a')],
  ],
};
