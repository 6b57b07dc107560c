/** eth_subscribe / eth_unsubscribe: push notifications over the caller's WebSocket connection. */
import type { Block as EngineBlock } from '@ethereumjs/block';
import type { Subscription } from '../../chain/filters/filter-manager.js';
import { randomId } from '../../chain/filters/ids.js';
import type { ChainEngine } from '../../chain/engine.js';
import type { Log as EngineLog } from '../../chain/logs/types.js';
import type { Block, EthSubscribeParams, Log, EthSubscribeResult, EthUnsubscribeParams, EthUnsubscribeResult, Filter } from '../../generated/types.js';
import { ErrorCode, RpcError, invalidParams } from '../../server/errors.js';
import { engineOf } from '../block-ref.js';
import type { ClientConnection, HandlerContext } from '../context.js';
import { formatBlock, formatLog, formatTransaction } from '../format/index.js';
import { hexFromBytes } from '../hex.js';
import { criteriaOf } from './log-filter.js';
import { closeSubscription, openSubscription } from './subscriptions.js';

function connectionOf(ctx: HandlerContext): ClientConnection {
  if (ctx.connection === undefined) throw new RpcError(ErrorCode.MethodNotFound, 'notifications not supported');
  return ctx.connection;
}

/**
 * newHeads payload: the block without its transaction list. Formatted once per block however many
 * connections subscribe, and chained so that a slow total-difficulty read never reorders heads.
 */
const headers = new WeakMap<EngineBlock, Promise<Block>>();
function headerOf(engine: ChainEngine, block: EngineBlock): Promise<Block> {
  let header = headers.get(block);
  if (header === undefined) {
    header = engine.chain.getTotalDifficulty(block.hash()).then((td) => {
      const { transactions: _omitted, ...rest } = formatBlock(block, td ?? 0n, { full: false });
      return rest;
    });
    headers.set(block, header);
  }
  return header;
}

/** Every logs subscriber of a block gets the same engine log objects: format each once. */
const formattedLogs = new WeakMap<EngineLog, Log>();
function logJsonOf(log: EngineLog): Log {
  let json = formattedLogs.get(log);
  if (json === undefined) {
    json = formatLog(log);
    formattedLogs.set(log, json);
  }
  return json;
}

function subscribeNewHeads(engine: ChainEngine, notify: (result: unknown) => void): Promise<Subscription> {
  let order: Promise<void> = Promise.resolve();
  return engine.logs.filters.subscribeNewHeads((block) => {
    const header = headerOf(engine, block);
    order = order.then(() => header.then(notify, () => undefined));
  });
}

function subscribePending(engine: ChainEngine, full: boolean, notify: (result: unknown) => void): Promise<Subscription> {
  return engine.logs.filters.subscribePendingTransactions((hash) => {
    if (!full) return notify(hexFromBytes(hash));
    const pooled = engine.pool.get(hash);
    // Gone already (mined or replaced within the same turn): nothing truthful to send as a pending object.
    if (pooled !== undefined) notify(formatTransaction(pooled.tx, pooled.sender.bytes));
  });
}

/** This node does not synchronise from peers yet, so a syncing subscription never has a change to report. */
function subscribeSyncing(): Promise<Subscription> {
  let live = true;
  return Promise.resolve({ id: randomId(() => false), unsubscribe: () => (live ? !(live = false) : false) });
}

export async function eth_subscribe([kind, options]: EthSubscribeParams, ctx: HandlerContext): Promise<EthSubscribeResult> {
  const connection = connectionOf(ctx);
  const engine = engineOf(ctx);
  switch (kind) {
    case 'newHeads':
      return openSubscription(connection, (notify) => subscribeNewHeads(engine, notify));
    case 'logs': {
      if (typeof options === 'boolean') throw invalidParams('Invalid params for eth_subscribe: "logs" takes a filter object (address, topics)');
      const criteria = criteriaOf((options ?? {}) as Filter);
      return openSubscription(connection, (notify) => engine.logs.filters.subscribeLogs(criteria, (log) => notify(logJsonOf(log))));
    }
    case 'newPendingTransactions':
      return openSubscription(connection, (notify) => subscribePending(engine, options === true, notify));
    case 'syncing':
      return openSubscription(connection, () => subscribeSyncing());
  }
}

export function eth_unsubscribe([subscriptionId]: EthUnsubscribeParams, ctx: HandlerContext): EthUnsubscribeResult {
  return closeSubscription(connectionOf(ctx), subscriptionId);
}
