/**
 * A wait that `signal` cuts short. The sync's idle waits (no peer yet, nothing to backfill) ran to their end after
 * a stop, so stopping a node that had no peers took a second for no work at all. Unref'd: an idle wait must never
 * keep a process alive that is stopping or failed to start.
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
