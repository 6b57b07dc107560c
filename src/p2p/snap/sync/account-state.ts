/**
 * The storage and code of accounts from a verified account range, fetched and stored before the accounts'
 * own trie nodes are: the account nodes are what say "this part of the state is complete". Small storage tries
 * come several per GetStorageRanges; a big one is fetched piece by piece (each piece proved and stored as its own
 * little trie) and then healed under its root, which the pieces alone do not build.
 */
import { bytesToHex } from '@ethereumjs/util';
import { buildRangeTrie } from '../../../chain/state/snap-store.js';
import type { SnapStatePort } from '../../chain-port.js';
import {
  type AccountEntry,
  fetchByteCodes,
  fetchStorageRanges,
  isEmptyCode,
  isEmptyStorage,
  type StorageJob,
} from './fetch.js';
import type { Healer } from './heal.js';
import type { SnapPeers } from './peers.js';
import { incHash, type SnapCounters } from './record.js';

/** Accounts per GetStorageRanges and code hashes per GetByteCodes. */
const STORAGE_ACCOUNTS_PER_REQUEST = 64;
const CODES_PER_REQUEST = 64;

export interface AccountStateOptions {
  readonly state: SnapStatePort;
  readonly peers: SnapPeers;
  readonly counters: SnapCounters;
  readonly healer: () => Healer;
}

export class AccountStateFetcher {
  constructor(private readonly opts: AccountStateOptions) {}

  /** Makes the storage tries and codes of `accounts` (from the trie under `stateRoot`) present. */
  async complete(stateRoot: Uint8Array, accounts: readonly AccountEntry[]): Promise<void> {
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
    await this.fetchStorage(stateRoot, [...jobs.values()]);
  }

  async fetchCodes(stateRoot: Uint8Array, hashes: Uint8Array[]): Promise<void> {
    let left = hashes;
    while (left.length > 0) {
      const ask = left.slice(0, CODES_PER_REQUEST);
      const got = await this.opts.peers.run(stateRoot, (peer) => fetchByteCodes(peer, ask));
      await this.opts.state.write([], got, undefined);
      this.opts.counters.codes += got.length;
      const have = new Set<string>();
      for (const h of ask) if (await this.opts.state.hasCode(h)) have.add(bytesToHex(h));
      left = [...ask.filter((h) => !have.has(bytesToHex(h))), ...left.slice(CODES_PER_REQUEST)];
    }
  }

  private async fetchStorage(stateRoot: Uint8Array, all: StorageJob[]): Promise<void> {
    const queue = [...all];
    const big: { job: StorageJob; next: Uint8Array }[] = [];
    while (queue.length > 0) {
      const ask = queue.splice(0, STORAGE_ACCOUNTS_PER_REQUEST);
      const answer = await this.opts.peers.run(stateRoot, (peer) => fetchStorageRanges(peer, stateRoot, ask));
      for (const range of answer.ranges) {
        await this.store(range.slots);
        if (range.more) {
          const next = incHash(range.slots.at(-1)!.key);
          if (next !== undefined) big.push({ job: range.job, next });
        }
      }
      queue.unshift(...ask.slice(answer.ranges.length));
    }
    for (const { job, next } of big) await this.fetchBigStorage(stateRoot, job, next);
  }

  /** One account's storage from `origin` to its end, piece by piece, then healed under its root. */
  private async fetchBigStorage(stateRoot: Uint8Array, job: StorageJob, origin: Uint8Array): Promise<void> {
    let from: Uint8Array | undefined = origin;
    while (from !== undefined) {
      const start: Uint8Array = from;
      const answer = await this.opts.peers.run(stateRoot, (peer) => fetchStorageRanges(peer, stateRoot, [job], start));
      const range = answer.ranges[0]!;
      await this.store(range.slots);
      from = range.more && range.slots.length > 0 ? incHash(range.slots.at(-1)!.key) : undefined;
    }
    await this.opts.healer().heal(stateRoot, [{ hash: job.root, account: job.account }]);
  }

  private async store(slots: readonly { key: Uint8Array; value: Uint8Array }[]): Promise<void> {
    if (slots.length === 0) return;
    const { nodes } = await buildRangeTrie(slots);
    await this.opts.state.write(nodes, [], undefined);
    this.opts.counters.slots += slots.length;
  }
}
