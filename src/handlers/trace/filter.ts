/**
 * trace_filter: the traces of a block range (rewards included) that match the sender and receiver lists, in chain
 * order, after skipping `after` matches and up to `count`. Blocks without transactions are not replayed (their
 * reward traces are made from the header), and the walk stops as soon as `count` traces are in hand, so a wide
 * range of empty blocks costs a block read each. Both the range and the answer are capped by settings.
 */
import type { ChainEngine } from '../../chain/index.js';
import type { BlockNumberOrTag, TraceFilterParams, TraceFilterResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { blockNotFound, engineOf, findBlock } from '../block-ref.js';
import { checkBlockRange } from '../block-range.js';
import { queryTooLarge } from '../limits.js';
import { type LocalizedTrace, wire } from './parity-convert.js';
import { blockTracesOf, rewardTracesOf, traceLimits } from './tracing.js';
import { tracing } from '../trace-answer.js';

/** A bound's height: a number as given (checked against the head with the other bound), a tag as it resolves now. */
async function heightOf(engine: ChainEngine, ref: BlockNumberOrTag | undefined, head: bigint): Promise<bigint> {
  if (ref === undefined || ref === 'pending' || ref === 'latest') return head;
  if (ref.startsWith('0x')) return BigInt(ref);
  const found = await findBlock(engine, ref);
  if (found === undefined) throw blockNotFound(ref);
  return found.block.header.number;
}

/** Who a trace comes from and goes to, in OpenEthereum's filter terms. */
function endpoints(t: LocalizedTrace): { readonly from: string | undefined; readonly to: string | undefined } {
  switch (t.type) {
    case 'call':
      return { from: t.action.from, to: t.action.to };
    case 'create':
      return { from: t.action.from, to: t.result?.address };
    case 'suicide':
      return { from: t.action.address, to: t.action.refundAddress };
    case 'reward':
      return { from: undefined, to: t.action.author };
  }
}

function matcher(list: readonly string[] | undefined): (address: string | undefined) => boolean {
  if (list === undefined || list.length === 0) return () => true;
  const wanted = new Set(list.map((a) => a.toLowerCase()));
  return (address) => address !== undefined && wanted.has(address.toLowerCase());
}

export async function trace_filter([filter]: TraceFilterParams, ctx: HandlerContext): Promise<TraceFilterResult> {
  const engine = engineOf(ctx);
  const { filterMaxBlocks, filterMaxCount } = ctx.node.config.rpc.trace;
  const head = engine.chain.getHead().header.number;
  const from = await heightOf(engine, filter.fromBlock, head);
  const wanted = await heightOf(engine, filter.toBlock, head);
  checkBlockRange(
    'trace_filter',
    { given: filter.fromBlock, height: from },
    { given: filter.toBlock, height: wanted },
    head,
  );
  // Cut at the head, as eth_getLogs does: the blocks past it do not exist yet.
  const to = wanted > head ? head : wanted;
  const span = to - from + 1n;
  if (span > BigInt(filterMaxBlocks)) {
    throw queryTooLarge('trace_filter: block range of', span, filterMaxBlocks, 'network.rpc.trace.filter-max-blocks');
  }
  const { count } = filter;
  if (count !== undefined && count > filterMaxCount) {
    throw queryTooLarge('trace_filter: count', count, filterMaxCount, 'network.rpc.trace.filter-max-count');
  }
  const fromOk = matcher(filter.fromAddress);
  const toOk = matcher(filter.toAddress);
  let skip = filter.after ?? 0;
  const out: LocalizedTrace[] = [];
  if (count === 0) return [];
  const limits = traceLimits(ctx);
  for (let n = from; n <= to; n++) {
    const block = await engine.chain.getBlock(n);
    if (block === undefined) throw blockNotFound(`0x${n.toString(16)}`);
    const traces =
      block.transactions.length === 0
        ? rewardTracesOf(engine, block)
        : await tracing(ctx, 'trace_filter', () => blockTracesOf(engine, block, limits));
    for (const t of traces) {
      const ends = endpoints(t);
      if (!fromOk(ends.from) || !toOk(ends.to)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push(t);
      if (count !== undefined && out.length >= count) return wire(out);
      if (count === undefined && out.length > filterMaxCount) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `trace_filter: more than ${filterMaxCount} traces match (network.rpc.trace.filter-max-count); ` +
            'give a count, or narrow the range or the addresses',
          { limit: filterMaxCount },
        );
      }
    }
  }
  return wire(out);
}
