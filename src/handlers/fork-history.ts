/**
 * A fork's history is the upstream's up to its base block, as Anvil answers it: blocks at or below the base, and the
 * transactions and receipts in them, are asked of the upstream (within the fork.* limits) and kept in memory for the
 * next ask. The base block itself is stored header-only (chain/fork/fork-base.ts), so it too comes from the upstream,
 * with its transactions. An answer about a block above the base is not the fork's and is dropped.
 */
import { Lru } from '../chain/db/lru.js';
import { forkSwitcherOf } from '../node/fork/fork-switch.js';
import type { UpstreamClient } from '../node/fork/upstream-client.js';
import type { HandlerContext } from '../rpc/context.js';
import { engineOf } from './block-ref.js';

/** Answers kept per upstream: history does not change, and a test suite asks about few blocks. */
const KEPT = 1024;
const kept = new WeakMap<UpstreamClient, Lru<string, unknown>>();

/** The fork's base height when the running chain is a fork; undefined otherwise. */
export function forkBaseOf(ctx: HandlerContext): bigint | undefined {
  return engineOf(ctx).chain.forkBase;
}

/**
 * The upstream's answer to `method` (`params` as the caller sent them) when the fork has one and `heightOf` places it
 * at or below the base; null otherwise (not a fork, the upstream knows nothing, or it is past the base).
 */
export async function upstreamHistory<T>(
  ctx: HandlerContext,
  method: string,
  params: readonly unknown[],
  heightOf: (answer: T) => string | undefined,
): Promise<T | null> {
  const base = forkBaseOf(ctx);
  const client = forkSwitcherOf(ctx.node).current?.client;
  if (base === undefined || client === undefined) return null;
  let answers = kept.get(client);
  if (answers === undefined) kept.set(client, (answers = new Lru(KEPT)));
  const key = `${method}${JSON.stringify(params)}`;
  const known = answers.get(key);
  if (known !== undefined) return known as T;
  const answer = await client.call<T | null>(method, params);
  if (answer === null) return null;
  const height = heightOf(answer);
  if (height === undefined || BigInt(height) > base) return null;
  answers.set(key, answer);
  return answer;
}
