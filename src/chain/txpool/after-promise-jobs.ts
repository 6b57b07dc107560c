/**
 * Resolves once the promise jobs under way have run, and before the event loop reads anything more: Node.js runs its
 * next-tick queue after the microtask queue is empty. An automined send's answer is written from a promise job
 * (server/fast-http.ts), so work awaiting this follows the answer yet precedes every request read after it.
 */
export function afterPromiseJobs(): Promise<void> {
  return new Promise<void>((resolve) => process.nextTick(resolve));
}
