/** Fork mode: a dev chain on top of another node's state at a pinned block (chain/fork/, node/fork-upstream.ts). */
import * as s from './setting.js';

export const forkSettings = {
  'fork.url': s.string({
    placeholder: '<url>',
    flag: 'fork-url',
    default: undefined,
    description:
      "dev only: start the chain on this node's state (JSON-RPC URL of an etc, mordor or svc-node dev node); state is read lazily and kept in the datadir",
  }),
  'fork.block': s.int({
    flag: 'fork-block',
    aliases: ['fork-block-number'],
    min: 0,
    default: undefined,
    help: "the upstream's head - 5",
    description: 'the upstream block the fork starts on (read once: a restarted fork datadir keeps its block)',
  }),
  'fork.retries': s.int({
    min: 0,
    max: 20,
    default: 4,
    description: 'retries of a failed upstream request (exponential backoff from 100 ms) before it fails the read',
  }),
  'fork.requests-per-second': s.count({
    default: 50,
    description: 'most requests the fork sends the upstream per second',
  }),
  'fork.concurrency': s.count({
    default: 8,
    description: 'most upstream requests the fork has open at once',
  }),
  'fork.max-response-bytes': s.count({
    default: 32 * 1024 * 1024,
    description:
      'largest answer the fork reads from its upstream, counted as it arrives; past it the request is cut off and fails naming this setting',
  }),
  'fork.timeout': s.duration({
    default: 15_000,
    min: 100,
    description: 'time an upstream request may take before it counts as failed',
  }),
};
