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

interface Pending {
  readonly resolve: (value: ReadValue) => void;
  readonly reject: (err: Error) => void;
}

/** The worker's side of the read channel: batches asks per tick, matches answers by id. */
export class ReadChannel {
  private nextId = 1;
  private readonly waiting = new Map<number, readonly Pending[]>();
  /** Asks of this tick, per block state key. */
  private batch = new Map<string, { items: ReadItem[]; pending: Pending[] }>();
  private flushScheduled = false;

  constructor(private readonly post: (request: ReadRequest) => void) {}

  ask(key: string, item: ReadItem): Promise<ReadValue> {
    return new Promise((resolve, reject) => {
      let group = this.batch.get(key);
      if (group === undefined) this.batch.set(key, (group = { items: [], pending: [] }));
      group.items.push(item);
      group.pending.push({ resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.batch;
    this.batch = new Map();
    for (const [key, { items, pending }] of batch) {
      const id = this.nextId++;
      this.waiting.set(id, pending);
      this.post({ kind: 'reads', id, key, items });
    }
  }

  answer(message: ReadAnswer): void {
    const pending = this.waiting.get(message.id);
    if (pending === undefined) return;
    this.waiting.delete(message.id);
    const failed = new Map(message.errors);
    for (let i = 0; i < pending.length; i++) {
      const error = failed.get(i);
      if (error !== undefined) pending[i].reject(new Error(error));
      else pending[i].resolve(message.values[i]);
    }
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
