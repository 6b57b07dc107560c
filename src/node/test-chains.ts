/**
 * Test mode's chain swap (retesteth, product-behaviour §7.3): test_setChainParams puts a freshly opened chain in
 * place of the running one. Each new test chain gets its own directory under `<datadir>/test-chains/`; the
 * previous one is closed and deleted.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ChainEngine, type TestChainSpec } from '../chain/index.js';
import type { SvcNode } from './node.js';
import { engineOptionsOf } from './services.js';

/** Large enough for any vector transaction (geth's 128 KiB pool limit is a mainnet DoS guard). */
const TEST_MAX_TX_BYTES = 4 * 1024 * 1024;

export class TestChainSwitcher {
  private chains = 0;
  /** The directory of the test chain now running (never the node's own chain directory). */
  private currentDir: string | undefined;
  /** Chain replacements run one at a time. */
  private switching: Promise<unknown> = Promise.resolve();

  /** `onSwap` runs the moment the new engine is in place, before the old one is closed. */
  constructor(
    private readonly node: SvcNode,
    private readonly onSwap: () => void = () => undefined,
  ) {}

  /** Opens a chain for `spec` and puts it in place of the running one. */
  replaceChain(spec: TestChainSpec): Promise<ChainEngine> {
    const run = this.switching.then(() => this.replaceNow(spec));
    this.switching = run.catch(() => undefined);
    return run;
  }

  private async replaceNow(spec: TestChainSpec): Promise<ChainEngine> {
    const { datadir } = this.node.config;
    const dir = join(datadir, 'test-chains', `${process.pid}-${++this.chains}`);
    await rm(dir, { recursive: true, force: true });
    const base = engineOptionsOf(this.node);
    const engine = await ChainEngine.open({
      ...base,
      dataDir: dir,
      network: spec.definition,
      rules: spec.rules,
      noProof: spec.sealEngine !== 'Ethash',
      // The vectors say how their chain is sealed (Ethash or NoProof), whatever the node's own dev chain uses.
      seal: 'ethash',
      // One Ethash cache for every test chain: building epoch 0's takes seconds, and all test chains share it.
      powCacheDir: join(datadir, 'ethash'),
      mining: { coinbase: spec.coinbase, extraData: new Uint8Array(0), blockTimeSeconds: 0 },
      // The vectors' transactions are pre-EIP-155 (v = 27/28), often priced at 1 wei and sometimes large.
      pool: { ...base.pool, allowUnprotected: true, minGasPrice: 0n, maxTxBytes: TEST_MAX_TX_BYTES },
    });
    engine.miner.on('failure', (err: Error) => this.node.log.warn('test miner failed', { error: err.message }));
    const previous = this.node.replaceEngine(engine);
    const previousDir = this.currentDir;
    this.currentDir = dir;
    this.onSwap();
    await previous?.close();
    if (previousDir !== undefined) await rm(previousDir, { recursive: true, force: true });
    return engine;
  }
}
