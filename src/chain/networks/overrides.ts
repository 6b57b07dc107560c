/**
 * Operator overrides of a network's fork schedule (`--override.<fork> <block>`, geth's habit): a fork moved to
 * another block, or unscheduled (`never`), without a release. Generic over the schedule's names, so a fork added to
 * `EtcForkSchedule` can be overridden with no code here.
 */
import { etc } from './etc.js';
import type { EtcForkName, EtcForkSchedule, NetworkDefinition } from './types.js';

/** Every fork name, in schedule order (each one builds on those before it). */
export const ETC_FORK_NAMES: readonly EtcForkName[] = Object.keys(etc.forks) as EtcForkName[];

export function isEtcForkName(name: string): name is EtcForkName {
  return (ETC_FORK_NAMES as readonly string[]).includes(name);
}

/** A fork's new block, `null` to unschedule it. */
export type ForkOverrides = Partial<Record<EtcForkName, bigint | null>>;

export class ForkOverrideError extends Error {
  override name = 'ForkOverrideError';
}

/** What `--override.<fork>` takes: a block number, or `never`/`none` to unschedule. */
export function parseForkBlock(fork: string, value: unknown): bigint | null {
  const text = typeof value === 'number' || typeof value === 'bigint' ? String(value) : value;
  if (typeof text === 'string') {
    const t = text.trim().replaceAll('_', '');
    if (t === 'never' || t === 'none') return null;
    if (/^\d+$/.test(t)) return BigInt(t);
  }
  throw new ForkOverrideError(
    `override.${fork} must be a block number (0 or more) or "never", got ${JSON.stringify(value)}`,
  );
}

/** The fork name a mistyped one most likely meant (case-blind, a few letters away). */
export function nearestForkName(name: string): EtcForkName | undefined {
  let best: { fork: EtcForkName; distance: number } | undefined;
  for (const fork of ETC_FORK_NAMES) {
    const distance = editDistance(name.toLowerCase(), fork.toLowerCase());
    if (distance <= 3 && (best === undefined || distance < best.distance)) best = { fork, distance };
  }
  return best?.fork;
}

/** The fork name `name` stands for, or an error naming the one it most likely meant. */
export function forkNameOf(name: string): EtcForkName {
  if (isEtcForkName(name)) return name;
  const near = nearestForkName(name);
  throw new ForkOverrideError(
    `unknown fork "${name}"${near !== undefined ? `: did you mean ${near}?` : ''} (forks: ${ETC_FORK_NAMES.join(', ')})`,
  );
}

/**
 * `def` with `overrides` applied, checked: each fork builds on every fork listed before it in the schedule, so a
 * scheduled fork needs every earlier one scheduled at the same block or before it (Spiral at 20 with Mystique at 30
 * would run Spiral's rules on a chain without Mystique's, a rule set no client has). Thanos also moves the Etchash
 * epoch change (ECIP-1099), which is the same block.
 */
export function withForkOverrides(def: NetworkDefinition, overrides: ForkOverrides): NetworkDefinition {
  const entries = Object.entries(overrides) as [EtcForkName, bigint | null][];
  if (entries.length === 0) return def;
  const forks = { ...def.forks } as Record<EtcForkName, bigint | null>;
  for (const [fork, block] of entries) forks[forkNameOf(fork)] = block;
  checkForkOrder(forks, overrides);
  const schedule = forks as EtcForkSchedule;
  return {
    ...def,
    forks: schedule,
    ...('thanos' in overrides ? { pow: { ...def.pow, ecip1099Block: schedule.thanos } } : {}),
  };
}

function checkForkOrder(forks: Record<EtcForkName, bigint | null>, overrides: ForkOverrides): void {
  const shown = (fork: EtcForkName) => `${fork} at ${forks[fork] ?? 'never'}${fork in overrides ? ' (override)' : ''}`;
  for (let i = 1; i < ETC_FORK_NAMES.length; i++) {
    const later = ETC_FORK_NAMES[i]!;
    const at = forks[later];
    if (at === null) continue;
    for (let j = 0; j < i; j++) {
      const earlier = ETC_FORK_NAMES[j]!;
      const before = forks[earlier];
      if (before === null || before > at) {
        throw new ForkOverrideError(
          `fork order: ${shown(later)} builds on ${earlier}, which would come ${before === null ? 'never' : 'after it'} (${shown(earlier)}); move ${earlier} to block ${at} or before, or ${later} to block ${before ?? 'never'}${before === null ? '' : ' or later'}`,
        );
      }
    }
  }
}

/** Levenshtein distance: the did-you-mean of fork names here and of setting names in src/node/settings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** One fork still ahead of `head`: its name, block, and whether an override put it there. */
export interface ForkAhead {
  readonly fork: EtcForkName;
  readonly block: bigint;
  readonly overridden: boolean;
}

/** The forks scheduled after `head`, by block (schedule order among forks at one block). */
export function forksAhead(def: NetworkDefinition, head: bigint, overrides: ForkOverrides = {}): ForkAhead[] {
  const ahead: ForkAhead[] = [];
  for (const fork of ETC_FORK_NAMES) {
    const block = def.forks[fork];
    if (block !== null && block > head) ahead.push({ fork, block, overridden: fork in overrides });
  }
  return ahead.sort((a, b) => (a.block < b.block ? -1 : a.block > b.block ? 1 : 0));
}

/** A fork whose block differs between the schedule a chain was built with and the one it would run with now. */
export interface MovedFork {
  readonly fork: EtcForkName;
  readonly was: bigint | null;
  readonly now: bigint | null;
}

/**
 * The forks moved between `built` and `now` that a chain at `head` already passed: blocks from the earlier of the two
 * activation blocks on were executed under other rules than `now` gives them.
 */
export function movedForksPassed(built: EtcForkSchedule, now: EtcForkSchedule, head: bigint): MovedFork[] {
  const moved: MovedFork[] = [];
  for (const fork of ETC_FORK_NAMES) {
    const was = built[fork] ?? null;
    const is = now[fork];
    if (was === is) continue;
    const first = was === null ? is! : is === null ? was : was < is ? was : is;
    if (head >= first) moved.push({ fork, was, now: is });
  }
  return moved;
}
