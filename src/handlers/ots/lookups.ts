/**
 * ots_hasCode, ots_getContractCreator and ots_getTransactionBySenderAndNonce. The last two find the block where an
 * account's code appeared, or where its nonce passed a value, by bisecting the state over block numbers (Erigon
 * bisects its account history the same way), then look inside that one block. A block whose state this node
 * does not hold (below a snap-sync base, or not kept under --gcmode full) makes the answer unknowable here: -32004, never a guess.
 */
import {
  type ChainEngine,
  StateNotHeldError,
  StateNotKeptError,
  type StateView,
  framesOf,
  type OtsTraceJson,
  traceBlock,
} from '../../chain/index.js';
import type {
  OtsGetContractCreatorParams,
  OtsGetContractCreatorResult,
  OtsGetTransactionBySenderAndNonceParams,
  OtsGetTransactionBySenderAndNonceResult,
  OtsHasCodeParams,
  OtsHasCodeResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { engineOf, stateAt } from '../block-ref.js';
import { readsOf } from '../fork-history.js';
import { traceOptionsOf } from '../debug/trace-config.js';
import { tracing } from '../trace-answer.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';
import { blockRefOf, quantityOf } from './block-number.js';

export async function ots_hasCode([address, block]: OtsHasCodeParams, ctx: HandlerContext): Promise<OtsHasCodeResult> {
  const state = await stateAt(engineOf(ctx), blockRefOf(block));
  return (await state.getCode(bytesFromHex(address))).length > 0;
}

/** A reader of the state after block n, answering -32004 where the node does not hold it. */
function stateReader(engine: ChainEngine, method: string): (n: bigint) => Promise<StateView> {
  const notHeld = (n: bigint, why: string) =>
    new RpcError(ErrorCode.MethodNotSupported, `${method} needs the state of block ${n}: ${why}`);
  return async (n) => {
    try {
      const state = await engine.chain.stateAt(n);
      if (state === undefined) throw notHeld(n, 'this node does not have that block');
      return state;
    } catch (err) {
      if (err instanceof StateNotHeldError || err instanceof StateNotKeptError) throw notHeld(n, err.message);
      throw err;
    }
  };
}

/** The lowest block in [low, high] where `holds` is true, given it holds at `high` and stays true once it does. */
async function firstBlockWhere(low: bigint, high: bigint, holds: (n: bigint) => Promise<boolean>): Promise<bigint> {
  while (low < high) {
    const mid = (low + high) / 2n;
    if (await holds(mid)) high = mid;
    else low = mid + 1n;
  }
  return high;
}

export async function ots_getContractCreator(
  [address]: OtsGetContractCreatorParams,
  ctx: HandlerContext,
): Promise<OtsGetContractCreatorResult> {
  const engine = engineOf(ctx);
  const reads = readsOf(ctx);
  const account = bytesFromHex(address);
  const state = stateReader(engine, 'ots_getContractCreator');
  const hasCode = async (n: bigint) => (await (await state(n)).getCode(account)).length > 0;
  const head = engine.chain.getHead().header.number;
  const low = reads.firstHeldBlock;
  // No code now (an account, or a destroyed contract): no creator. Code from the genesis allocation: none either.
  if (!(await hasCode(head))) return null;
  if (await hasCode(low)) return reads.beforeHistory('ots_getContractCreator', 'the contract was created');
  const number = await firstBlockWhere(low + 1n, head, hasCode);
  const hash = await engine.chain.getCanonicalHash(number);
  if (hash === undefined) return null;
  const opts = { ...traceOptionsOf(undefined, ctx), tracer: 'otsTracer' as const };
  const traces = await tracing(ctx, 'ots_getContractCreator', () => traceBlock(engine.chain, hash, opts));
  const wanted = address.toLowerCase();
  for (const trace of [...(traces ?? [])].reverse()) {
    const { root } = trace.result as OtsTraceJson;
    if (root === undefined) continue;
    for (const { frame } of framesOf(root)) {
      const created = (frame.type === 'CREATE' || frame.type === 'CREATE2') && frame.error === undefined;
      if (created && frame.to === wanted)
        return { hash: hexFromBytes(trace.txHash), creator: frame.from as `0x${string}` };
    }
  }
  // The code came from a state edit (anvil_setCode), not from a transaction.
  return null;
}

export async function ots_getTransactionBySenderAndNonce(
  [sender, nonceParam]: OtsGetTransactionBySenderAndNonceParams,
  ctx: HandlerContext,
): Promise<OtsGetTransactionBySenderAndNonceResult> {
  const engine = engineOf(ctx);
  const reads = readsOf(ctx);
  const account = bytesFromHex(sender);
  const nonce = quantityOf(nonceParam);
  const state = stateReader(engine, 'ots_getTransactionBySenderAndNonce');
  const passed = async (n: bigint) => (await (await state(n)).getNonce(account)) > nonce;
  const head = engine.chain.getHead().header.number;
  const low = reads.firstHeldBlock;
  if (!(await passed(head))) return null;
  if (await passed(low)) return reads.beforeHistory('ots_getTransactionBySenderAndNonce', 'the nonce was used');
  const number = await firstBlockWhere(low + 1n, head, passed);
  const block = await engine.chain.getBlock(number);
  const receipts = block === undefined ? undefined : await engine.chain.getReceipts(block.hash());
  if (block === undefined || receipts === undefined) return null;
  const index = block.transactions.findIndex(
    (tx, i) => tx.nonce === nonce && hexFromBytes(receipts[i].from) === sender.toLowerCase(),
  );
  // The nonce moved without a transaction of that nonce (anvil_setNonce): nothing to name.
  return index < 0 ? null : hexFromBytes(block.transactions[index].hash());
}
