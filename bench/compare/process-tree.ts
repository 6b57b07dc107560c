/**
 * Resident memory of a process and all its descendants, read from /proc (Linux). Worker threads share the
 * process's RSS; child processes (tsx loaders, Ethash cache workers, Hardhat's launcher) are added.
 */
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: the fields after the last ')' are fixed.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** One process's resident set size in bytes (0 once it is gone). */
export function rssBytesOf(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0; // exited meanwhile
  }
}

export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    const list = children.get(parent) ?? [];
    list.push(pid);
    children.set(parent, list);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export function treeRssBytes(root: number): number {
  return processTree(root).reduce((sum, pid) => sum + rssBytesOf(pid), 0);
}
