/** Replays one BlockchainTests case through the test RPC (vectors/README.md, "Replaying BlockchainTests"). */
import { quantity, sameBytes } from './hex.js';
import { checkPostState } from './post-state.js';
import type { RpcClient } from './rpc.js';
import { Difference, expectEqual, type BlockchainTestCase } from './types.js';

interface RpcBlock {
  readonly hash: string;
  readonly number: string;
  readonly stateRoot: string;
}

export function chainParamsOf(c: BlockchainTestCase): unknown {
  const g = c.genesisBlockHeader;
  return {
    params: { fork: c.network, chainID: '0x01' },
    sealEngine: c.sealEngine ?? 'NoProof',
    genesis: {
      author: g.coinbase,
      difficulty: g.difficulty,
      gasLimit: g.gasLimit,
      extraData: g.extraData,
      timestamp: g.timestamp,
      nonce: g.nonce,
      mixHash: g.mixHash,
    },
    accounts: c.pre,
  };
}

/** Replays the case; returns the node's reason for each block it refused as the vector expects. */
export async function runBlockchainCase(rpc: RpcClient, c: BlockchainTestCase): Promise<string[]> {
  const rejections: string[] = [];
  expectEqual('test_setChainParams', await rpc.call('test_setChainParams', [chainParamsOf(c)]), true);
  const genesis = await rpc.call<RpcBlock>('eth_getBlockByNumber', ['0x0', false]);
  expectEqual('genesis hash', genesis.hash, c.genesisBlockHeader.hash, (a, b) => sameBytes(a as string, b as string));

  for (const [i, block] of c.blocks.entries()) {
    const which = `block ${i + 1}${block.chainname !== undefined ? ` (chain ${block.chainname})` : ''}`;
    if (block.blockHeader !== undefined) {
      let hash: string;
      try {
        hash = await rpc.call<string>('test_importRawBlock', [block.rlp]);
      } catch (err) {
        throw new Difference(`${which} rejected: ${(err as Error).message}`);
      }
      expectEqual(`${which} hash`, hash, block.blockHeader.hash, (a, b) => sameBytes(a as string, b as string));
    } else {
      const before = await rpc.call<RpcBlock>('eth_getBlockByNumber', ['latest', false]);
      const failure = await rpc.failure('test_importRawBlock', [block.rlp]);
      if (failure === undefined)
        throw new Difference(`${which} imported, but the vector expects it rejected (${expectedException(block)})`);
      rejections.push(`${which} (${expectedException(block)}): ${failure.message}`);
      const after = await rpc.call<RpcBlock>('eth_getBlockByNumber', ['latest', false]);
      expectEqual(`head after rejecting ${which}`, after.hash, before.hash);
    }
  }

  const head = await rpc.call<RpcBlock>('eth_getBlockByNumber', ['latest', false]);
  expectEqual('lastblockhash', head.hash, c.lastblockhash, (a, b) => sameBytes(a as string, b as string));
  if (c.postState !== undefined) await checkPostState(rpc, quantity(head.number), c.postState);
  else if (c.postStateHash !== undefined) {
    expectEqual('post-state root', head.stateRoot, c.postStateHash, (a, b) => sameBytes(a as string, b as string));
  }
  return rejections;
}

function expectedException(block: BlockchainTestCase['blocks'][number]): string {
  const named = Object.entries(block).find(([k]) => k.startsWith('expectException'));
  return named === undefined ? 'no reason given' : String(named[1]);
}
