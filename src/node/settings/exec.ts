/**
 * Where read-only execution runs (worker threads for eth_call and its kin, src/chain/view/call-pool.ts), and how the
 * blocks this node seals are executed and checked (src/chain/exec/seal-checker.ts).
 */
import { availableParallelism } from 'node:os';
import * as s from './setting.js';

export const execSettings = {
  'exec.workers': s.int({
    min: 0,
    flag: 'exec.workers',
    // One core stays with the main thread (HTTP, JSON, blocks); on one core a worker still keeps calls off it.
    default: () => Math.max(1, availableParallelism() - 1),
    help: 'cores - 1, at least 1',
    description:
      'worker threads that run eth_call, eth_estimateGas and eth_createAccessList (started on the first call; until one is ready calls run on the main thread); 0 = run them on the main thread',
  }),
  'exec.max-queued': s.count({
    default: 256,
    description: 'calls that may wait for an execution worker; more are answered -32005 (retry later)',
  }),
  'exec.seal-check-lag': s.count({
    flag: 'exec.seal-check-lag',
    default: 16,
    description:
      "blocks this node sealed that may wait for @ethereumjs/vm's re-execution of them (a worker thread checks each one); the miner waits beyond it",
  }),
  'exec.lean': s.bool({
    flag: 'exec.lean',
    default: true,
    description:
      "seal blocks with svc-node's faster execution paths (plain transfers without the EVM, lean call frames, flat state); false = the library's own paths",
  }),
};
