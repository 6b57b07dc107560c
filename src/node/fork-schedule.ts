/**
 * The fork schedule a datadir's chain was built with, kept next to it (`fork-schedule.json`), and the check that
 * refuses to start where an override moves a fork the chain already passed: its blocks from that fork on were
 * executed under other rules, and the node would serve (and build on) a chain its own rules call invalid.
 * Persisted rather than derived from the head: a chain built with an override and restarted without it has moved
 * forks too, which the network's built-in schedule alone cannot tell. A datadir without the file (made before it
 * existed) was built with the network's built-in schedule.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ETC_FORK_NAMES,
  type EtcForkSchedule,
  type ForkOverrides,
  forksAhead,
  type MovedFork,
  movedForksPassed,
  type NetworkDefinition,
} from '../chain/index.js';
import type { Logger } from './logger.js';

const FILE = 'fork-schedule.json';

export class ForkScheduleMismatchError extends Error {
  override name = 'ForkScheduleMismatchError';
}

/** The schedule stored in `datadir`, `undefined` when none is. */
export function readBuiltSchedule(datadir: string): Partial<Record<string, bigint | null>> | undefined {
  let text: string;
  try {
    text = readFileSync(join(datadir, FILE), 'utf8');
  } catch {
    return undefined;
  }
  const stored = JSON.parse(text) as { forks: Record<string, string | null> };
  return Object.fromEntries(Object.entries(stored.forks).map(([k, v]) => [k, v === null ? null : BigInt(v)]));
}

function writeBuiltSchedule(datadir: string, forks: EtcForkSchedule): void {
  const out = Object.fromEntries(ETC_FORK_NAMES.map((f) => [f, forks[f] === null ? null : forks[f]!.toString()]));
  writeFileSync(join(datadir, FILE), `${JSON.stringify({ forks: out }, null, 2)}\n`);
}

const blockText = (b: bigint | null) => (b === null ? 'never' : `block ${b}`);

function refusal(moved: readonly MovedFork[], head: bigint, builtIn: EtcForkSchedule): string {
  const what = moved
    .map(({ fork, was, now }) => {
      const first = was === null ? now! : now === null ? was : was < now ? was : now;
      return `${fork} moves from ${blockText(was)} to ${blockText(now)}, but the chain's head is ${head}: blocks ${first}..${head} were executed under the old schedule and would have to be re-executed`;
    })
    .join('; ');
  // What gives back the schedule the datadir was built with: each moved fork's old override, or none.
  const restore = moved
    .map(({ fork, was }) =>
      was === builtIn[fork] ? `without --override.${fork}` : `with --override.${fork} ${was ?? 'never'} as before`,
    )
    .join(', ');
  return (
    `the datadir's chain passed a fork the schedule moves (${what}). To keep this chain, start ${restore} (the schedule it was built with, kept in ${FILE}); ` +
    'to follow the new schedule, start with a fresh --datadir and sync or import the chain again, so that it is re-executed under it'
  );
}

/**
 * Refuses (throws) when `def`'s schedule moves a fork a chain at `head` in `datadir` already passed; else, with
 * `record` (a start, an import: what runs blocks from now on), records the schedule as the one the datadir is built
 * with. Export and prune run no block, so they check without recording. Block 0 alone is not "passed": the genesis
 * runs no rules.
 */
export function checkDatadirSchedule(
  datadir: string,
  builtIn: EtcForkSchedule,
  def: NetworkDefinition,
  head: bigint,
  record = true,
) {
  const built = (readBuiltSchedule(datadir) ?? builtIn) as EtcForkSchedule;
  const moved = head === 0n ? [] : movedForksPassed(built, def.forks, head);
  if (moved.length > 0) throw new ForkScheduleMismatchError(refusal(moved, head, builtIn));
  if (record) writeBuiltSchedule(datadir, def.forks);
}

/** One line per fork still ahead of `head`, "(override)" on those an override moved: the schedule the node will follow. */
export function logForksAhead(log: Logger, def: NetworkDefinition, head: bigint, overrides: ForkOverrides): void {
  const ahead = forksAhead(def, head, overrides);
  for (const [fork, block] of Object.entries(overrides))
    if (block === null) log.info(`fork unscheduled: ${fork} (override)`, { fork, override: true });
  if (ahead.length === 0) {
    log.info('fork schedule: no fork ahead', { head: head.toString() });
    return;
  }
  for (const { fork, block, overridden } of ahead)
    log.info(`fork ahead: ${fork} at block ${block}${overridden ? ' (override)' : ''}`, {
      fork,
      block: block.toString(),
      ...(overridden ? { override: true } : {}),
    });
}
