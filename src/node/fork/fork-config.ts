/** The fork settings (fork.*) shaped for fork mode, anvil_reset onto a fork, and the fork cache. */
import type { NetworkName } from '../../chain/index.js';
import { ConfigError } from '../config-error.js';
import type { readSettings } from '../settings/read.js';

type Get = ReturnType<typeof readSettings>['get'];

/** fork.cache-*: where upstream answers are kept for every fork datadir, and how many bytes at most (0: none). */
export interface ForkCacheConfig {
  readonly dir: string;
  readonly maxBytes: number;
}

/** How hard a fork may ask its upstream (fork.*): for `--fork-url` and for anvil_reset onto a fork alike. */
export interface ForkRequestLimits {
  readonly retries: number;
  readonly requestsPerSecond: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
  /** The largest upstream answer read; a larger one is cut off as it streams in and fails its request. */
  readonly maxResponseBytes: number;
  /** The fork cache every fork datadir shares (fork-cache.ts). */
  readonly cache: ForkCacheConfig;
}

/** Fork mode (`--fork-url`): where the state comes from and how hard the node may ask. */
export interface ForkConfig extends ForkRequestLimits {
  readonly url: string;
  /** undefined = the upstream's head minus a few, read when the fork datadir is created. */
  readonly block?: bigint;
}

export function forkOf(get: Get, network: NetworkName): ForkConfig | undefined {
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

export function forkRequestsOf(get: Get): ForkRequestLimits {
  return {
    retries: get('fork.retries'),
    requestsPerSecond: get('fork.requests-per-second'),
    concurrency: get('fork.concurrency'),
    timeoutMs: get('fork.timeout'),
    maxResponseBytes: get('fork.max-response-bytes'),
    cache: { dir: get('fork.cache-dir'), maxBytes: get('fork.cache-size') },
  };
}
