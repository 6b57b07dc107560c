import { type ForkConfig, forkConfigsOf } from '../../chain/index.js';
import type { EthConfigParams, EthConfigResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { readsOf } from '../fork-history.js';
import { bytesFromHex, hexFromBytes, toQuantity } from '../hex.js';

type ForkConfigJson = EthConfigResult['current'];

/**
 * EIP-7910 with ETC's block-activated forks (`activationBlock`, not `activationTime`). Computed per call, not cached:
 * a dozen CRC32 steps, and the answer must follow the head across a fork block (the EIP asks for caches purged there).
 * The schedule and chain id are the engine's, as the p2p STATUS uses them, so overrides and test-mode chains are
 * reported as they run. A fork (`--fork-url`) keeps its upstream's rules, and its first stored block is not a
 * genesis: the fork ids start from the upstream's block 0, asked once and kept in the memo like the rest of its history.
 */
export async function eth_config(_params: EthConfigParams, ctx: HandlerContext): Promise<EthConfigResult> {
  const engine = engineOf(ctx);
  const genesis = await readsOf(ctx).atBlock<{ hash: string }>('0x0', 'eth_getBlockByNumber', ['0x0', false], () =>
    Promise.resolve({ hash: hexFromBytes(engine.chain.getGenesis().hash()) }),
  );
  if (genesis === null) throw new Error('no block 0 to compute fork ids from');
  const { current, next, last } = forkConfigsOf(
    engine.definition,
    bytesFromHex(genesis.hash),
    engine.chain.getHead().header.number,
  );
  return { current: json(current), next: next && json(next), last: last && json(last) };
}

function json(fork: ForkConfig): ForkConfigJson {
  return {
    activationBlock: Number(fork.activationBlock),
    blobSchedule: null,
    chainId: toQuantity(fork.chainId),
    forkId: hexFromBytes(fork.forkHash),
    precompiles: Object.fromEntries(fork.precompiles.map((p) => [p.name, p.address])),
    systemContracts: {},
  };
}
