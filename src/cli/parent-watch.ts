/**
 * A node started by npm (`npm start` execs it, so npm is its parent) stops when npm is gone. npm passes SIGINT and
 * SIGTERM on to its child, but nothing passes on a SIGKILL: without this the node would live on as an orphan holding
 * the datadir's database lock, and the next start would be refused. An orphan is re-parented (to init or a
 * subreaper), so a changed `process.ppid` means the parent died.
 *
 * Only under npm (or a script npm runs: the variable is inherited, so the nodes of `npm test`, `npm run cluster` and
 * `npm run bench` also stop when the process that started them dies). A node started from a shell in the background
 * (`svc-node … & disown`, `setsid svc-node …`) may be meant to outlive that shell.
 */

/** npm sets `npm_lifecycle_event` (start, test, …) in the environment of every script it runs. */
export function startedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_lifecycle_event !== undefined;
}

/** Calls `onGone(parentPid)` once, when the parent process this one started under is gone. Returns a cancel. */
export function watchParent(onGone: (parentPid: number) => void, intervalMs = 500): () => void {
  const parentPid = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parentPid) return;
    clearInterval(timer);
    onGone(parentPid);
  }, intervalMs);
  // The watch alone must not keep the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
