/**
 * The storage and code of accounts from a verified account range, fetched and stored before the accounts'
 * own trie nodes are: the account nodes are what say "this part of the state is complete". Small storage tries
 * come several per GetStorageRanges; a big one is fetched piece by piece (each piece proved and stored as its own
 * little trie) and then healed under its root, which the pieces alone do not build.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { SnapStatePort } from '../../chain-port.js';
import {
  type AccountEntry,
  fetchByteCodes,
  fetchStorageRanges,
  isEmptyCode,
  isEmptyStorage,
  type StorageAnswer,
  type StorageJob,
} from './fetch.js';
import type { Healer } from './heal.js';
import type { SnapPeers } from './peers.js';
import { incHash, type SnapCounters } from './record.js';

/** Accounts per GetStorageRanges and code hashes per GetByteCodes. */
const STORAGE_ACCOUNTS_PER_REQUEST = 64;
const CODES_PER_REQUEST = 64;
/**
 * GetStorageRanges of one account range in flight at once: one at a time left the peers idle while a chunk waited
 * for its storage (the peers' own limit of requests per peer still applies across all chunks).
 */
const STORAGE_REQUESTS_IN_FLIGHT = 4;

type NodeWrite = readonly [Uint8Array, Uint8Array];

export interface AccountStateOptions {
  readonly state: SnapStatePort;
  readonly peers: SnapPeers;
  readonly counters: SnapCounters;
  readonly healer: () => Healer;
}

export class AccountStateFetcher {
  constructor(private readonly opts: AccountStateOptions) {}

  /**
   * Makes the storage tries and codes of `accounts` (from the trie under `stateRoot`) present, or ready to be:
   * the nodes of the small storage tries are returned for the caller to write in the same batch as the accounts
   * (one write per account range instead of one per storage trie); big tries and codes are stored here.
   */
  async complete(stateRoot: Uint8Array, accounts: readonly AccountEntry[]): Promise<NodeWrite[]> {
    const { state } = this.opts;
    const codes = new Map<string, Uint8Array>();
    const jobs = new Map<string, StorageJob>();
    for (const a of accounts) {
      if (!isEmptyCode(a.codeHash) && !codes.has(bytesToHex(a.codeHash)) && !(await state.hasCode(a.codeHash)))
        codes.set(bytesToHex(a.codeHash), a.codeHash);
      if (
        !isEmptyStorage(a.storageRoot) &&
        !jobs.has(bytesToHex(a.storageRoot)) &&
        !(await state.hasNode(a.storageRoot))
      )
        jobs.set(bytesToHex(a.storageRoot), { account: a.key, root: a.storageRoot });
    }
    await this.fetchCodes(stateRoot, [...codes.values()]);
    return this.fetchStorage(stateRoot, [...jobs.values()]);
  }

  async fetchCodes(stateRoot: Uint8Array, hashes: Uint8Array[]): Promise<void> {
    let left = hashes;
    while (left.length > 0) {
      const ask = left.slice(0, CODES_PER_REQUEST);
      const got = await this.opts.peers.run(stateRoot, (peer, t) => fetchByteCodes(peer, ask, t), 'codes');
      await this.opts.state.write([], got, undefined);
      this.opts.counters.codes += got.length;
      const have = new Set<string>();
      for (const h of ask) if (await this.opts.state.hasCode(h)) have.add(bytesToHex(h));
      left = [...ask.filter((h) => !have.has(bytesToHex(h))), ...left.slice(CODES_PER_REQUEST)];
    }
  }

  /** The whole small tries' nodes (to be written by the caller); the big tries are fetched and stored here. */
  private async fetchStorage(stateRoot: Uint8Array, all: StorageJob[]): Promise<NodeWrite[]> {
    const queue = [...all];
    const big: { job: StorageJob; next: Uint8Array }[] = [];
    const whole: NodeWrite[] = [];
    const worker = async (): Promise<void> => {
      while (queue.length > 0) {
        const ask = queue.splice(0, STORAGE_ACCOUNTS_PER_REQUEST);
        let answer: StorageAnswer;
        try {
          answer = await this.opts.peers.run(
            stateRoot,
            (peer, t) => fetchStorageRanges(peer, stateRoot, ask, t),
            'storage',
          );
        } catch (err) {
          queue.unshift(...ask);
          throw err;
        }
        for (const range of answer.ranges) {
          this.opts.counters.slots += range.slots.length;
          if (!range.more) {
            for (const node of range.nodes) whole.push(node);
            continue;
          }
          // The first piece of a big trie: what it proves complete is stored now, the rest follows below.
          await this.opts.state.write(range.nodes, [], undefined);
          const next = range.slots.length > 0 ? incHash(range.slots.at(-1)!.key) : undefined;
          if (next !== undefined) big.push({ job: range.job, next });
        }
        queue.unshift(...ask.slice(answer.ranges.length));
      }
    };
    await Promise.all(Array.from({ length: STORAGE_REQUESTS_IN_FLIGHT }, worker));
    for (const { job, next } of big) await this.fetchBigStorage(stateRoot, job, next);
    return whole;
  }

  /** One account's storage from `origin` to its end, piece by piece, then healed under its root. */
  private async fetchBigStorage(stateRoot: Uint8Array, job: StorageJob, origin: Uint8Array): Promise<void> {
    let from: Uint8Array | undefined = origin;
    while (from !== undefined) {
      const start: Uint8Array = from;
      const answer = await this.opts.peers.run(
        stateRoot,
        (peer, t) => fetchStorageRanges(peer, stateRoot, [job], t, start),
        'storage',
      );
      const range = answer.ranges[0]!;
      await this.opts.state.write(range.nodes, [], undefined);
      this.opts.counters.slots += range.slots.length;
      from = range.more && range.slots.length > 0 ? incHash(range.slots.at(-1)!.key) : undefined;
    }
    await this.opts.healer().heal(stateRoot, [{ hash: job.root, account: job.account }]);
  }
}
