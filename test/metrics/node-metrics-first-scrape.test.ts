/**
 * The node's metrics build their prom-client registry at the first scrape (src/metrics/node-metrics.ts): what
 * happened before it is counted all the same. Blocks imported and sealed, and reorganisations (a switch to another
 * branch counts, a rewind that adds no block does not), before and after the first scrape, against an engine of
 * plain event emitters; and prom-client is not loaded before that scrape (~0.1 s of CPU per node, and an event-loop
 * monitor waking every 10 ms, for every node nobody scrapes).
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SvcNode } from '../../src/node/node.js';
import { createNodeMetrics } from '../../src/metrics/node-metrics.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';

const datadir = mkdtempSync(join(tmpdir(), 'svc-node-metrics-'));
afterAll(() => rmSync(datadir, { recursive: true, force: true }));

function fakeNode() {
  const chain = Object.assign(new EventEmitter(), { getHead: () => ({ header: { number: 0n } }) });
  const miner = new EventEmitter();
  const node = {
    engine: { chain, miner, logs: { filters: { filterCount: 0, subscriptionCount: 0 } } },
    config: { datadir },
    version: 'test',
    network: { name: 'dev', chainId: 1337n },
  } as unknown as SvcNode;
  return { node, chain, miner };
}

/** Whether prom-client (CommonJS, so in require's cache however it was imported) is loaded in this process. */
const promClientLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/prom-client/'));

const block = {} as never;
const reorg = (dropped: number, added: number) => ({
  dropped: Array.from({ length: dropped }, () => block),
  added: Array.from({ length: added }, () => block),
  commonAncestor: block,
});

async function scrape(metrics: ReturnType<typeof createNodeMetrics>) {
  const families = parsePrometheusText((await metrics.scrape()).body);
  return {
    reorgs: sampleValue(families, 'svc_chain_reorgs_total'),
    dropped: sampleValue(families, 'svc_chain_reorg_dropped_blocks_total'),
    imported: sampleValue(families, 'svc_blocks_imported_total', { status: 'head' }),
    mined: sampleValue(families, 'svc_blocks_mined_total'),
  };
}

describe('node metrics before and after the first scrape', () => {
  it('counts reorganisations and blocks that came before the registry existed, and those after', async () => {
    const { node, chain, miner } = fakeNode();
    const metrics = createNodeMetrics(node);
    try {
      chain.emit('blockImported', { status: 'head', durationMs: 2 });
      miner.emit('sealed', { sealMs: 1 });
      chain.emit('reorg', reorg(3, 4));
      chain.emit('reorg', reorg(2, 0)); // a rewind: no block added, not a switch
      chain.emit('reorg', reorg(1, 1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(promClientLoaded()).toBe(false);
      expect(await scrape(metrics)).toEqual({ reorgs: 2, dropped: 4, imported: 1, mined: 1 });

      chain.emit('reorg', reorg(5, 6));
      chain.emit('blockImported', { status: 'head', durationMs: 2 });
      expect(await scrape(metrics)).toEqual({ reorgs: 3, dropped: 9, imported: 2, mined: 1 });
    } finally {
      metrics.close();
    }
  });
});
