import type { Block } from '@ethereumjs/block';
import type { ChainEngine } from '../../chain/index.js';
import type { EthGasPriceParams, EthGasPriceResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { toQuantity } from '../hex.js';

/** How many blocks back (the head included) the suggestion looks. */
export const GAS_PRICE_WINDOW = 20;
/** The lowest price suggested: also the suggestion when the window holds no transactions. */
export const GAS_PRICE_FLOOR = 1_000_000_000n;

/**
 * A gas price suggestion, not a measurement of a market: the median gas price of the transactions in the
 * last GAS_PRICE_WINDOW blocks, never below GAS_PRICE_FLOOR (1 gwei), and the floor itself when those
 * blocks are empty (e.g. a fresh dev chain). The median ignores a few extreme bids, which an average
 * does not. Recomputed only when the head changes. Never below the pool's own floor (txpool min price,
 * anvil_setMinGasPrice), as Anvil's: a transaction priced as suggested must not be refused as underpriced.
 * The last suggestion is kept in the engine's memo.
 */
export async function suggestGasPrice(engine: ChainEngine): Promise<bigint> {
  const head = engine.chain.getHead();
  // The head Block object changes exactly when the head does, so it keys the cache.
  const cached = engine.memo.gasSuggestion;
  let price = cached?.price;
  if (cached === undefined || cached.head !== head) {
    price = await medianPriceUpTo(engine, head);
    engine.memo.gasSuggestion = { head, price };
  }
  const floor = engine.pool.minGasPrice;
  return price! > floor ? price! : floor;
}

async function medianPriceUpTo(engine: ChainEngine, head: Block): Promise<bigint> {
  const prices: bigint[] = [];
  for (let n = head.header.number, seen = 0; n >= 0n && seen < GAS_PRICE_WINDOW; n--, seen++) {
    const block = n === head.header.number ? head : await engine.chain.getBlock(n);
    for (const tx of block?.transactions ?? []) prices.push((tx as { gasPrice: bigint }).gasPrice);
  }
  if (prices.length === 0) return GAS_PRICE_FLOOR;
  prices.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const median = prices[prices.length >> 1];
  return median > GAS_PRICE_FLOOR ? median : GAS_PRICE_FLOOR;
}

export async function eth_gasPrice(_params: EthGasPriceParams, ctx: HandlerContext): Promise<EthGasPriceResult> {
  return toQuantity(await suggestGasPrice(engineOf(ctx)));
}
