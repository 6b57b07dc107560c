import { bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { buildGenesisBlock, computeGenesisStateRoot } from '../../../src/chain/genesis/header.js';
import { dev, etc, mordor, type NetworkDefinition } from '../../../src/chain/networks/index.js';

describe('genesis blocks', () => {
  it('mordor hashes to the published genesis hash', async () => {
    const genesis = await buildGenesisBlock(mordor);
    expect(bytesToHex(genesis.stateRoot)).toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
    expect(bytesToHex(genesis.hash)).toBe('0xa68ebde7932eccb177d38d55dcc6461a019dd795a681e59b5a3e4f3a7259a3f1');
    expect(genesis.block.header.serialize().length).toBeGreaterThan(0);
    expect(genesis.block.header.baseFeePerGas).toBeUndefined();
  });

  it('etc uses the 8,893-account Ethereum presale allocation and hashes to the published genesis hash', async () => {
    const genesis = await buildGenesisBlock(etc);
    expect(genesis.alloc.length).toBe(8893);
    expect(bytesToHex(genesis.stateRoot)).toBe('0xd7f8974fb5ac78d9ac099b9ad5018bedc2ce0a72dad1827a1709da30580f0544');
    expect(bytesToHex(genesis.hash)).toBe('0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3');
  });

  it('refuses a definition whose header does not match the published hash', async () => {
    const tampered: NetworkDefinition = {
      ...mordor,
      genesis: {
        ...mordor.genesis,
        header: { ...mordor.genesis.header, timestamp: mordor.genesis.header.timestamp + 1n },
      },
    };
    await expect(buildGenesisBlock(tampered)).rejects.toThrow(/differs from the published/);
  });

  it('dev genesis holds the 10 prefunded accounts at the pinned minimum difficulty', async () => {
    const genesis = await buildGenesisBlock(dev);
    expect(genesis.alloc.length).toBe(10);
    expect(genesis.block.header.difficulty).toBe(dev.pow.minimumDifficulty);
    expect(genesis.block.header.gasLimit).toBe(30_000_000n);
    expect(bytesToHex(genesis.stateRoot)).toBe(bytesToHex(await computeGenesisStateRoot(genesis.alloc)));
    // An empty allocation is the empty trie; a non-empty one is not.
    expect(bytesToHex(await computeGenesisStateRoot([]))).toBe(
      '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    );
    expect(bytesToHex(genesis.stateRoot)).not.toBe(
      '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    );
  });
});
