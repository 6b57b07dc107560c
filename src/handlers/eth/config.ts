import { type ForkConfig, forkConfigsOf } from '../../chain/index.js';
import type { EthConfigParams, EthConfigResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { hexFromBytes, toQuantity } from '../hex.js';

type ForkConfigJson = EthConfigResult['current'];

/**
 * EIP-7910 with ETC's block-activated forks (`activationBlock`, not `activationTime`). Computed per call, not cached:
 * a dozen CRC32 steps, and the answer must follow the head across a fork block (the EIP asks for caches purged there).
 * The genesis, schedule and chain id are the engine's, as the p2p STATUS uses them, so overrides and test-mode chains
 * are reported as they run.
 */
export function eth_config(_params: EthConfigParams, ctx: HandlerContext): EthConfigResult {
  const engine = engineOf(ctx);
  const { current, next, last } = forkConfigsOf(
    engine.definition,
    engine.chain.getGenesis().hash(),
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
