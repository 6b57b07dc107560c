/**
 * Scheduler priority of the process's background threads (Linux: nice is per thread, and a thread id is a process id
 * to setpriority). A sent-and-mined transfer is a ping-pong between a client and the main thread; on a machine with
 * few cores the background work (the seal-check worker, V8's compile and GC helper threads) must take the cores those
 * two leave, not preempt them. Raising a thread's nice needs no privilege; lowering it again does, so this only
 * ever raises it. Elsewhere (no /proc) nothing changes.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * The nice of V8's platform threads in a running node. They compile for the main isolate and the worker isolates
 * (TurboFan's first compiles of the hot set take seconds of CPU on a fresh node) and help the garbage collector; on
 * 2 cores, at the main thread's priority, they preempted it. Weight 335 against the main thread's 1,024: they still
 * get every core it leaves, ahead of the seal-check worker (nice 10), whose code they compile. A/B of the peer
 * report's sent-and-mined row on fresh nodes: bench/sent-mined-row.ts, results/transfer-server-time.md round 18.
 */
export const PLATFORM_NICE = 5;

/** The calling thread's id (the main thread's is the process id), or undefined off Linux. */
export function currentThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** Sets thread `tid`'s nice to `nice` unless it is already that low a priority; true if it is now at least that. */
export function lowerThreadPriority(tid: number, nice: number): boolean {
  try {
    if (getPriority(tid) >= nice) return true;
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/**
 * V8's platform worker threads (concurrent compilation, concurrent marking, parallel scavenge helpers) at `nice`.
 * Node starts them with the process, before any JavaScript runs: after the main thread, its delayed-task scheduler,
 * then the `threads` workers (node_platform.cc, WorkerThreadsTaskRunner); threads started later (libuv's pool, the
 * inspector's, worker threads) have higher ids. Returns the thread ids it changed.
 */
export function lowerPlatformThreads(nice: number, threads = 4): number[] {
  let tids: number[];
  try {
    tids = readdirSync('/proc/self/task')
      .map(Number)
      .filter((t) => t !== process.pid)
      .sort((a, b) => a - b);
  } catch {
    return [];
  }
  const workers = tids.slice(1, 1 + threads);
  return workers.filter((tid) => lowerThreadPriority(tid, nice));
}
