import type { AnvilMetadataResult, AnvilNodeInfoResult } from '../../generated/types.js';
import { forkSwitcherOf } from '../../node/fork/fork-switch.js';
import type { HandlerContext } from '../../rpc/context.js';
import { suggestGasPrice } from '../eth/gasPrice.js';
import { hexFromBytes, toQuantity } from '../hex.js';
import { controlsOf } from './controls.js';

export async function anvil_nodeInfo(_params: [], ctx: HandlerContext): Promise<AnvilNodeInfoResult> {
  const { engine } = controlsOf(ctx, 'anvil_nodeInfo');
  const head = engine.chain.getHead();
  return {
    currentBlockNumber: toQuantity(head.header.number),
    currentBlockTimestamp: Number(head.header.timestamp),
    currentBlockHash: hexFromBytes(head.hash()),
    hardFork: engine.chain.commonAt(head.header.number + 1n).hardfork(),
    // The pool's order: gas price first, each sender's in nonce order.
    transactionOrder: 'fees',
    environment: {
      chainId: Number(engine.chain.network.chainId),
      gasLimit: toQuantity(head.header.gasLimit),
      gasPrice: toQuantity(await suggestGasPrice(engine)),
    },
    forkConfig: forkConfigOf(ctx),
  };
}

/** The fork the chain runs on, as Anvil names it (the URL without credentials); nulls on a plain dev chain. */
function forkConfigOf(ctx: HandlerContext): AnvilNodeInfoResult['forkConfig'] {
  const fork = forkSwitcherOf(ctx.node).current;
  return {
    forkUrl: fork?.upstream ?? null,
    forkBlockNumber: fork?.block === undefined ? null : Number(fork.block),
    forkRetryBackoff: null,
  };
}

export function anvil_metadata(_params: [], ctx: HandlerContext): AnvilMetadataResult {
  const controls = controlsOf(ctx, 'anvil_metadata');
  const head = controls.engine.chain.getHead();
  const snapshots: AnvilMetadataResult['snapshots'] = {};
  for (const [id, block] of controls.openSnapshots())
    snapshots[toQuantity(id)] = [Number(block.header.number), hexFromBytes(block.hash())];
  return {
    clientVersion: ctx.node.clientVersion,
    chainId: Number(controls.engine.chain.network.chainId),
    instanceId: hexFromBytes(controls.instanceId),
    latestBlockNumber: Number(head.header.number),
    latestBlockHash: hexFromBytes(head.hash()),
    forkedNetwork: null,
    snapshots,
  };
}
