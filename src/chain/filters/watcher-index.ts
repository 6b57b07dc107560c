/**
 * Finds, for the logs of one block, which log watchers (filters and subscriptions) they concern, without
 * testing every log against every watcher: with 1,000 filters open that was most of the per-block cost.
 *
 * Watchers with identical criteria share one `CriteriaGroup`, matched once per block. Each group is
 * indexed under ONE key that a matching log must carry, chosen to be as selective as usual filters allow:
 * - a fixed topic after the first (an indexed event argument such as the recipient of a Transfer: wallets
 *   watching `[Transfer, null, me]` share the event topic and the contract, but not this), the last one;
 * - else its addresses;
 * - else its first topic (the event signature);
 * - else a "match anything" bucket.
 * A log is then only tested against the groups under its own address, under one of its (position, topic)
 * pairs, and of that bucket. A group sits under one key kind only and a log has one address and one topic
 * per position, so no group is reached twice for the same log.
 */
import { hexKey } from '../db/hex-key.js';
import { bloomMayMatch, compileCriteria, matchesLog, type CompiledCriteria } from '../logs/match.js';
import type { Log, LogCriteria } from '../logs/types.js';

export interface CriteriaGroup<W> {
  readonly key: string;
  readonly criteria: CompiledCriteria;
  readonly members: Set<W>;
}

const keyOfBytes = hexKey;

/** Equal for criteria that match the same logs (order and duplicates within an OR-set do not matter). */
function criteriaKey(c: CompiledCriteria): string {
  const set = (values: readonly Uint8Array[] | undefined) =>
    values === undefined ? '*' : values.map(keyOfBytes).sort().join(',');
  // The number of positions matters even when trailing ones are wildcards: a log needs at least that many topics.
  return `${set(c.addresses)}|${c.topics.map(set).join(';')}|${c.topics.length}`;
}

function addTo<G>(buckets: Map<string, Set<G>>, key: string, group: G): void {
  let bucket = buckets.get(key);
  if (bucket === undefined) buckets.set(key, (bucket = new Set()));
  bucket.add(group);
}

function removeFrom<G>(buckets: Map<string, Set<G>>, key: string, group: G): void {
  const bucket = buckets.get(key);
  if (bucket === undefined) return;
  bucket.delete(group);
  if (bucket.size === 0) buckets.delete(key);
}

export class WatcherIndex<W> {
  private readonly groups = new Map<string, CriteriaGroup<W>>();
  private readonly byAddress = new Map<string, Set<CriteriaGroup<W>>>();
  /** Keyed by `<position>:<topic hex>`. */
  private readonly byTopic = new Map<string, Set<CriteriaGroup<W>>>();
  private readonly anyLog = new Set<CriteriaGroup<W>>();

  get groupCount(): number {
    return this.groups.size;
  }

  /** Adds the watcher `create` makes for the group of `criteria` (whose compiled criteria it shares with its peers). */
  add(criteria: LogCriteria, create: (group: CriteriaGroup<W>) => W): W {
    const compiled = compileCriteria(criteria);
    const key = criteriaKey(compiled);
    let group = this.groups.get(key);
    if (group === undefined) {
      group = { key, criteria: compiled, members: new Set() };
      this.groups.set(key, group);
      this.place(group, true);
    }
    const watcher = create(group);
    group.members.add(watcher);
    return watcher;
  }

  remove(group: CriteriaGroup<W>, watcher: W): void {
    group.members.delete(watcher);
    if (group.members.size > 0 || this.groups.get(group.key) !== group) return;
    this.groups.delete(group.key);
    this.place(group, false);
  }

  clear(): void {
    this.groups.clear();
    this.byAddress.clear();
    this.byTopic.clear();
    this.anyLog.clear();
  }

  /** False only when no group can match a log of a block with this bloom (so its receipts need not be read). */
  mayMatchBloom(bloom: Uint8Array): boolean {
    for (const group of this.groups.values()) if (bloomMayMatch(group.criteria, bloom)) return true;
    return false;
  }

  /**
   * The logs (in the order given) each group matches, for the groups that match any. The arrays are
   * shared by every member of a group: receivers must not modify them.
   */
  match(logs: readonly Log[]): Map<CriteriaGroup<W>, Log[]> {
    const matched = new Map<CriteriaGroup<W>, Log[]>();
    const test = (groups: Iterable<CriteriaGroup<W>> | undefined, log: Log) => {
      if (groups === undefined) return;
      for (const group of groups) {
        if (!matchesLog(group.criteria, log)) continue;
        const list = matched.get(group);
        if (list === undefined) matched.set(group, [log]);
        else list.push(log);
      }
    };
    for (const log of logs) {
      if (this.byAddress.size > 0) test(this.byAddress.get(keyOfBytes(log.address)), log);
      if (this.byTopic.size > 0)
        for (let i = 0; i < log.topics.length; i++) test(this.byTopic.get(`${i}:${keyOfBytes(log.topics[i])}`), log);
      test(this.anyLog, log);
    }
    return matched;
  }

  /** Puts the group in (or takes it out of) the buckets its criteria narrow it to. */
  private place(group: CriteriaGroup<W>, present: boolean): void {
    const op = present ? addTo : removeFrom;
    const { addresses, topics } = group.criteria;
    const position = topics.findLastIndex((values, i) => i > 0 && values !== undefined);
    if (position > 0) for (const t of topics[position]!) op(this.byTopic, `${position}:${keyOfBytes(t)}`, group);
    else if (addresses !== undefined) for (const a of addresses) op(this.byAddress, keyOfBytes(a), group);
    else if (topics[0] !== undefined) for (const t of topics[0]) op(this.byTopic, `0:${keyOfBytes(t)}`, group);
    else if (present) this.anyLog.add(group);
    else this.anyLog.delete(group);
  }
}
