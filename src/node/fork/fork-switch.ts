/**
 * anvil_reset's chain swap, as Anvil does it: a reset naming a fork (`forking.jsonRpcUrl`, `blockNumber`) drops the
 * running chain and starts a new fork of that node at that block (default: its head minus a few); a plain reset of a
 * forked node goes back to a plain dev chain at genesis. Nothing of the previous chain is kept: its blocks, the
 * upstream state it had read, snapshots, impersonation and the clock (they belong to the engine, which is closed).
 *
 * Each new chain gets its own directory under `<datadir>/resets/`, opened before the running one is closed, so
 * requests meanwhile are answered by the old chain; the previous reset's directory is deleted. The node's own chain
 * in the datadir is left as it is: a restart resumes what the command line names, as a restarted Anvil does.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ChainEngine, type NetworkName } from '../../chain/index.js';
import type { SvcNode } from '../node.js';
import { engineOptionsOf } from '../services.js';
import { UpstreamClient, upstreamClientFor } from './upstream-client.js';
import { forkNetworkOf } from './upstream-network.js';
import { cachedUpstreamOf } from './cached-upstream.js';

/** What a reset forks: the upstream's JSON-RPC URL and, optionally, the block to pin. */
export interface ForkTarget {
  readonly url: string;
  readonly block?: bigint;
}

/** The fork a chain runs on: its upstream (the URL without credentials) and the pinned block, when known. */
export interface RunningFork {
  readonly url: string;
  readonly upstream: string;
  readonly block: bigint | undefined;
  /** Asks the upstream within the fork.* request limits (history below the base, handlers/fork-history.ts). */
  readonly client: UpstreamClient;
}

export class ForkSwitcher {
  private resets = 0;
  /** The directory of the chain a reset made and that now runs; undefined while the node's own chain runs. */
  private currentDir: string | undefined;
  /** Swaps run one at a time. */
  private switching: Promise<unknown> = Promise.resolve();
  /** The fork the running chain is on; undefined for a plain dev chain. */
  private running: RunningFork | undefined;

  constructor(private readonly node: SvcNode) {
    const fork = node.config.fork;
    if (fork !== undefined) {
      // The client the engine reads through (services.ts), so a new upstream URL reaches both.
      const client = upstreamClientFor(fork);
      this.running = { url: fork.url, upstream: client.name, block: fork.block, client };
    }
  }

  get current(): RunningFork | undefined {
    return this.running;
  }

  /**
   * anvil_setRpcUrl: the running fork reads what it lacks from `url` from now on, on the same block; false (nothing
   * changed) when no fork runs.
   */
  setUpstreamUrl(url: string): boolean {
    const running = this.running;
    if (running === undefined) return false;
    running.client.setUrl(url);
    this.running = { ...running, url, upstream: running.client.name };
    return true;
  }

  /** Puts a new fork of `target`, or a plain dev chain (undefined), in place of the running chain. */
  replace(target: ForkTarget | undefined): Promise<void> {
    const run = this.switching.then(() => this.replaceNow(target));
    this.switching = run.catch(() => undefined);
    return run;
  }

  private async replaceNow(target: ForkTarget | undefined): Promise<void> {
    const { node } = this;
    const { config } = node;
    const resetsDir = join(config.datadir, 'resets');
    // What a previous run of the node left behind is of no use: its chains were resets of a process now gone.
    if (this.resets === 0) await rm(resetsDir, { recursive: true, force: true });
    const dir = join(resetsDir, `${process.pid}-${++this.resets}`);
    let engine: ChainEngine;
    let running: RunningFork | undefined;
    let network: NetworkName = 'dev';
    try {
      const upstream =
        target === undefined
          ? undefined
          : new UpstreamClient({
              ...config.forkRequests,
              url: target.url,
              ...(target.block !== undefined ? { block: target.block } : {}),
            });
      const record =
        upstream === undefined ? undefined : await forkNetworkOf(dir, upstream, target!.url, config.forkRequests.cache);
      if (record !== undefined) network = record.network;
      engine = await ChainEngine.open({
        ...engineOptionsOf(node),
        dataDir: dir,
        network,
        // A fork is sealed instantly whatever the node's own chain uses (config.ts refuses --fork-url with ethash).
        ...(upstream !== undefined && record !== undefined
          ? { fork: cachedUpstreamOf(upstream, record, config.forkRequests.cache), seal: 'instant' as const }
          : {}),
        powCacheDir: join(config.datadir, 'ethash'),
      });
      // A new fork's head is its base block.
      if (upstream !== undefined)
        running = {
          url: target!.url,
          upstream: upstream.name,
          block: engine.chain.getHead().header.number,
          client: upstream,
        };
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    engine.miner.on('failure', (err: Error) => node.log.warn('mining failed', { error: err.message }));
    if (config.mining.enabled) engine.miner.start();
    const previous = node.replaceEngine(engine);
    const previousDir = this.currentDir;
    this.currentDir = dir;
    this.running = running;
    node.log.info('chain reset', {
      ...(running !== undefined ? { forkOf: running.upstream, forkBlock: running.block?.toString() } : {}),
      network,
    });
    await previous?.close();
    if (previousDir !== undefined) await rm(previousDir, { recursive: true, force: true });
  }
}

const switchers = new WeakMap<SvcNode, ForkSwitcher>();

/** The node's fork switcher, made on first use. */
export function forkSwitcherOf(node: SvcNode): ForkSwitcher {
  let found = switchers.get(node);
  if (found === undefined) {
    found = new ForkSwitcher(node);
    switchers.set(node, found);
  }
  return found;
}
