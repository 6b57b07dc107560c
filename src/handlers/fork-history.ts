/**
 * A fork's history is the upstream's up to its base block, as Anvil answers it: blocks at or below the base, and the
 * transactions and receipts in them, are asked of the upstream (within the fork.* limits) and kept in memory for the
 * next ask. The base block itself is stored header-only (chain/fork/fork-base.ts), so it too comes from the upstream,
 * with its transactions. An answer about a block above the base is not the fork's and is dropped.
 */
import { Lru } from '../chain/index.js';
import type { BlockNumberOrTagOrHash } from '../generated/types.js';
import { forkSwitcherOf } from '../node/fork/fork-switch.js';
import type { UpstreamClient } from '../node/fork/upstream-client.js';
import type { HandlerContext } from '../rpc/context.js';
import { engineOf } from './block-ref.js';
import { bytesFromHex, toQuantity } from './hex.js';

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

/**
 * The height of the block a param names when that block is the fork's history (at or below the base: the base too,
 * since it is stored header-only); undefined when it is this chain's to answer (not a fork, a tag that follows the
 * head, or a block above the base); null for a hash known neither here nor upstream at or below the base.
 * `earliest` is the upstream's genesis, as Anvil answers it.
 */
export async function historyHeightOf(
  ctx: HandlerContext,
  ref: BlockNumberOrTagOrHash,
): Promise<bigint | null | undefined> {
  const base = forkBaseOf(ctx);
  if (base === undefined) return undefined;
  if (typeof ref === 'object') return historyHeightOf(ctx, 'blockHash' in ref ? ref.blockHash : ref.blockNumber);
  if (ref === 'earliest') return 0n;
  if (!ref.startsWith('0x')) return undefined;
  if (ref.length !== 66) return BigInt(ref) <= base ? BigInt(ref) : undefined;
  const header = await engineOf(ctx).chain.getHeader(bytesFromHex(ref));
  if (header !== undefined && header.number !== base) return undefined;
  if (header !== undefined) return base;
  const block = await upstreamHistory<{ number: string }>(ctx, 'eth_getBlockByHash', [ref, false], (b) => b.number);
  return block === null ? null : BigInt(block.number);
}

/**
 * The upstream's answer to `method` when `ref` names the fork's history (historyHeightOf), as `{ answer }`;
 * undefined when the block is this chain's to answer.
 */
export async function fromForkHistory<T>(
  ctx: HandlerContext,
  ref: BlockNumberOrTagOrHash,
  method: string,
  params: readonly unknown[],
): Promise<{ answer: T | null } | undefined> {
  const height = await historyHeightOf(ctx, ref);
  if (height === undefined) return undefined;
  if (height === null) return { answer: null };
  return { answer: await upstreamHistory<T>(ctx, method, params, () => toQuantity(height)) };
}
