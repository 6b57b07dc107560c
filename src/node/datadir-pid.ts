/**
 * `<datadir>/svc-node.pid`: the pid of the node that holds the data directory, written once the chain database is
 * open (so its LevelDB lock is ours) and removed at a clean stop. A node killed outright leaves it behind; the next
 * node to get the lock overwrites it, so the file only ever names the holder or a dead process. Its one use: a
 * second node refused by the lock can say who holds the directory.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PID_FILE = 'svc-node.pid';

export const pidFileOf = (datadir: string): string => join(datadir, PID_FILE);

export function writePidFile(datadir: string, pid = process.pid): void {
  writeFileSync(pidFileOf(datadir), `${pid}\n`);
}

/** Removes the pid file if it still names `pid` (a node that took the directory over since keeps its own). */
export function removePidFile(datadir: string, pid = process.pid): void {
  if (readPidFile(datadir) === pid) rmSync(pidFileOf(datadir), { force: true });
}

/** The pid the file names, or undefined (no file, unreadable, not a pid). */
export function readPidFile(datadir: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidFileOf(datadir), 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What a node refused by the datadir's database lock tells the user. */
export function lockedDatadirMessage(datadir: string): string {
  const pid = readPidFile(datadir);
  const known = pid !== undefined && pid !== process.pid && isAlive(pid);
  const holder = known ? `another svc-node (pid ${pid})` : 'another svc-node (or another program using its database)';
  return (
    `the datadir ${datadir} is in use by ${holder}: its chain database ${join(datadir, 'chaindata')} is locked. ` +
    `Stop that node first, or start this one with another --datadir.`
  );
}
