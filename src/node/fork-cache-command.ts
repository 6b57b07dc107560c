/**
 * `svc-node fork-cache`: what the fork cache holds (one line per upstream chain id and fork block, with its size),
 * and `svc-node fork-cache clear [<chain id> [<block>]]`, which deletes all of it or one chain's or one fork's.
 * Safe while forks run: a running fork whose directory goes away reads through to its upstream again.
 */
import { forkCacheFor } from './fork/cached-upstream.js';
import type { ForkCacheConfig } from './fork/fork-config.js';

/** The command's form, for a mistake's one line (cli/flag-errors.ts's style). */
const forkCacheForm = 'svc-node fork-cache [clear [<chain id> [<fork block>]]]';

export async function runForkCacheCommand(
  config: ForkCacheConfig,
  args: readonly string[],
  out: NodeJS.WritableStream,
): Promise<{ exitCode: number; error?: string }> {
  const cache = forkCacheFor(config);
  const [verb, chainId, block, ...rest] = args;
  if (verb === 'clear') {
    if (rest.length > 0 || [chainId, block].some((n) => n !== undefined && !/^\d+$/.test(n)))
      return { exitCode: 2, error: `a chain id and a block are decimal numbers; write ${forkCacheForm}` };
    const { forks, bytes } = await cache.clear(chainId, block);
    out.write(`fork cache ${config.dir}: deleted ${forks} fork${forks === 1 ? '' : 's'}, ${size(bytes)}\n`);
    return { exitCode: 0 };
  }
  if (verb !== undefined) return { exitCode: 2, error: `unknown fork-cache command ${verb}; write ${forkCacheForm}` };
  const forks = await cache.list();
  const total = forks.reduce((sum, f) => sum + f.bytes, 0);
  out.write(
    `fork cache ${config.dir}: ${forks.length} fork${forks.length === 1 ? '' : 's'}, ${size(total)} of ${size(config.maxBytes)}\n`,
  );
  for (const f of forks)
    out.write(
      `  chain ${f.chainId} block ${f.block}: ${f.entries} entries, ${size(f.bytes)}, last used ${f.lastUsed.toISOString()}\n`,
    );
  return { exitCode: 0 };
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}
