/**
 * Set-up for the miner tests and bench/mining.ts: a dev chain in a temp dir sealed with real Ethash (the epoch-0
 * cache comes from the persistent test cache directory), a transaction pool reading the chain's head state, and
 * signed transfers.
 */
import type { Address } from '@ethereumjs/util';
import { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { engineNetworkOf, etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev } from '../../../src/chain/networks/index.js';
import { Ethash } from '../../../src/chain/pow/index.js';
import type { StateView } from '../../../src/chain/state/state-reader.js';
import { TxPool, type PoolChainView, type TxPoolOptions } from '../../../src/chain/txpool/index.js';
import { persistentCacheDir } from '../pow/helpers.js';

export { addresses, keys, signedTx, tempDir } from '../engine/fixtures.js';

let shared: Promise<Ethash> | undefined;

/** One Ethash engine per process for the dev network's PoW parameters (Etchash from block 0). */
export function devEthash(): Promise<Ethash> {
  shared ??= Ethash.create({
    params: { ecip1099Block: dev.pow.ecip1099Block ?? undefined },
    cacheDir: persistentCacheDir,
  });
  return shared;
}

export async function openPowDevChain(dataDir: string): Promise<{ chain: Blockchain; ethash: Ethash }> {
  const ethash = await devEthash();
  const chain = await Blockchain.open({
    dataDir,
    network: engineNetworkOf(dev),
    rules: etcEngineRules(dev),
    seal: ethash,
  });
  return { chain, ethash };
}

export function openNoProofDevChain(dataDir: string): Promise<Blockchain> {
  return Blockchain.open({ dataDir, network: engineNetworkOf(dev), rules: etcEngineRules(dev), noProof: true });
}

/** The pool's view of the chain: accounts at the head, read through one state view per head block. */
export function poolViewOf(chain: Blockchain): PoolChainView {
  let cached: { head: Uint8Array; state: Promise<StateView | undefined> } | undefined;
  const stateAtHead = () => {
    const head = chain.getHead().hash();
    if (cached === undefined || cached.head !== head) cached = { head, state: chain.stateAt(head) };
    return cached.state;
  };
  return {
    chainId: chain.network.chainId,
    blockGasLimit: () => chain.getHead().header.gasLimit,
    async account(address: Address) {
      const state = (await stateAtHead())!;
      const [nonce, balance] = await Promise.all([state.getNonce(address.bytes), state.getBalance(address.bytes)]);
      return { nonce, balance };
    },
    commonForNextBlock: () => chain.txCommonAt(chain.getHead().header.number + 1n),
  };
}

export function poolFor(chain: Blockchain, options: TxPoolOptions = {}): TxPool {
  return new TxPool(poolViewOf(chain), options);
}

/**
 * Resolves when `condition` holds, polling every few ms; rejects after `timeoutMs`. The default leaves room for the
 * first Ethash cache build on a CI machine whose two cores are shared with the other suites (a 20 s wait was once
 * missed there), and stays under the test's own 60 s limit.
 */
export const MINING_WAIT_MS = 45_000;
export async function waitFor(condition: () => boolean, timeoutMs = MINING_WAIT_MS, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
