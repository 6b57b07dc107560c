/**
 * A client that subscribes and vanishes before its eth_subscribe has resolved (the engine queues a
 * subscription behind the head changes in progress) leaves nothing behind: the subscription made for a
 * closed connection is cancelled at once (issue 14, soak). Before the fix it stayed in the engine for ever,
 * fed with every block, counted in svc_ws_subscriptions and owned by no one.
 */
import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../src/chain/filters/filter-manager.js';
import { ConnectionSubscriptions } from '../../src/rpc/connection-subscriptions.js';
import type { ClientConnection } from '../../src/rpc/context.js';
import { openSubscription } from '../../src/handlers/eth/subscriptions.js';

/** A connection with the transport's contract: onClose listeners run once at close, at once after it. */
function fakeConnection(): ClientConnection & { close(): void } {
  let closed = false;
  const subscriptions = new ConnectionSubscriptions();
  const listeners: Array<() => void> = [() => subscriptions.close()];
  return {
    id: 1,
    subscriptions,
    send() {},
    sendText() {},
    sendNotifications() {},
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
    close() {
      closed = true;
      for (const listener of listeners.splice(0)) listener();
    },
  };
}

function engineSubscription(id: bigint): Subscription & { cancelled: boolean } {
  const sub = {
    id,
    cancelled: false,
    unsubscribe() {
      const was = !sub.cancelled;
      sub.cancelled = true;
      return was;
    },
  };
  return sub;
}

/** A `start` that resolves only when told to, as the engine's queue does behind a head change. */
function deferredStart(sub: Subscription) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { start: async () => (await gate, sub), release };
}

describe('subscriptions of a vanished client', () => {
  it('a subscription resolving after its connection closed is cancelled at once', async () => {
    const connection = fakeConnection();
    const sub = engineSubscription(7n);
    const { start, release } = deferredStart(sub);
    const answer = openSubscription(connection, start);
    connection.close();
    release();
    await answer;
    expect(sub.cancelled).toBe(true);
  });

  it('with earlier subscriptions of the same connection already closed with it', async () => {
    const connection = fakeConnection();
    const first = engineSubscription(1n);
    await openSubscription(connection, async () => first);
    const second = engineSubscription(2n);
    const { start, release } = deferredStart(second);
    const answer = openSubscription(connection, start);
    connection.close();
    expect(first.cancelled).toBe(true);
    release();
    await answer;
    expect(second.cancelled).toBe(true);
  });

  it('an open connection keeps its subscriptions until it closes', async () => {
    const connection = fakeConnection();
    const sub = engineSubscription(3n);
    await openSubscription(connection, async () => sub);
    expect(sub.cancelled).toBe(false);
    connection.close();
    expect(sub.cancelled).toBe(true);
  });
});
