/**
 * The subscriptions of each WebSocket connection: which ids it owns (an id from another connection is
 * unknown to it), cleanup when it closes, and in-order delivery that never overtakes the eth_subscribe
 * response (clients such as viem only route notifications for ids they have already been given).
 */
import type { Subscription } from '../../chain/filters/filter-manager.js';
import type { ClientConnection } from '../context.js';
import { toQuantity } from '../hex.js';

interface Entry {
  readonly engine: Subscription;
  readonly id: string;
}

/** A notification's `result` as UTF-8 JSON: encoded once by the caller however many subscribers receive it. */
export type EncodedResult = Uint8Array;

export function encodeResult(result: unknown): EncodedResult {
  return Buffer.from(JSON.stringify(result), 'utf8');
}

const ENVELOPE_END = Buffer.from('}}', 'utf8');

const registries = new WeakMap<ClientConnection, Map<string, Entry>>();

function registryOf(connection: ClientConnection): Map<string, Entry> {
  let registry = registries.get(connection);
  if (registry === undefined) {
    const created = new Map<string, Entry>();
    registry = created;
    registries.set(connection, created);
    // A subscription lives exactly as long as its socket: no idle expiry, nothing left behind.
    connection.onClose(() => {
      for (const entry of created.values()) entry.engine.unsubscribe();
      created.clear();
    });
  }
  return registry;
}

/**
 * Creates a subscription for `connection`. `start` receives the notifier and returns the engine
 * subscription; notifications it produces before the eth_subscribe response has been written are held
 * back until then (the response is written within the same turn of the event loop as the handler
 * resolves, so releasing them on the next turn keeps the order). Each notification is the subscription's
 * own envelope (encoded once) around a result encoded once for all subscribers: nothing is serialised
 * per subscriber.
 */
export async function openSubscription(
  connection: ClientConnection,
  start: (notify: (result: EncodedResult) => void) => Promise<Subscription>,
): Promise<`0x${string}`> {
  let envelopeStart: Uint8Array | undefined;
  let held: EncodedResult[] | undefined = [];
  const send = (result: EncodedResult) => connection.sendUtf8([envelopeStart!, result, ENVELOPE_END]);
  const notify = (result: EncodedResult) => {
    if (held !== undefined) held.push(result);
    else send(result);
  };
  const engine = await start(notify);
  const id = toQuantity(engine.id);
  envelopeStart = Buffer.from(`{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":`, 'utf8');
  registryOf(connection).set(id, { engine, id });
  setImmediate(() => {
    const queued = held ?? [];
    held = undefined;
    for (const result of queued) send(result);
  });
  return id;
}

/** Cancels one of the connection's subscriptions; false when it owns none with that id. */
export function closeSubscription(connection: ClientConnection, id: string): boolean {
  const registry = registries.get(connection);
  const entry = registry?.get(id.toLowerCase());
  if (registry === undefined || entry === undefined) return false;
  registry.delete(entry.id);
  return entry.engine.unsubscribe();
}
