/**
 * The Filter parameter (eth_getLogs, eth_newFilter, eth_subscribe "logs") → engine criteria, and the
 * engine's log and filter errors → JSON-RPC errors. Shared by the logs group.
 */
import {
  type LogCriteria,
  type LogQuery,
  type TopicCriterion,
  HistoryNotHeldError,
  LimitExceededError,
  UnknownBlockError,
  FilterLimitError,
  FilterNotFoundError,
  FilterOverflowError,
  type ChainEngine,
} from '../../chain/index.js';
import type { BlockNumberOrTag, Filter } from '../../generated/types.js';
import { ErrorCode, RpcError, invalidParams } from '../../rpc/errors.js';
import { unknownBlockTag } from '../block-ref.js';
import { checkBlockRange } from '../block-range.js';
import { bytesFromHex, fromQuantity, hexFromBytes, toQuantity } from '../hex.js';

/** Address and topics of a filter (what a log must look like, wherever it is). */
export function criteriaOf(filter: Filter): LogCriteria {
  // null address or topics = any, as absent.
  const address = filter.address ?? undefined;
  const addresses =
    address === undefined ? undefined : (Array.isArray(address) ? address : [address]).map(bytesFromHex);
  const topics = filter.topics?.map(
    (t): TopicCriterion => (t === null ? null : Array.isArray(t) ? t.map(bytesFromHex) : bytesFromHex(t)),
  );
  return {
    ...(addresses !== undefined && addresses.length > 0 ? { addresses } : {}),
    ...(topics !== undefined ? { topics } : {}),
  };
}

/** EIP-234: blockHash excludes a range. */
function checkExclusive(filter: Filter, method: string): void {
  if (filter.blockHash !== undefined && (filter.fromBlock !== undefined || filter.toBlock !== undefined)) {
    throw invalidParams(`invalid params for ${method}: give either blockHash or fromBlock/toBlock, not both`);
  }
}

/** -39001 for `safe`/`finalized`: a proof-of-work chain has no such block (block-ref.ts). */
function refuseUnknownTag(tag: BlockNumberOrTag | undefined): void {
  if (tag === 'safe' || tag === 'finalized') {
    throw unknownBlockTag(tag);
  }
}

/** A range bound as a height: `latest` and `pending` (which holds no logs yet) are the head; absent = latest. */
function heightOf(tag: BlockNumberOrTag | undefined, head: bigint): bigint {
  refuseUnknownTag(tag);
  if (tag === undefined || tag === 'latest' || tag === 'pending') return head;
  if (tag === 'earliest') return 0n;
  return fromQuantity(tag);
}

/** eth_getLogs' filter as an engine query, with tags resolved against the current head. */
export function logQueryOf(engine: ChainEngine, filter: Filter): LogQuery {
  checkExclusive(filter, 'eth_getLogs');
  const criteria = criteriaOf(filter);
  if (filter.blockHash !== undefined) return { ...criteria, blockHash: bytesFromHex(filter.blockHash) };
  const head = engine.chain.getHead().header.number;
  const from = { given: filter.fromBlock, height: heightOf(filter.fromBlock, head) };
  const to = { given: filter.toBlock, height: heightOf(filter.toBlock, head) };
  checkBlockRange('eth_getLogs', from, to, head);
  return { ...criteria, fromBlock: from.height, toBlock: to.height };
}

/** A range bound for a filter: `latest`/`pending`/absent stay undefined so the bound follows the head. */
export function filterBoundOf(tag: BlockNumberOrTag | undefined): bigint | undefined {
  refuseUnknownTag(tag);
  if (tag === undefined || tag === 'latest' || tag === 'pending') return undefined;
  return tag === 'earliest' ? 0n : fromQuantity(tag);
}

export function checkFilterRange(filter: Filter): void {
  checkExclusive(filter, 'eth_newFilter');
  if (filter.blockHash !== undefined) {
    throw invalidParams(
      'invalid params for eth_newFilter: blockHash is not supported by filters; use eth_getLogs with blockHash',
    );
  }
  // Only two fixed bounds can be out of order; a bound that follows the head (latest, pending, absent) is checked as
  // the filter is polled. A range still in the future is a filter waiting for its blocks, as geth installs it.
  const from = filterBoundOf(filter.fromBlock);
  const to = filterBoundOf(filter.toBlock);
  if (from !== undefined && to !== undefined && from > to)
    checkBlockRange(
      'eth_newFilter',
      { given: filter.fromBlock, height: from },
      { given: filter.toBlock, height: to },
      to,
    );
}

/**
 * The engine's typed errors as JSON-RPC errors; anything else is rethrown (a fault). A query over the range or result
 * limit is -32602, not -32005: viem and Foundry (cast, forge) retry -32005 as a rate limit with backoff (cast for
 * about 13 s before "Max retries exceeded"), and the same query never fits on a retry; reth answers -32602 too.
 */
export function rpcErrorOf(err: unknown): never {
  if (err instanceof LimitExceededError) {
    const data: Record<string, unknown> = { limit: err.limit, kind: err.limitKind };
    if (err.suggestion)
      data.suggestion = {
        fromBlock: toQuantity(err.suggestion.fromBlock),
        toBlock: toQuantity(err.suggestion.toBlock),
      };
    throw new RpcError(ErrorCode.InvalidParams, err.message, data);
  }
  if (err instanceof UnknownBlockError)
    throw new RpcError(ErrorCode.ResourceNotFound, `Block ${hexFromBytes(err.blockHash)} not found`);
  if (err instanceof FilterNotFoundError) throw new RpcError(ErrorCode.ServerError, 'filter not found');
  if (err instanceof FilterOverflowError) throw new RpcError(ErrorCode.ServerError, err.message);
  if (err instanceof HistoryNotHeldError) throw new RpcError(ErrorCode.ServerError, err.message);
  if (err instanceof FilterLimitError) throw new RpcError(ErrorCode.LimitExceeded, err.message, { limit: err.limit });
  throw err;
}
