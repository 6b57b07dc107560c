/** Fork mode: a dev chain on top of another node's state at a pinned block (chain/fork/, node/fork-upstream.ts). */
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as s from './setting.js';

export const forkSettings = {
  'fork.url': s.string({
    placeholder: '<url>',
    flag: 'fork-url',
    default: undefined,
    description:
      "dev only: start the chain on this node's state (JSON-RPC URL of an etc, mordor or svc-node dev node); state is read lazily, kept in the datadir and in the fork cache (fork.cache-dir)",
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
  'fork.cache-dir': s.path({
    flag: 'fork-cache-dir',
    default: ({ env }) => join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'svc-node', 'fork'),
    help: '$XDG_CACHE_HOME/svc-node/fork, else ~/.cache/svc-node/fork',
    description:
      'upstream answers every fork datadir shares, one directory per upstream chain id and fork block (svc-node fork-cache lists it, fork-cache clear empties it)',
  }),
  'fork.cache-size': s.int({
    flag: 'fork-cache-size',
    min: 0,
    default: 2 * 1024 * 1024 * 1024,
    description:
      'most bytes the fork cache holds; past it the forks used least recently are deleted (0: no cache, every fork asks its upstream)',
  }),
};
