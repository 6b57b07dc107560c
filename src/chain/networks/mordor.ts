import { hexToBytes } from '@ethereumjs/util';
import type { NetworkDefinition } from './types.js';

const ZERO32 = new Uint8Array(32);

/** Mordor, ETC's PoW testnet (core-geth `params/config_mordor.go`, `genesis_mordor.go`). */
export const mordor: NetworkDefinition = {
  name: 'mordor',
  chainId: 63n,
  networkId: 7n,
  netVersion: '63',
  forks: {
    homestead: 0n,
    gasReprice: 0n,
    dieHard: 0n,
    gotham: 0n,
    defuse: 0n,
    atlantis: 0n,
    agharta: 301_243n,
    phoenix: 999_983n,
    thanos: 2_520_000n,
    magneto: 3_985_893n,
    mystique: 5_520_000n,
    spiral: 9_957_000n,
    // ECIP-1130 names no block yet.
    bastion: null,
  },
  eraLength: 2_000_000n,
  // Defuse at 0: there never was a bomb to pause.
  bombPause: null,
  pow: { minimumDifficulty: 131_072n, ecip1099Block: 2_520_000n },
  genesis: {
    header: {
      parentHash: ZERO32,
      coinbase: new Uint8Array(20),
      timestamp: 0x5d9676dbn,
      extraData: hexToBytes('0x70686f656e697820636869636b656e206162737572642062616e616e61'), // "phoenix chicken absurd banana"
      gasLimit: 0x2fefd8n,
      difficulty: 0x20000n,
      mixHash: ZERO32,
      nonce: new Uint8Array(8),
    },
    loadAlloc: async () => [],
    expectedHash: hexToBytes('0xa68ebde7932eccb177d38d55dcc6461a019dd795a681e59b5a3e4f3a7259a3f1'),
    expectedStateRoot: hexToBytes('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'),
  },
  // core-geth pins 840,013 and 840,014 on Mordor; their hashes are not in our reference yet.
  requiredBlockHashes: [],
};
