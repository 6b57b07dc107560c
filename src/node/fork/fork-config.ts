/** Fork mode's settings (`fork.*`), checked: the upstream URL, the block, and how hard the fork may ask. */
import { ConfigError } from '../config-error.js';
import type { ForkConfig, ForkRequestLimits } from '../config.js';
import type { NetworkName } from '../../chain/index.js';
import type { readSettings } from '../settings/read.js';

export function forkOf(get: ReturnType<typeof readSettings>['get'], network: NetworkName): ForkConfig | undefined {
  const url = get('fork.url');
  const block = get('fork.block');
  if (url === undefined) {
    if (block !== undefined) throw new ConfigError('fork.block (--fork-block) needs fork.url (--fork-url)');
    return undefined;
  }
  if (network !== 'dev')
    throw new ConfigError(`fork.url is for the dev network only: a fork is a local dev chain, not ${network} itself`);
  if (!/^https?:\/\//.test(url)) throw new ConfigError(`fork.url must be an http(s) JSON-RPC URL, got "${url}"`);
  return {
    url,
    ...(block !== undefined ? { block: BigInt(block) } : {}),
    ...forkRequestsOf(get),
  };
}

export function forkRequestsOf(get: ReturnType<typeof readSettings>['get']): ForkRequestLimits {
  return {
    retries: get('fork.retries'),
    requestsPerSecond: get('fork.requests-per-second'),
    concurrency: get('fork.concurrency'),
    timeoutMs: get('fork.timeout'),
    maxResponseBytes: get('fork.max-response-bytes'),
  };
}
