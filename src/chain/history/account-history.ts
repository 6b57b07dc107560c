/**
 * svc_getAccountTransactions on the engine: the canonical transactions an account sent or received in a
 * block range, newest block first and the last transaction first within a block, read through the
 * address index so the cost follows the account's own transactions.
 */
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { equalsBytes } from '@ethereumjs/util';
import type { TxReceipt } from '../codec/receipts.js';
import { hexKey } from '../db/hex-key.js';
import { AddressIndex, type AddressIndexReader } from './address-index.js';

export const DEFAULT_ACCOUNT_HISTORY_MAX_BLOCKS = 1000;

/** The range asked for spans more blocks than the node searches in one call. */
export class AccountRangeTooWideError extends Error {
  constructor(
    readonly limit: number,
    readonly requested: bigint,
  ) {
    super(
      `Maximum number of blocks to search is ${limit}, requested: ${requested}. Split the range into smaller requests.`,
    );
    this.name = 'AccountRangeTooWideError';
  }
}

export interface AccountTransaction {
  readonly tx: TypedTransaction;
  readonly block: Block;
  /** Index of the transaction in its block. */
  readonly index: number;
  readonly receipt: TxReceipt;
  /** Every receipt of the block, as loaded with it (a receipt's first log index counts the ones before it). */
  readonly blockReceipts: readonly TxReceipt[];
  /** The account is the sender (otherwise it is the recipient). */
  readonly isOutgoing: boolean;
}

/** One page of an account's history (`AccountHistory.page`). */
export interface AccountHistoryPage {
  /** In walking order: newest first going back, oldest first going forward. */
  readonly transactions: AccountTransaction[];
  /** Another canonical transaction of the account lies beyond the page in the walking direction. */
  readonly more: boolean;
}

/**
 * The chain reads the walk needs, which the Blockchain provides. Named here so that history/ sits below the
 * Blockchain, which stores the address index through history/ (ARCHITECTURE.md, the engine's inner layers).
 */
export interface HistoryChain {
  getHead(): Block;
  getCanonicalHash(number: bigint): Promise<Uint8Array | undefined>;
  getBlock(hash: Uint8Array): Promise<Block | undefined>;
  getReceipts(blockHash: Uint8Array): Promise<TxReceipt[] | undefined>;
}

export class AccountHistory {
  private readonly index: AddressIndex;

  constructor(
    private readonly chain: HistoryChain,
    reader: AddressIndexReader,
    readonly maxBlocks = DEFAULT_ACCOUNT_HISTORY_MAX_BLOCKS,
  ) {
    if (!Number.isSafeInteger(maxBlocks) || maxBlocks < 1)
      throw new RangeError(`maxBlocks must be a positive integer, got ${maxBlocks}`);
    this.index = new AddressIndex(reader);
  }

  /**
   * Canonical transactions of `address` from block `start` (inclusive) towards the genesis block or the head,
   * until at least `count` are found and the last block found is complete: a page never splits a block, so it may
   * hold a few more than `count` (Otterscan's ots_searchTransactions* pages work this way).
   */
  async page(
    address: Uint8Array,
    start: bigint,
    direction: 'back' | 'forward',
    count: number,
  ): Promise<AccountHistoryPage> {
    const head = this.chain.getHead().header.number;
    const load = this.blockLoader();
    const found: AccountTransaction[] = [];
    let more = false;
    for await (const entry of this.index.walk(address, start, direction)) {
      if (entry.number > head) continue;
      const hash = await this.chain.getCanonicalHash(entry.number);
      if (hash === undefined || !equalsBytes(hash, entry.blockHash)) continue;
      const last = found.at(-1);
      if (found.length >= count && last !== undefined && last.block.header.number !== entry.number) {
        more = true;
        break;
      }
      const loaded = await load(entry.blockHash);
      if (loaded !== undefined) found.push(minedAt(loaded, entry.index, address));
    }
    return { transactions: found, more };
  }

  /** Loads a block and its receipts once per call, however many of its transactions the account has. */
  private blockLoader(): (hash: Uint8Array) => Promise<LoadedBlock | undefined> {
    const blocks = new Map<string, Promise<LoadedBlock | undefined>>();
    return (hash) => {
      const key = hexKey(hash);
      let loaded = blocks.get(key);
      if (loaded === undefined) {
        loaded = (async () => {
          const [block, receipts] = await Promise.all([this.chain.getBlock(hash), this.chain.getReceipts(hash)]);
          return block === undefined || receipts === undefined ? undefined : { block, receipts };
        })();
        blocks.set(key, loaded);
      }
      return loaded;
    };
  }

  /** Canonical transactions of `address` in [from, to] (inclusive), newest first. Throws AccountRangeTooWideError. */
  async transactions(address: Uint8Array, from: bigint, to: bigint): Promise<AccountTransaction[]> {
    if (from > to) return [];
    const requested = to - from + 1n;
    if (requested > BigInt(this.maxBlocks)) throw new AccountRangeTooWideError(this.maxBlocks, requested);
    const head = this.chain.getHead().header.number;
    const last = to > head ? head : to;
    if (from > last) return [];
    const entries = await this.index.entries(address, from, last);
    const load = this.blockLoader();
    const canonical = await Promise.all(
      entries.map(async (e) => {
        const hash = await this.chain.getCanonicalHash(e.number);
        return hash !== undefined && equalsBytes(hash, e.blockHash);
      }),
    );
    const out: AccountTransaction[] = [];
    for (let i = entries.length - 1; i >= 0; i--) {
      if (!canonical[i]) continue;
      const entry = entries[i];
      const loaded = await load(entry.blockHash);
      if (loaded !== undefined) out.push(minedAt(loaded, entry.index, address));
    }
    return out;
  }
}

interface LoadedBlock {
  readonly block: Block;
  readonly receipts: TxReceipt[];
}

function minedAt({ block, receipts }: LoadedBlock, index: number, address: Uint8Array): AccountTransaction {
  const receipt = receipts[index];
  return {
    tx: block.transactions[index],
    block,
    index,
    receipt,
    blockReceipts: receipts,
    isOutgoing: equalsBytes(receipt.from, address),
  };
}
