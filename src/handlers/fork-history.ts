/**
 * The handlers' one door to a fork's history: a read view that knows the fork's base. A fork's history is the
 * upstream's up to its base block, as Anvil answers it: blocks at or below the base, and the transactions and receipts
 * in them, are asked of the upstream (within the fork.* limits) and kept in the engine's memo for the next ask, and
 * in the fork cache every datadir forking the same block shares. The base block itself is stored header-only
 * (chain/fork/fork-base.ts), so it too comes from the upstream, with its transactions. An answer about a block above the base is not the fork's and is dropped. Off a fork every read is
 * this chain's, and the view only passes the handler's own answer through.
 */
import type { ChainEngine, Log as EngineLog, LogQuery } from '../chain/index.js';
import type { Block, BlockNumberOrTagOrHash, Filter, Log } from '../generated/types.js';
import { sharedCacheOf } from '../node/fork/cached-upstream.js';
import { forkSwitcherOf } from '../node/fork/fork-switch.js';
import type { SvcNode } from '../node/node.js';
import type { HandlerContext } from '../rpc/context.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';
import { engineOf, findBlockByHash, type ResolvedBlock } from './block-ref.js';
import { formatLog, logsJson } from './format/index.js';
import { bytesFromHex, toQuantity } from './hex.js';

/** The read view of the context's engine. */
export const readsOf = (ctx: HandlerContext): ForkAwareReads => new ForkAwareReads(engineOf(ctx), ctx.node);

export class ForkAwareReads {
  constructor(
    private readonly engine: ChainEngine,
    private readonly node: SvcNode,
  ) {}

  /** The fork's base height when the running chain is a fork; undefined otherwise. */
  private get forkBase(): bigint | undefined {
    return this.engine.chain.forkBase;
  }

  /**
   * A read about the block `ref` names: the upstream's answer to `method` (`params` as the caller sent them) when
   * that block is the fork's history, else `local()`, this chain's.
   */
  async atBlock<T>(
    ref: BlockNumberOrTagOrHash,
    method: string,
    params: readonly unknown[],
    local: () => Promise<T | null>,
  ): Promise<T | null> {
    const height = await this.historyHeightOf(ref);
    if (height === undefined) return local();
    if (height === null) return null;
    return this.upstreamHistory<T>(method, params, () => toQuantity(height));
  }

  /**
   * A lookup by transaction hash: `local` when this chain knows the transaction, else the upstream's answer to
   * `method` when the block it names is the fork's history.
   */
  async byTransactionHash<T extends { readonly blockNumber?: string | null }>(
    local: T | null,
    method: string,
    params: readonly unknown[],
  ): Promise<T | null> {
    return local ?? this.upstreamHistory<T>(method, params, (answer) => answer.blockNumber ?? undefined);
  }

  /**
   * eth_getBlockByHash: `local` of the stored block, unless the fork's history holds it (this chain lacks it, or has
   * only the header-only base block).
   */
  async blockByHash(
    blockHash: `0x${string}`,
    full: boolean,
    local: (resolved: ResolvedBlock) => Promise<Block>,
  ): Promise<Block | null> {
    const resolved = await findBlockByHash(this.engine, blockHash);
    const base = this.forkBase;
    if (base !== undefined && (resolved === undefined || resolved.block.header.number === base))
      return this.upstreamHistory<Block>('eth_getBlockByHash', [blockHash, full], (b) => b.number);
    return resolved === undefined ? null : local(resolved);
  }

  /**
   * eth_getLogs answered in this turn, off a fork, when `now` can answer the query from memory (LogQueries'
   * queryLogsNow); undefined otherwise (then `logs`).
   */
  logsNow(query: LogQuery, now: (query: LogQuery) => EngineLog[] | undefined): Log[] | undefined {
    if (this.forkBase !== undefined) return undefined;
    const logs = now(query);
    return logs === undefined ? undefined : logsJson(logs, this.engine.memo);
  }

  /**
   * eth_getLogs: the part of the range at or below the base (or a block hash there) is the upstream's history, its
   * logs asked of the upstream, as Anvil does; `local(query)` reads the rest, the blocks mined here. Off a fork (every
   * log is this chain's) the answer is written from each log's kept JSON text (format/log-json.ts).
   */
  async logs(filter: Filter, query: LogQuery, local: (query: LogQuery) => Promise<EngineLog[]>): Promise<Log[]> {
    const base = this.forkBase;
    if (base === undefined) return logsJson(await local(query), this.engine.memo);
    if (base !== undefined && 'blockHash' in query) {
      const height = await this.historyHeightOf(filter.blockHash!);
      if (height !== undefined && height !== null)
        return (await this.upstreamHistory<Log[]>('eth_getLogs', [filter], () => toQuantity(height))) ?? [];
    }
    let upstream: Log[] = [];
    if (base !== undefined && 'fromBlock' in query && query.fromBlock <= base && query.fromBlock <= query.toBlock) {
      const to = query.toBlock < base ? query.toBlock : base;
      const below = { ...filter, fromBlock: toQuantity(query.fromBlock), toBlock: toQuantity(to) };
      upstream = (await this.upstreamHistory<Log[]>('eth_getLogs', [below], () => toQuantity(to))) ?? [];
      if (query.toBlock <= base) return upstream;
      query = { ...query, fromBlock: base + 1n };
    }
    return [...upstream, ...(await local(query)).map(formatLog)];
  }

  /**
   * The first block whose state this node can read: the base block on a fork (what happened before it is the
   * upstream's history), else the genesis block.
   */
  get firstHeldBlock(): bigint {
    return this.forkBase ?? 0n;
  }

  /** What was already true at the first held block: before a fork's base nothing can be named here, so -32004. */
  beforeHistory(method: string, what: string): null {
    const base = this.forkBase;
    if (base === undefined) return null;
    throw new RpcError(
      ErrorCode.MethodNotSupported,
      `${method}: ${what} at or below block ${base}, this fork's base, whose history is the upstream's: ask the upstream`,
    );
  }

  /**
   * The upstream's answer to `method` when the fork has one and `heightOf` places it at or below the base; null
   * otherwise (not a fork, the upstream knows nothing, or it is past the base).
   */
  private async upstreamHistory<T>(
    method: string,
    params: readonly unknown[],
    heightOf: (answer: T) => string | undefined,
  ): Promise<T | null> {
    const base = this.forkBase;
    const client = forkSwitcherOf(this.node).current?.client;
    if (base === undefined || client === undefined) return null;
    const answers = this.engine.memo.forkAnswers;
    const key = `${method}${JSON.stringify(params)}`;
    const known = answers.get(key);
    if (known !== undefined) return known as T;
    const isHistory = (answer: T | null): answer is T => {
      if (answer === null) return false;
      const height = heightOf(answer);
      return height !== undefined && BigInt(height) <= base;
    };
    const ask = () => client.call<T | null>(method, params);
    // Another datadir forking the same block may have asked it already (the fork cache, node/fork/cached-upstream.ts).
    const shared = sharedCacheOf(client);
    const answer = await (shared === undefined ? ask() : shared.history(base, key, ask, isHistory));
    if (!isHistory(answer)) return null;
    answers.set(key, answer);
    return answer;
  }

  /**
   * The height of the block a param names when that block is the fork's history (at or below the base: the base too,
   * since it is stored header-only); undefined when it is this chain's to answer (not a fork, a tag that follows the
   * head, or a block above the base); null for a hash known neither here nor upstream at or below the base.
   * `earliest` is the upstream's genesis, as Anvil answers it.
   */
  private async historyHeightOf(ref: BlockNumberOrTagOrHash): Promise<bigint | null | undefined> {
    const base = this.forkBase;
    if (base === undefined) return undefined;
    if (typeof ref === 'object') return this.historyHeightOf('blockHash' in ref ? ref.blockHash : ref.blockNumber);
    if (ref === 'earliest') return 0n;
    if (!ref.startsWith('0x')) return undefined;
    if (ref.length !== 66) return BigInt(ref) <= base ? BigInt(ref) : undefined;
    const header = await this.engine.chain.getHeader(bytesFromHex(ref));
    if (header !== undefined && header.number !== base) return undefined;
    if (header !== undefined) return base;
    const block = await this.upstreamHistory<{ number: string }>('eth_getBlockByHash', [ref, false], (b) => b.number);
    return block === null ? null : BigInt(block.number);
  }
}
