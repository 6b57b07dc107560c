/** The harness's side of the load generator: one long-lived child process, jobs run one at a time. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadJob {
  readonly id: number;
  readonly url: string;
  readonly body: string;
  readonly connections: number;
  readonly seconds: number;
}

export interface LoadResult {
  readonly id: number;
  readonly requestsPerSecond: number;
  /** Undefined when no request completed within the run. */
  readonly p50Ms: number | undefined;
  readonly p99Ms: number | undefined;
  readonly served: number;
  readonly failed: number;
}

type Reply = LoadResult | { id: number; error: string };

export class LoadGenerator {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();

  constructor() {
    this.child = fork(fileURLToPath(new URL('./load-generator.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (reply: Reply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if ('error' in reply) waiter.reject(new Error(reply.error));
      else waiter.resolve(reply);
    });
    this.child.once('exit', (code) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`load generator exited with ${code}`));
      this.pending.clear();
    });
  }

  run(job: Omit<LoadJob, 'id'>): Promise<LoadResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...job, id });
    });
  }

  close(): void {
    this.child.disconnect();
  }
}
