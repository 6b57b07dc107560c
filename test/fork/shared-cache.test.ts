/**
 * The fork cache shared by datadirs: two forks of the same upstream block, each in its own datadir, one fork cache
 * directory. The first reads a token's code, balances and a BLOCKHASH below its base through a counting proxy; the
 * second (started while the first still runs) makes the same reads and asks the upstream nothing: who the upstream
 * is (chain id and genesis, which name the cache directory) was remembered for its URL, and is checked in the batch
 * of the first request the second fork really sends. When the URL has come to serve another chain, that check stops
 * the fork with an error naming the host and both chain ids. `svc-node fork-cache` lists the fork's directory and
 * `fork-cache clear` empties it.
 */
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContractFactory, HDNodeWallet, Interface, JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../src/chain/networks/devAccounts.js';
import { startAnvil, type AnvilNode } from '../helpers/anvil-node.js';
import { runCli, startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';
import { Token } from '../rpc/contracts.js';
import { startCountingProxy, type CountingProxy } from './counting-proxy.js';

const holder = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/5");
/** A funded dev account neither fork reads before the last step. */
const unread = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/9");
const token = new Interface(Token.abi);

let upstream: NodeProcess;
let proxy: CountingProxy;
let otherChain: AnvilNode | undefined;
const forks: NodeProcess[] = [];
const dirs: string[] = [];
let cacheDir: string;
let tokenAddress: string;
let deployHash: string;
let forkBlock: bigint;

async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const { body } = await post(url, request(method, params));
  if (body.error !== undefined) throw Object.assign(new Error(body.error.message), { code: body.error.code });
  return body.result;
}

const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

/** The upstream's URL as a hosted one looks, with an API key in its path and query (the proxy ignores both). */
const forkUrl = () => `${proxy.url}v3/sekrit-path-key?key=sekrit-query-key`;

async function startFork(): Promise<NodeProcess> {
  const fork = await startNode({
    args: ['--no-p2p', '--datadir', tempDir('svc-node-fork-'), '--fork-url', forkUrl(), '--fork-block', `${forkBlock}`],
    env: { SVC_NODE_FORK_CACHE_DIR: cacheDir },
  });
  forks.push(fork);
  return fork;
}

/**
 * What a test suite's first reads on a fork look like: code, storage, balances, a BLOCKHASH below the base, and
 * history below it (a block, a receipt, logs: the upstream's answers, kept in the fork cache too).
 */
async function readAround(url: string): Promise<unknown[]> {
  const balanceOf = (who: string) =>
    rpc(url, 'eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [who]) }, 'latest']);
  // Init code returning 0x00 ‖ BLOCKHASH(base − 1) as the created code: the leading zero byte keeps a hash that starts
  // with 0xef (1 in 256) from being refused as EOF code (EIP-3541).
  const parentHash = `0x67${(forkBlock - 1n).toString(16).padStart(16, '0')}4060015260216000f3`;
  return [
    await rpc(url, 'eth_getCode', [tokenAddress, 'latest']),
    await balanceOf(holder.address),
    await rpc(url, 'eth_getBalance', [holder.address, 'latest']),
    await rpc(url, 'eth_getStorageAt', [tokenAddress, '0x2', 'latest']),
    await rpc(url, 'eth_call', [{ data: parentHash }, 'latest']),
    await rpc(url, 'eth_getBlockByNumber', [`0x${(forkBlock - 1n).toString(16)}`, true]),
    await rpc(url, 'eth_getTransactionReceipt', [deployHash]),
    await rpc(url, 'eth_getLogs', [
      { fromBlock: '0x0', toBlock: `0x${forkBlock.toString(16)}`, address: tokenAddress },
    ]),
  ];
}

beforeAll(async () => {
  upstream = await startNode({ args: ['--no-p2p'] });
  const provider = new JsonRpcProvider(upstream.url, 1337, {
    staticNetwork: true,
    pollingInterval: 50,
    cacheTimeout: -1,
  });
  const deployed = await new ContractFactory(Token.abi, Token.bytecode, holder.connect(provider)).deploy(5_000n);
  await deployed.deploymentTransaction()!.wait();
  deployHash = deployed.deploymentTransaction()!.hash;
  tokenAddress = await deployed.getAddress();
  provider.destroy();
  await rpc(upstream.url, 'qa_mineBlocks', [2]);
  forkBlock = BigInt(await rpc(upstream.url, 'eth_blockNumber'));
  proxy = await startCountingProxy(upstream.url);
  cacheDir = tempDir('svc-node-fork-cache-');
}, 90_000);

afterAll(async () => {
  for (const fork of forks) await fork.stop();
  await proxy?.close();
  await upstream?.stop();
  await otherChain?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('two datadirs forking the same upstream block', () => {
  it('the second asks the upstream nothing the first already read', async () => {
    const first = await startFork();
    const seen = await readAround(first.url);
    const firstAsked = proxy.calls.map((c) => c.split(' ')[0]);
    expect(firstAsked).toContain('eth_getProof');
    expect(firstAsked).toContain('eth_getCode');
    expect(firstAsked).toContain('eth_getTransactionReceipt');
    expect(firstAsked).toContain('eth_getLogs');

    proxy.reset();
    const second = await startFork();
    expect(await readAround(second.url)).toEqual(seen);
    // Nothing: who the upstream is (chain id, genesis) was remembered for its URL, and the rest came from the cache.
    expect(proxy.calls).toEqual([]);

    // Something neither read goes upstream, in one batch with the check of who the upstream is, and is kept for the
    // next datadir.
    proxy.reset();
    const balance = await rpc(upstream.url, 'eth_getBalance', [unread.address, 'latest']);
    expect(await rpc(second.url, 'eth_getBalance', [unread.address, 'latest'])).toBe(balance);
    expect(proxy.calls.map((c) => c.split(' ')[0])).toEqual(['eth_chainId', 'eth_getBlockByNumber', 'eth_getProof']);
    proxy.reset();
    expect(await rpc(first.url, 'eth_getBalance', [unread.address, 'latest'])).toBe(balance);
    expect(proxy.calls).toEqual([]);

    // The URL's key is in no name and no file of the cache: the URL is remembered by its hash.
    const files = readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const path = join(f.parentPath, f.name);
      expect(path).not.toContain('sekrit');
      expect(readFileSync(path).toString('latin1')).not.toContain('sekrit');
    }
  }, 90_000);

  it('fork-cache lists the fork by chain id and block, and fork-cache clear empties it', async () => {
    const env = { SVC_NODE_FORK_CACHE_DIR: cacheDir };
    const listed = await runCli(['fork-cache'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`fork cache ${cacheDir}: 1 fork,`);
    expect(listed.stdout).toMatch(new RegExp(`chain 1337 block ${forkBlock}: [1-9]\\d* entries`));
    const cleared = await runCli(['fork-cache', 'clear'], env);
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain('deleted 1 fork');
    expect((await runCli(['fork-cache'], env)).stdout).toContain(`fork cache ${cacheDir}: 0 forks`);
  }, 60_000);

  it('a fork whose URL now serves another chain stops at its first request, naming the host and both chain ids', async () => {
    // After `fork-cache clear`: the first fork learns who the URL is again, and reads the fork block into the cache.
    const first = await startFork();
    expect(await rpc(first.url, 'eth_getCode', [tokenAddress, 'latest'])).not.toBe('0x');
    otherChain = await startAnvil({ chainId: 4242 });
    proxy.upstream = otherChain.url;
    proxy.reset();
    const second = await startFork();
    expect(proxy.calls).toEqual([]);

    const host = new URL(proxy.url).host;
    const refused = await post(second.url, request('eth_getBalance', [unread.address, 'latest']));
    expect(refused.body.error?.code).toBe(-32000);
    expect(refused.body.error.message).toContain(
      `${host} now answers chain id 4242, but this fork was made of chain id 1337`,
    );
    expect(proxy.calls.map((c) => c.split(' ')[0])).toEqual(['eth_chainId', 'eth_getBlockByNumber', 'eth_getProof']);
    // Stopped: nothing more is asked of that URL, and what it was is forgotten (the next datadir asks again).
    proxy.reset();
    const again = await post(second.url, request('eth_getCode', [unread.address, 'latest']));
    expect(again.body.error?.message).toContain('now answers chain id 4242');
    expect(proxy.calls).toEqual([]);
    expect(readdirSync(join(cacheDir, 'upstreams'))).toEqual([]);
  }, 90_000);
});
