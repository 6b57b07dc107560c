/**
 * Interop with another implementation: `@ethereumjs/client` 0.10.5 peers with svc-node over eth/68 on
 * svc-node's dev chain and full-syncs it (reference §4). svc-node mines (a transfer, a contract
 * deployment that uses PUSH0, a call that changes storage), then dials the client (the client only
 * dials peers that answered a discv4 PING, §4.4 item 5); the client downloads and re-executes every
 * block, so matching hashes show our wire format and serving work, and matching state shows our
 * Spiral EVM, era-0 rewards and state root agree with ethereumjs's. A last block is mined while they
 * are linked and must reach the client through our NewBlock announcement.
 *
 * The client is installed outside the package by scripts/interop/install-ethereumjs-client.sh (npm
 * registry; skipped when already there). It runs in its own process group, killed in afterAll.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bytesToHex } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { dev } from '../../src/chain/networks/dev.js';
import { buildGenesisBlock } from '../../src/chain/genesis/header.js';
import { createClient, httpTransport, type RpcClient } from '../../clients/typescript/src/client.js';
import { startEthereumjsClient, type EthereumjsClient } from '../../scripts/interop/ethereumjs-client.js';
import {
  ethereumjsChainFiles,
  genesisHashWithClientPackages,
  writeChainFiles,
} from '../../scripts/interop/ethereumjs-dev-chain.js';
import { repoRoot, startNode, type NodeProcess } from '../helpers/node-process.js';

const run = promisify(execFile);

/**
 * Constructor: PUSH1 42, PUSH0, SSTORE (slot 0 = 42), then returns the 8-byte runtime
 * PUSH0 SLOAD PUSH1 1 ADD PUSH0 SSTORE STOP (slot 0 += 1 per call). PUSH0 is Spiral's EIP-3855: a
 * client without it would fail the deployment and compute another state root.
 */
const COUNTER_INITCODE = '0x602a5f556008600e5f3960085ff35f546001015f5500';

const sender = DEV_ACCOUNTS[1]!.address as `0x${string}`;
const recipient = '0x000000000000000000000000000000000000beef';

let entry: string;
let chainDir: string;
let node: NodeProcess | undefined;
let svc: RpcClient;
let client: EthereumjsClient | undefined;
let svcNodeId: string;
/** svc-node's dev genesis hash. */
let genesisHash: string;
let contract: `0x${string}`;
/** svc-node's head once the pre-link blocks are mined. */
let headBeforeLink: bigint;

type RpcBlock = { number: string; hash: string; stateRoot: string; transactions: unknown[] };

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The client's log lines about peers, execution and sync, for the failure message and the report. */
const clientPeerLog = (): string =>
  (client?.logLines ?? []).filter((line) => /peer|sync|Imported|Executed|Execution|error|fail/i.test(line)).join('\n');

async function mine(tx: Parameters<RpcClient['eth_sendTransaction']>[0]): Promise<string> {
  const hash = await svc.eth_sendTransaction(tx);
  // The dev miner seals pending transactions at once; the receipt shows it was included and succeeded.
  const receipt = await until(
    `receipt of ${hash}`,
    15_000,
    async () => (await svc.eth_getTransactionReceipt(hash)) ?? undefined,
  );
  expect(receipt.status).toBe('0x1');
  return receipt.contractAddress ?? hash;
}

beforeAll(async () => {
  // 1. The client (idempotent; the first install on a fresh machine takes ~15 s).
  const { stdout } = await run('bash', [join(repoRoot, 'scripts/interop/install-ethereumjs-client.sh')], {
    timeout: 170_000,
  });
  entry = stdout.trim().split('\n').at(-1)!;

  // 2. Our dev chain in its format; fail fast here if it would derive another genesis than ours.
  const files = await ethereumjsChainFiles(dev);
  chainDir = mkdtempSync(join(tmpdir(), 'svc-node-ethereumjs-chain-'));
  const { chainPath, genesisStatePath } = writeChainFiles(files, chainDir);
  genesisHash = bytesToHex((await buildGenesisBlock(dev)).hash);
  const clientDir = entry.slice(0, entry.lastIndexOf('/node_modules/'));
  expect(bytesToHex(await genesisHashWithClientPackages(files, clientDir))).toBe(genesisHash);

  // 3. svc-node (dev: mines pending transactions at once) and a few blocks before the link.
  // The chain files describe an Ethash chain to the client (consensus pow): the Ethash dev chain, not the instant one.
  node = await startNode({ args: ['--seal', 'ethash'] });
  svc = createClient(httpTransport(node.url));
  expect(node.enode).toMatch(/^enode:\/\/[0-9a-f]{128}@127\.0\.0\.1:\d+$/);
  svcNodeId = /^enode:\/\/([0-9a-f]{128})@/.exec(node.enode!)![1]!;
  await mine({ from: sender, to: recipient, value: '0xde0b6b3a7640000' });
  contract = (await mine({ from: sender, data: COUNTER_INITCODE, gas: '0x30d40' })) as `0x${string}`;
  await mine({ from: sender, to: contract, gas: '0x186a0' });
  headBeforeLink = BigInt(await svc.eth_blockNumber());
  expect(headBeforeLink).toBeGreaterThanOrEqual(3n);
  expect(await svc.eth_getStorageAt(contract, '0x0', 'latest')).toBe(`0x${'2b'.padStart(64, '0')}`);

  // 4. The client, syncing only (no miner); debug level for its peer log lines. Started right after the
  // blocks on purpose: between full-sync rounds it guesses a peer's head as best + (age of best / 12 s)
  // and asks for that number; our correct empty answer for a future block makes it drop its target and
  // retry 5 s later, so an old head only slows the sync (peer.ts getPotentialBestHeaderNum).
  client = await startEthereumjsClient({ entry, chainPath, genesisStatePath, extraArgs: ['--logLevel', 'debug'] });
  const genesis = await client.rpc<RpcBlock>('eth_getBlockByNumber', ['0x0', false]);
  expect(genesis.hash).toBe(genesisHash);
}, 240_000);

afterAll(async () => {
  // SVC_INTEROP_CLIENT_LOG=<file> keeps the client's whole log (its temp data dir is removed below).
  if (process.env.SVC_INTEROP_CLIENT_LOG && client !== undefined)
    writeFileSync(process.env.SVC_INTEROP_CLIENT_LOG, `${client.logLines.join('\n')}\n`);
  await svc?.close();
  await Promise.all([client?.stop(), node?.stop()]);
  if (chainDir !== undefined) rmSync(chainDir, { recursive: true, force: true });
});

describe('@ethereumjs/client 0.10.5 ↔ svc-node over eth/68', () => {
  it('svc-node dials the client and the eth/68 handshake completes on both sides', async () => {
    expect(await svc.net_connectToPeer(client!.enode)).toBe(true);

    const peer = await until('the client Handshaked in net_listPeers', 20_000, async () =>
      (await svc.net_listPeers()).find((p) => p.nodeId === client!.nodeId && p.status === 'Handshaked'),
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nclient log:\n${clientPeerLog()}`);
    });
    expect(peer).toMatchObject({ incomingConnection: false, remoteAddress: `127.0.0.1:${client!.port}` });

    // What the client announced, as svc-node decoded it: Hello and an accepted eth/68 STATUS of our chain.
    const info = (await svc.debug_listPeersInfo()).find((p) => p.nodeId === client!.nodeId);
    expect(info).toMatchObject({ networkId: '0x539', genesisHash, forkAccepted: true });
    expect(info?.clientId).toMatch(/^EthereumJS\/0\.10\.5\//);
    expect(info?.capabilities).toContain('eth/68');

    // The client's side: svc-node is in its pool with eth/68.
    type AdminPeer = { id: string; caps?: string[]; protocols: { eth: { version: number | null } } };
    const seen = await until('svc-node in the client admin_peers', 10_000, async () =>
      (await client!.rpc<AdminPeer[]>('admin_peers')).find((p) => p.id === svcNodeId),
    );
    expect(seen.protocols.eth.version).toBe(68);
    expect(clientPeerLog()).toMatch(new RegExp(`Peer added: id=${svcNodeId.slice(0, 8)}`));
  }, 40_000);

  it('the client full-syncs svc-node: same hashes at every height and, after executing, the same state', async () => {
    const target = headBeforeLink;
    await until(`client eth_blockNumber ≥ ${target}`, 45_000, async () =>
      BigInt(await client!.rpc<string>('eth_blockNumber')) >= target ? true : undefined,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nclient log:\n${clientPeerLog()}`);
    });

    let withTransactions = 0;
    for (let n = 0n; n <= target; n++) {
      const tag = `0x${n.toString(16)}` as const;
      const ours = (await svc.eth_getBlockByNumber(tag, false)) as RpcBlock;
      const theirs = await client!.rpc<RpcBlock>('eth_getBlockByNumber', [tag, false]);
      expect({ n, hash: theirs.hash, stateRoot: theirs.stateRoot }).toEqual({
        n,
        hash: ours.hash,
        stateRoot: ours.stateRoot,
      });
      if (ours.transactions.length > 0) withTransactions++;
    }
    expect(withTransactions).toBeGreaterThanOrEqual(3);

    // Importing checks headers and bodies; execution (state root, receipts, rewards) runs after it, and a
    // mismatch shows as "Execution of block number=… failed" followed by the error (e.g. invalid block stateRoot).
    const executed = await client!.waitForLog(
      new RegExp(`Executed blocks .* last=${target} |Execution of block .* failed`),
      20_000,
    );
    const failure = client!.logLines.findIndex((line) => /Execution of block .* failed/.test(line));
    expect(failure, client!.logLines.slice(failure, failure + 3).join('\n')).toBe(-1);
    expect(executed).toMatch(/ INFO Executed blocks .* txs=\d+/);
    const latest = `0x${target.toString(16)}` as const;
    for (const address of [recipient, sender, DEV_ACCOUNTS[0]!.address, contract]) {
      expect({ address, balance: await client!.rpc('eth_getBalance', [address, latest]) }).toEqual({
        address,
        balance: await svc.eth_getBalance(address as `0x${string}`, latest),
      });
    }
    expect(await client!.rpc('eth_getCode', [contract, latest])).toBe(await svc.eth_getCode(contract, latest));
    expect(await client!.rpc('eth_getStorageAt', [contract, '0x0', latest])).toBe(`0x${'2b'.padStart(64, '0')}`);
  }, 80_000);

  it('a block mined while linked reaches the client through our announcement', async () => {
    await mine({ from: sender, to: contract, gas: '0x186a0' });
    const head = BigInt(await svc.eth_blockNumber());
    expect(head).toBe(headBeforeLink + 1n);
    const tag = `0x${head.toString(16)}` as const;
    const theirs = await until(
      `client block ${head}`,
      20_000,
      async () => (await client!.rpc<RpcBlock | null>('eth_getBlockByNumber', [tag, false])) ?? undefined,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\nclient log:\n${clientPeerLog()}`);
    });
    expect(theirs.hash).toBe(((await svc.eth_getBlockByNumber(tag, false)) as RpcBlock).hash);
  }, 30_000);
});
