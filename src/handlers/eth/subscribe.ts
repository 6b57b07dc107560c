/** eth_subscribe / eth_unsubscribe: push notifications over the caller's WebSocket connection. */
import type { Block as EngineBlock } from '@ethereumjs/block';
import {
  type Subscription,
  randomId,
  type ChainEngine,
  type EngineMemo,
  type Log as EngineLog,
  type LogCriteria,
} from '../../chain/index.js';
import type {
  Block,
  EthSubscribeParams,
  Log,
  EthSubscribeResult,
  EthUnsubscribeParams,
  EthUnsubscribeResult,
  Filter,
  SyncingSubscriptionResult,
} from '../../generated/types.js';
import type { PeerService, SyncEvent } from '../../p2p/types.js';
import { ErrorCode, RpcError, invalidParams } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import type { ClientConnection, HandlerContext } from '../../rpc/context.js';
import { formatBlock, formatLog, formatTransaction } from '../format/index.js';
import { hexFromBytes } from '../hex.js';
import { criteriaOf } from './log-filter.js';
import { formatSyncProgress } from './syncing.js';
import {
  closeSubscription,
  encodeResult,
  openSubscription,
  type EncodedResult,
  type EncodedResults,
} from './subscriptions.js';

function connectionOf(ctx: HandlerContext): ClientConnection {
  if (ctx.connection === undefined) throw new RpcError(ErrorCode.MethodNotFound, 'notifications not supported');
  return ctx.connection;
}

/**
 * newHeads payload: the block without its transaction list, encoded once per block however many
 * connections subscribe. Each engine's headers form one chain (a total-difficulty read, then the
 * encoding), so they resolve in the order the blocks were announced, and so do the subscribers'
 * reactions to them. Only the newest link is reused (the engine's memo keeps it): a block announced again
 * later (a head restored after a rewind) gets a new link behind the ones still pending, never an early,
 * already-resolved one.
 */
function encodedHeaderOf(engine: ChainEngine, block: EngineBlock): Promise<EncodedResults | undefined> {
  const newest = engine.memo.newestHead;
  if (newest?.block === block) return newest.encoded;
  const encoded = (newest?.encoded ?? Promise.resolve(undefined))
    .then(() =>
      Promise.all([engine.chain.getTotalDifficulty(block.hash()), engine.chain.getLastCheckpointNumber(block.hash())]),
    )
    .then(
      ([td, lastCheckpoint]) => {
        const { transactions: _omitted, ...rest } = formatBlock(
          engine.memo,
          block,
          td ?? 0n,
          { full: false },
          lastCheckpoint,
        );
        return [encodeResult(rest satisfies Block)];
      },
      // A failed read skips this head for every subscriber, as the stream carries on.
      () => undefined,
    );
  engine.memo.newestHead = { block, encoded };
  return encoded;
}

/** A block's matching logs reach every subscriber of the same criteria as one shared array: encode them once. */
function encodedLogsOf(memo: EngineMemo, logs: readonly EngineLog[]): readonly EncodedResult[] {
  let batch = memo.encodedLogBatches.get(logs);
  if (batch === undefined) {
    batch = logs.map((log) => {
      // Subscribers with other criteria get other arrays holding some of the same logs.
      let bytes = memo.encodedLogs.get(log);
      if (bytes === undefined) memo.encodedLogs.set(log, (bytes = encodeResult(formatLog(log) satisfies Log)));
      return bytes;
    });
    memo.encodedLogBatches.set(logs, batch);
  }
  return batch;
}

function subscribeNewHeads(engine: ChainEngine, notify: (results: EncodedResults) => void): Promise<Subscription> {
  const deliver = (encoded: EncodedResults | undefined) => {
    if (encoded !== undefined) notify(encoded);
  };
  return engine.logs.filters.subscribeNewHeads((block) => void encodedHeaderOf(engine, block).then(deliver));
}

function subscribeLogs(
  engine: ChainEngine,
  criteria: LogCriteria,
  notify: (results: EncodedResults) => void,
): Promise<Subscription> {
  return engine.logs.filters.subscribeLogBatches(criteria, (logs) => notify(encodedLogsOf(engine.memo, logs)));
}

/** A transaction's hash (or its pending object), or a sync event, is encoded once for all subscribers. */
function encodedOnce(memo: EngineMemo, key: object, make: () => unknown): EncodedResults {
  let results = memo.encodedAnnouncements.get(key);
  if (results === undefined) memo.encodedAnnouncements.set(key, (results = [encodeResult(make())]));
  return results;
}

function subscribePending(
  engine: ChainEngine,
  full: boolean,
  notify: (results: EncodedResults) => void,
): Promise<Subscription> {
  return engine.logs.filters.subscribePendingTransactions((hash) => {
    if (!full) return notify(encodedOnce(engine.memo, hash, () => hexFromBytes(hash)));
    const pooled = engine.pool.get(hash);
    // Gone already (mined or replaced within the same turn): nothing truthful to send as a pending object.
    if (pooled !== undefined)
      notify(encodedOnce(engine.memo, pooled.tx, () => formatTransaction(pooled.tx, pooled.sender.bytes)));
  });
}

function syncingPayload(event: SyncEvent): SyncingSubscriptionResult {
  return event.syncing ? { syncing: true, status: formatSyncProgress(event.status) } : { syncing: false };
}

/**
 * Sync started, progressed or stopped, as the peer service reports it; each event is encoded once for all
 * subscribers. With peering off nothing ever syncs, so the subscription stays silent. Its id is random like
 * the engine's (it lives outside the engine's filter manager).
 */
function subscribeSyncing(
  memo: EngineMemo,
  peers: PeerService | undefined,
  notify: (results: EncodedResults) => void,
): Promise<Subscription> {
  const stopListening = peers?.onSyncEvent((event) => notify(encodedOnce(memo, event, () => syncingPayload(event))));
  let live = true;
  return Promise.resolve({
    id: randomId(() => false),
    unsubscribe: () => {
      if (!live) return false;
      live = false;
      stopListening?.();
      return true;
    },
  });
}

export async function eth_subscribe(
  [kind, options]: EthSubscribeParams,
  ctx: HandlerContext,
): Promise<EthSubscribeResult> {
  const connection = connectionOf(ctx);
  const engine = engineOf(ctx);
  switch (kind) {
    case 'newHeads':
      return openSubscription(connection, (notify) => subscribeNewHeads(engine, notify));
    case 'logs': {
      if (typeof options === 'boolean')
        throw invalidParams('invalid params for eth_subscribe: "logs" takes a filter object (address, topics)');
      const criteria = criteriaOf((options ?? {}) as Filter);
      return openSubscription(connection, (notify) => subscribeLogs(engine, criteria, notify));
    }
    case 'newPendingTransactions':
      return openSubscription(connection, (notify) => subscribePending(engine, options === true, notify));
    case 'syncing':
      return openSubscription(connection, (notify) => subscribeSyncing(engine.memo, ctx.node.peers, notify));
  }
}

export function eth_unsubscribe([subscriptionId]: EthUnsubscribeParams, ctx: HandlerContext): EthUnsubscribeResult {
  return closeSubscription(connectionOf(ctx), subscriptionId);
}
