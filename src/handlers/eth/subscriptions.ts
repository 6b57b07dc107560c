/**
 * The subscriptions of each WebSocket connection, held by the connection (rpc/connection-subscriptions.ts: which
 * ids it owns, cleanup when it closes), and in-order delivery that never overtakes the eth_subscribe response
 * (clients such as viem only route notifications for ids they have already been given).
 */
import type { Subscription } from '../../chain/index.js';
import type { ClientConnection } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';

/** A notification's `result` as UTF-8 JSON: encoded once by the caller however many subscribers receive it. */
export type EncodedResult = Uint8Array;

/**
 * The results one change sends a subscription, in order. Subscribers receiving the same results get the same
 * array (the transport frames them once per array).
 */
export type EncodedResults = readonly EncodedResult[];

export function encodeResult(result: unknown): EncodedResult {
  return Buffer.from(JSON.stringify(result), 'utf8');
}

/**
 * Creates a subscription for `connection`. `start` receives the notifier and returns the engine
 * subscription; notifications it produces before the eth_subscribe response has been written are held
 * back until then (the response is written within the same turn of the event loop as the handler
 * resolves, so releasing them on the next turn keeps the order). Results are encoded once for all
 * subscribers: nothing is serialised per subscriber.
 */
export async function openSubscription(
  connection: ClientConnection,
  start: (notify: (results: EncodedResults) => void) => Promise<Subscription>,
): Promise<`0x${string}`> {
  let id = '';
  let held: EncodedResults[] | undefined = [];
  const notify = (results: EncodedResults) => {
    if (results.length === 0) return;
    if (held !== undefined) held.push(results);
    else connection.sendNotifications(id, results);
  };
  const engine = await start(notify);
  id = toQuantity(engine.id);
  const registry = connection.subscriptions;
  if (registry.closed) {
    // The client went away while the subscription was being made (a client that subscribes and vanishes):
    // nobody can receive or cancel it, so it goes now rather than living in the engine for ever.
    engine.unsubscribe();
    return id as `0x${string}`;
  }
  registry.add({ id, unsubscribe: () => engine.unsubscribe() });
  setImmediate(() => {
    const queued = held ?? [];
    held = undefined;
    for (const results of queued) connection.sendNotifications(id, results);
  });
  return id as `0x${string}`;
}

/** Cancels one of the connection's subscriptions; false when it owns none with that id. */
export function closeSubscription(connection: ClientConnection, id: string): boolean {
  const entry = connection.subscriptions.take(id.toLowerCase());
  return entry === undefined ? false : entry.unsubscribe();
}
