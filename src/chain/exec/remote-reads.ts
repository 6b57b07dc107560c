/**
 * A call worker's view of a block's state (call-worker.ts): what its `BlockReads` misses is asked of the main
 * thread, which alone has the database open, and answered from the main thread's own reads of that block
 * (view/call-pool.ts). The asks of one tick travel as one message: calls running side by side in a worker share
 * the round trip.
 *
 * Asking for decoded accounts, code and slots (not trie nodes) keeps a miss at one round trip whatever the trie's
 * depth, and leaves every source the main thread reads from in its hands: the flat state, a dev edit's root, a
 * fork's upstream. The worker's `BlockReads` keeps what it was told (a block's state never changes).
 */
import { Account, type Address } from '@ethereumjs/util';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import type { StateReader } from './call-state.js';
import type { AccountFields, ReadAnswer, ReadItem, ReadRequest, ReadValue } from './call-worker-protocol.js';
import { AskBatcher } from './ask-batcher.js';

/** The worker's side of the read channel: asks batched per tick and block state (ask-batcher.ts). */
export class ReadChannel {
  private readonly asks: AskBatcher<ReadItem, ReadValue>;

  constructor(post: (request: ReadRequest) => void) {
    this.asks = new AskBatcher((id, key, items) => post({ kind: 'reads', id, key, items }));
  }

  ask(key: string, item: ReadItem): Promise<ReadValue> {
    return this.asks.ask(key, item);
  }

  answer(message: ReadAnswer): void {
    const failed = new Map(message.errors);
    this.asks.answer(message.id, message.values, (i) => failed.get(i));
  }

  /** The state reader of the block state `key`, over this channel. */
  reader(key: string): StateReader {
    return {
      getAccount: async (address: Address) => {
        const fields = (await this.ask(key, ['a', address.bytes])) as AccountFields | null;
        return fields === null ? undefined : new Account(fields[0], fields[1], fields[2], fields[3]);
      },
      getCode: async (address: Address) => (await this.ask(key, ['c', address.bytes])) as Uint8Array,
      getStorage: async (address: Address, slot: Uint8Array) =>
        (await this.ask(key, ['s', address.bytes, slot])) as Uint8Array,
    };
  }

  /** BLOCKHASH for calls on the block state `key`: asked once per height. */
  ancestors(key: string): EVMMockBlockchainInterface {
    const known = new Map<bigint, Promise<Uint8Array>>();
    const chain: EVMMockBlockchainInterface = {
      getBlock: async (n: number) => {
        const height = BigInt(n);
        let hash = known.get(height);
        if (hash === undefined) {
          hash = this.ask(key, ['h', height]) as Promise<Uint8Array>;
          known.set(height, hash);
          hash.catch(() => known.delete(height));
        }
        const bytes = await hash;
        return { hash: () => bytes } as Awaited<ReturnType<EVMMockBlockchainInterface['getBlock']>>;
      },
      putBlock: async () => {},
      shallowCopy: () => chain,
    };
    return chain;
  }
}
