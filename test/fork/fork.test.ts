/**
 * Fork mode end to end: an svc-node dev chain with a deployed token is the upstream; a second svc-node forks it at a
 * pinned block (`--fork-url`, through a loopback proxy that records every upstream call), reads the token's code and
 * balances from there, sends a token transfer as the holder (impersonated: the fork has no key for it), and the
 * upstream is never written to. anvil_setRpcUrl moves its reads to another URL of the upstream. Restarted on its
 * datadir, the fork asks the upstream nothing for what it read before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContractFactory, HDNodeWallet, Interface, JsonRpcProvider, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MNEMONIC } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';
import { Counter, Token } from '../rpc/contracts.js';
import { startCountingProxy, type CountingProxy } from './counting-proxy.js';

/** Not a dev account: the fork does not hold its key, so it sends as the holder by impersonation. */
const holder = Wallet.createRandom();
const funder = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/3");
const other = HDNodeWallet.fromPhrase(DEV_MNEMONIC, undefined, "m/44'/60'/0'/0/4");
const token = new Interface(Token.abi);
const SUPPLY = 1_000_000n;

let upstream: NodeProcess;
let proxy: CountingProxy;
let fork: NodeProcess | undefined;
let forkDatadir: string;
let tokenAddress: string;
/** A contract the fork reads only in the failure test: its code is surely not in the fork's datadir before. */
let counterAddress: string;
let forkBlock: bigint;
/** The upstream's token transfer, in a block below the fork's base. */
let giveHash: string;

async function rpc(url: string, method: string, params: unknown[] = []): Promise<any> {
  const { body } = await post(url, request(method, params));
  if (body.error !== undefined) throw Object.assign(new Error(body.error.message), { code: body.error.code });
  return body.result;
}

const balanceOf = async (url: string, who: string, block = 'latest') =>
  BigInt(await rpc(url, 'eth_call', [{ to: tokenAddress, data: token.encodeFunctionData('balanceOf', [who]) }, block]));

/** Init code returning BLOCKHASH(n): PUSH8 n, BLOCKHASH, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN. */
const blockHashCode = (n: bigint) => `0x67${n.toString(16).padStart(16, '0')}4060005260206000f3`;

const startFork = () =>
  startNode({ args: ['--no-p2p', '--datadir', forkDatadir, '--fork-url', proxy.url, '--fork-block', `${forkBlock}`] });

beforeAll(async () => {
  upstream = await startNode({ args: ['--no-p2p'] });
  // cacheTimeout -1: ethers otherwise reuses a nonce read within 250 ms, and the instant-seal chain has moved on by then.
  const provider = new JsonRpcProvider(upstream.url, 1337, {
    staticNetwork: true,
    pollingInterval: 50,
    cacheTimeout: -1,
  });
  const funding = await funder.connect(provider).sendTransaction({ to: holder.address, value: 10n ** 18n });
  await funding.wait();
  const deployed = await new ContractFactory(Token.abi, Token.bytecode, holder.connect(provider)).deploy(SUPPLY);
  await deployed.deploymentTransaction()!.wait();
  tokenAddress = await deployed.getAddress();
  const give = await holder.connect(provider).sendTransaction({
    to: tokenAddress,
    data: token.encodeFunctionData('transfer', [other.address, 1000n]),
  });
  await give.wait();
  giveHash = give.hash;
  const counter = await new ContractFactory(Counter.abi, Counter.bytecode, other.connect(provider)).deploy(1n);
  await counter.deploymentTransaction()!.wait();
  counterAddress = await counter.getAddress();
  provider.destroy();
  // A few blocks after the token's, so the fork has earlier headers it has not read (BLOCKHASH below).
  const minedTo = BigInt(await rpc(upstream.url, 'eth_blockNumber')) + 4n;
  await rpc(upstream.url, 'qa_mineBlocks', [4]);
  while (BigInt(await rpc(upstream.url, 'eth_blockNumber')) < minedTo) await new Promise((r) => setTimeout(r, 20));
  forkBlock = minedTo;
  proxy = await startCountingProxy(upstream.url);
  forkDatadir = mkdtempSync(join(tmpdir(), 'svc-node-fork-'));
  fork = await startFork();
}, 90_000);

afterAll(async () => {
  await fork?.stop();
  await proxy?.close();
  await upstream?.stop();
  if (forkDatadir !== undefined) rmSync(forkDatadir, { recursive: true, force: true });
});

describe('a fork of an svc-node dev chain', () => {
  it('starts on the upstream block it was pinned to, with the upstream chain id', async () => {
    expect(BigInt(await rpc(fork!.url, 'eth_blockNumber'))).toBe(forkBlock);
    expect(await rpc(fork!.url, 'eth_chainId')).toBe('0x539');
    const ours = await rpc(fork!.url, 'eth_getBlockByNumber', ['latest', false]);
    const theirs = await rpc(upstream.url, 'eth_getBlockByNumber', [`0x${forkBlock.toString(16)}`, false]);
    expect(ours.hash).toBe(theirs.hash);
    expect(ours.stateRoot).toBe(theirs.stateRoot);
  });

  it("reports the upstream's eth_config: its fork ids start from the upstream's genesis, not the fork's base", async () => {
    const ours = await rpc(fork!.url, 'eth_config');
    expect(ours).toEqual(await rpc(upstream.url, 'eth_config'));
    expect(ours.current.chainId).toBe('0x539');
  });

  it("reads the token's code and balances from the upstream", async () => {
    expect(await rpc(fork!.url, 'eth_getCode', [tokenAddress, 'latest'])).toBe(
      await rpc(upstream.url, 'eth_getCode', [tokenAddress, 'latest']),
    );
    expect(await balanceOf(fork!.url, holder.address)).toBe(SUPPLY - 1000n);
    expect(await balanceOf(fork!.url, other.address)).toBe(1000n);
    expect(await balanceOf(fork!.url, Wallet.createRandom().address)).toBe(0n);
    expect(await rpc(fork!.url, 'eth_getBalance', [holder.address, 'latest'])).toBe(
      await rpc(upstream.url, 'eth_getBalance', [holder.address, 'latest']),
    );
    expect(proxy.calls.some((c) => c.startsWith('eth_getProof'))).toBe(true);
  });

  it('answers BLOCKHASH of a block before the fork from the upstream', async () => {
    const parent = await rpc(upstream.url, 'eth_getBlockByNumber', [`0x${(forkBlock - 1n).toString(16)}`, false]);
    expect(await rpc(fork!.url, 'eth_call', [{ data: blockHashCode(forkBlock - 1n) }, 'latest'])).toBe(parent.hash);
  });

  it('sends a token transfer as the impersonated holder on the fork; the upstream is not written to', async () => {
    const upstreamHead = await rpc(upstream.url, 'eth_blockNumber');
    const upstreamEther = await rpc(upstream.url, 'eth_getBalance', [holder.address, 'latest']);
    const recipient = Wallet.createRandom().address;
    await rpc(fork!.url, 'anvil_impersonateAccount', [holder.address]);
    const hash = await rpc(fork!.url, 'eth_sendTransaction', [
      { from: holder.address, to: tokenAddress, data: token.encodeFunctionData('transfer', [recipient, 250n]) },
    ]);
    const receipt = await rpc(fork!.url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    expect(BigInt(receipt.blockNumber)).toBe(forkBlock + 1n);
    expect(await balanceOf(fork!.url, recipient)).toBe(250n);
    expect(await balanceOf(fork!.url, holder.address)).toBe(SUPPLY - 1250n);
    expect(await balanceOf(fork!.url, holder.address, `0x${forkBlock.toString(16)}`)).toBe(SUPPLY - 1000n);

    expect(await rpc(upstream.url, 'eth_blockNumber')).toBe(upstreamHead);
    expect(await rpc(upstream.url, 'eth_getBalance', [holder.address, 'latest'])).toBe(upstreamEther);
    expect(await balanceOf(upstream.url, holder.address)).toBe(SUPPLY - 1000n);
    expect(await balanceOf(upstream.url, recipient)).toBe(0n);
    expect(proxy.calls.filter((c) => /^eth_send|^personal_|^qa_|^test_/.test(c))).toEqual([]);
  });

  it("Otterscan's lookups find what the fork did and answer -32004 for what is the upstream's history", async () => {
    const holderNonce = Number(await rpc(fork!.url, 'eth_getTransactionCount', [holder.address, 'latest']));
    const last = await rpc(fork!.url, 'ots_getTransactionBySenderAndNonce', [holder.address, holderNonce - 1]);
    expect((await rpc(fork!.url, 'eth_getTransactionByHash', [last])).blockNumber).toBe(
      `0x${(forkBlock + 1n).toString(16)}`,
    );
    for (const [method, params] of [
      ['ots_getTransactionBySenderAndNonce', [holder.address, 0]],
      ['ots_getContractCreator', [tokenAddress]],
    ] as const) {
      const { body } = await post(fork!.url, request(method, [...params]));
      expect(body.error?.code, method).toBe(-32004);
      expect(body.error.message, method).toContain(`block ${forkBlock}, this fork's base`);
    }
  });

  it("answers the upstream's blocks, transactions and receipts up to its base from the upstream, and keeps them", async () => {
    const { blockNumber, blockHash } = await rpc(upstream.url, 'eth_getTransactionReceipt', [giveHash]);
    expect(BigInt(blockNumber)).toBeLessThan(forkBlock);
    const asks: [string, unknown[]][] = [
      ['eth_getBlockByNumber', [blockNumber, true]],
      ['eth_getBlockByHash', [blockHash, false]],
      ['eth_getBlockByNumber', [`0x${forkBlock.toString(16)}`, true]],
      ['eth_getTransactionByHash', [giveHash]],
      ['eth_getTransactionReceipt', [giveHash]],
    ];
    for (const [method, params] of asks)
      expect(await rpc(fork!.url, method, params), method).toEqual(await rpc(upstream.url, method, params));
    proxy.reset();
    for (const [method, params] of asks) await rpc(fork!.url, method, params);
    expect(proxy.calls).toEqual([]);
  });

  it('answers earliest, block receipts, by-index reads, counts and logs at or below its base from the upstream', async () => {
    const { blockNumber, blockHash } = await rpc(upstream.url, 'eth_getTransactionReceipt', [giveHash]);
    const base = `0x${forkBlock.toString(16)}`;
    const asks: [string, unknown[]][] = [
      ['eth_getBlockByNumber', ['earliest', false]],
      ['eth_getBlockReceipts', [blockNumber]],
      ['eth_getBlockReceipts', [blockHash]],
      ['eth_getBlockReceipts', [base]],
      ['eth_getTransactionByBlockNumberAndIndex', [blockNumber, '0x0']],
      ['eth_getTransactionByBlockHashAndIndex', [blockHash, '0x0']],
      ['eth_getBlockTransactionCountByNumber', [blockNumber]],
      ['eth_getBlockTransactionCountByHash', [blockHash]],
      ['eth_getUncleCountByBlockNumber', ['earliest']],
      ['eth_getLogs', [{ fromBlock: 'earliest', toBlock: base, address: tokenAddress }]],
      ['eth_getLogs', [{ blockHash }]],
    ];
    for (const [method, params] of asks)
      expect(await rpc(fork!.url, method, params), method).toEqual(await rpc(upstream.url, method, params));
    proxy.reset();
    for (const [method, params] of asks) await rpc(fork!.url, method, params);
    expect(proxy.calls).toEqual([]);
    // A range across the base: the upstream's logs up to it (the mint and the transfer), then the fork's own.
    const below = await rpc(upstream.url, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: base, address: tokenAddress }]);
    expect(below.length).toBe(2);
    const across = await rpc(fork!.url, 'eth_getLogs', [
      { fromBlock: '0x0', toBlock: 'latest', address: tokenAddress },
    ]);
    expect(across.slice(0, 2)).toEqual(below);
    expect(across.slice(2).map((log: { blockNumber: string }) => BigInt(log.blockNumber))).toEqual([forkBlock + 1n]);
  });

  it('answers -32000 naming the upstream when it fails, and no value', async () => {
    // What the fork has not read yet: a header, and code (which accounts it still lacks depends on the trie's shape).
    const unread = forkBlock - 2n;
    const expected = `fork upstream ${proxy.url} failed`;
    proxy.failing = true;
    try {
      const code = await post(fork!.url, request('eth_getCode', [counterAddress, 'latest']));
      expect(code.body.error?.code).toBe(-32000);
      expect(code.body.error.message).toContain(expected);
      const hash = await post(fork!.url, request('eth_call', [{ data: blockHashCode(unread) }, 'latest']));
      expect(hash.body.error?.code).toBe(-32000);
      expect(hash.body.error.message).toContain(expected);
    } finally {
      proxy.failing = false;
    }
    // Nothing wrong was kept: once the upstream answers, so does the fork.
    expect(await rpc(fork!.url, 'eth_getCode', [counterAddress, 'latest'])).toBe(
      await rpc(upstream.url, 'eth_getCode', [counterAddress, 'latest']),
    );
    const block = await rpc(upstream.url, 'eth_getBlockByNumber', [`0x${unread.toString(16)}`, false]);
    expect(await rpc(fork!.url, 'eth_call', [{ data: blockHashCode(unread) }, 'latest'])).toBe(block.hash);
  });

  it('reads what it lacks from the URL anvil_setRpcUrl names; no info line while logging is off', async () => {
    const second = await startCountingProxy(upstream.url);
    const changedTo = (url: string) =>
      fork!.logs.some((line) => line.msg === 'fork upstream changed' && line.upstream === url);
    try {
      await rpc(fork!.url, 'anvil_setLoggingEnabled', [false]);
      await rpc(fork!.url, 'anvil_setRpcUrl', [second.url]);
      await rpc(fork!.url, 'anvil_setLoggingEnabled', [true]);
      proxy.reset();
      // The engine's reads (a header for BLOCKHASH) and the fork history's (a block by hash) both go to the new URL.
      const unread = forkBlock - 4n;
      const block = await rpc(upstream.url, 'eth_getBlockByNumber', [`0x${unread.toString(16)}`, false]);
      expect(await rpc(fork!.url, 'eth_call', [{ data: blockHashCode(unread) }, 'latest'])).toBe(block.hash);
      expect(await rpc(fork!.url, 'eth_getBlockByHash', [`0x${'ab'.repeat(32)}`, false])).toBeNull();
      expect(second.calls.map((c) => c.split(' ')[0])).toEqual(['eth_getBlockByNumber', 'eth_getBlockByHash']);
      expect(proxy.calls).toEqual([]);
      expect(BigInt(await rpc(fork!.url, 'eth_blockNumber'))).toBe(forkBlock + 1n);
      expect((await rpc(fork!.url, 'anvil_nodeInfo')).forkConfig.forkUrl).toBe(second.url);
      // Logging on again: this change is written; the one made while it was off never is.
      await rpc(fork!.url, 'anvil_setRpcUrl', [proxy.url]);
      while (!changedTo(proxy.url)) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(changedTo(second.url)).toBe(false);
    } finally {
      await rpc(fork!.url, 'anvil_setRpcUrl', [proxy.url]);
      await second.close();
    }
  });

  it('restarts on its datadir without asking the upstream for what it read before', async () => {
    const head = await rpc(fork!.url, 'eth_blockNumber');
    await fork!.stop();
    proxy.reset();
    fork = await startFork();
    expect(await rpc(fork.url, 'eth_blockNumber')).toBe(head);
    expect(await balanceOf(fork.url, other.address)).toBe(1000n);
    expect(await balanceOf(fork.url, holder.address)).toBe(SUPPLY - 1250n);
    expect(await balanceOf(fork.url, holder.address, `0x${forkBlock.toString(16)}`)).toBe(SUPPLY - 1000n);
    expect(await rpc(fork.url, 'eth_getCode', [tokenAddress, 'latest'])).not.toBe('0x');
    expect(proxy.calls).toEqual([]);
    // The proxy does see what was never read, in one batch with the check that the upstream is still the chain the
    // datadir forked (its chain id and genesis, asked once per run).
    await rpc(fork.url, 'eth_call', [{ data: blockHashCode(forkBlock - 3n) }, 'latest']);
    expect(proxy.calls.map((c) => c.split(' ')[0])).toEqual([
      'eth_chainId',
      'eth_getBlockByNumber',
      'eth_getBlockByNumber',
    ]);
    proxy.reset();
    await rpc(fork.url, 'eth_call', [{ data: blockHashCode(forkBlock - 5n) }, 'latest']);
    expect(proxy.calls.map((c) => c.split(' ')[0])).toEqual(['eth_getBlockByNumber']);
  });
});
