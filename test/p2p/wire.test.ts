/**
 * devp2p on the wire, against real node processes: a scripted test peer (test/helpers/test-peer.ts) dials the
 * node (or is dialled by it) and checks what the node says and how it reacts to what the peer says.
 *
 * - STATUS carries the network id (not the chain id), the genesis and the EIP-2124 fork id of the published tables
 *   (etc-chain-and-p2p.md §1.1, §1.3, §1.4; the expected values are the literals from there, not computed here);
 * - the node's STATUS checks: fork-id rules, wrong network id, wrong genesis;
 * - bad input: malformed RLP (PROTOCOL_ERROR), a block with a bad seal (SUBPROTOCOL_ERROR and a blacklist entry);
 * - the trap of §3.3 (d): no ban check on inbound (trap (a), a simultaneous mutual dial, is simultaneous-dial.test.ts);
 * - serving GetBlockHeaders / GetBlockBodies / GetReceipts, checked against JSON-RPC;
 * - the net_* peer methods and debug_listPeersInfo as they see a test peer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import createKeccak from 'keccak';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import type { Status } from '../../src/p2p/eth/messages.js';
import { EthCode } from '../../src/p2p/eth/messages.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import {
  DisconnectReason,
  SOCKET_CLOSED_BEFORE_HANDSHAKE,
  TestPeer,
  type TestPeerListener,
  type TestPeerOptions,
} from '../helpers/test-peer.js';
import { call, waitFor } from './multi-node-fixture.js';

// ------------------------------------------------------------------ published values (etc-chain-and-p2p.md)

const MORDOR_GENESIS = '0xa68ebde7932eccb177d38d55dcc6461a019dd795a681e59b5a3e4f3a7259a3f1';
const ETC_GENESIS = '0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3';
/** Mordor at genesis: `175782aa`, next fork Agharta at 301,243; the last entry of its table is `3a6b00d7`/0. */
const MORDOR_FORK_AT_GENESIS = { hash: '175782aa', next: 301243n };
const MORDOR_FORK_SPIRAL = { hash: '3a6b00d7', next: 0n };
const ETC_FORK_AT_GENESIS = { hash: 'fc64ec04', next: 1150000n };

// ------------------------------------------------------------------ process and peer bookkeeping

const started: NodeProcess[] = [];
const peers: TestPeer[] = [];
const listeners: TestPeerListener[] = [];
const dirs: string[] = [];

async function start(args: string[], env?: NodeJS.ProcessEnv): Promise<NodeProcess> {
  const node = await startNode({ args, env, timeoutMs: 60_000 });
  started.push(node);
  return node;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-node-wire-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(peers.map((p) => p.destroy().catch(() => undefined)));
  await Promise.all(listeners.map((l) => l.close().catch(() => undefined)));
  await Promise.all(started.map((node) => node.stop()));
  for (const node of started)
    if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** The node's enode URL: from the listening line, else from its `p2p listening` log entry. */
function enodeOf(node: NodeProcess): string {
  if (node.enode !== undefined) return node.enode;
  const entry = node.logs.find((e) => e.msg === 'p2p listening');
  if (typeof entry?.enode !== 'string') throw new Error('the node logged no "p2p listening" enode');
  return entry.enode;
}

async function dial(node: NodeProcess, options: TestPeerOptions = {}): Promise<TestPeer> {
  const peer = await TestPeer.dial(enodeOf(node), options);
  peers.push(peer);
  return peer;
}

// ------------------------------------------------------------------ small helpers

const hex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;
const bytes = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.replace(/^0x/, ''), 'hex'));
const keccak = (data: Uint8Array): string => hex(createKeccak('keccak256').update(Buffer.from(data)).digest());
/** A header's hash: keccak of its RLP field list. */
const headerHash = (fields: Uint8Array[]): string => keccak(RLP.encode(fields));
/** A transaction's hash as the wire carries it: a legacy one as its field list, a typed one as its bytes. */
const txHash = (tx: Uint8Array | Uint8Array[]): string => keccak(tx instanceof Uint8Array ? tx : RLP.encode(tx));
const quantity = (n: number | bigint): string => `0x${n.toString(16)}`;
const toBigInt = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt(hex(b)));

interface PeerRow {
  id: string;
  remoteAddress: string;
  nodeId: string | null;
  incomingConnection: boolean;
  status: string;
}

const listPeers = (node: NodeProcess) => call<PeerRow[]>(node.url, 'net_listPeers');

async function rowOf(node: NodeProcess, nodeId: string): Promise<PeerRow | undefined> {
  return (await listPeers(node)).find((p) => p.nodeId === nodeId);
}

/** Waits until the node lists `peer` as Handshaked (its STATUS passed every check). */
async function handshaked(node: NodeProcess, peer: TestPeer | string, name: string): Promise<PeerRow> {
  const nodeId = typeof peer === 'string' ? peer : peer.nodeId;
  await waitFor(
    async () => (await rowOf(node, nodeId))?.status === 'Handshaked',
    `${name}: the node to list the test peer as Handshaked`,
    { node },
    15_000,
    async () => `net_listPeers: ${JSON.stringify(await listPeers(node))}`,
  );
  return (await rowOf(node, nodeId))!;
}

/** Polls the node's stdout for an entry; the timeout message carries its p2p log. */
async function logEntry(
  node: NodeProcess,
  match: (e: Record<string, unknown>) => boolean,
  what: string,
): Promise<Record<string, unknown>> {
  let found: Record<string, unknown> | undefined;
  await waitFor(async () => (found = node.logs.find(match)) !== undefined, what, { node }, 10_000);
  return found!;
}

/** The node's "p2p peer rejected" line about this test peer (logged when its STATUS fails a check). */
const rejectionOf = (node: NodeProcess, peer: TestPeer) =>
  logEntry(
    node,
    (e) => e.msg === 'p2p peer rejected' && e.nodeId === peer.nodeId,
    `a "p2p peer rejected" log line for ${peer.nodeId.slice(0, 16)}`,
  );

// ------------------------------------------------------------------ STATUS and its checks

describe('STATUS: network id, genesis and fork id (mordor, etc)', () => {
  let mordor: NodeProcess;

  beforeAll(async () => {
    // The tests read net_listPeers: open to all here (a mordor node serves it only to authenticated callers by default).
    mordor = await start(['--network', 'mordor', '--no-mine', '--apis', 'eth,web3,net,debug'], {
      SVC_NODE_NETWORK_RPC_AUTH_ANONYMOUS_PEER_ADMIN: 'true',
    });
  });

  it('a mordor node announces network id 7 (not its chain id 63), the Mordor genesis and fork id 175782aa/301243', async () => {
    const peer = await dial(mordor, { status: 'none' });
    const status = await peer.nodeStatus;
    expect(status.version).toBe(68);
    expect(status.networkId).toBe(7n);
    expect(await call(mordor.url, 'eth_chainId')).toBe('0x3f');
    expect(hex(status.genesisHash)).toBe(MORDOR_GENESIS);
    expect(hex(status.bestHash)).toBe(MORDOR_GENESIS); // at genesis
    expect(status.td).toBe(0x20000n); // the genesis difficulty
    expect(Buffer.from(status.forkId.hash).toString('hex')).toBe(MORDOR_FORK_AT_GENESIS.hash);
    expect(status.forkId.next).toBe(MORDOR_FORK_AT_GENESIS.next);
    const hello = await peer.hello;
    expect(hello.capabilities).toEqual(expect.arrayContaining(['eth/68', 'snap/1']));
    expect(hello.protocolVersion).toBe(5);
  });

  it('an etc node announces network id 1 (chain id 61), the mainnet genesis and fork id fc64ec04/1150000', async () => {
    const etc = await start(['--network', 'etc', '--no-mine']);
    const peer = await dial(etc, { status: 'none' });
    const status = await peer.nodeStatus;
    expect(status.networkId).toBe(1n);
    expect(await call(etc.url, 'eth_chainId')).toBe('0x3d');
    expect(hex(status.genesisHash)).toBe(ETC_GENESIS);
    expect(status.td).toBe(0x400000000n);
    expect(Buffer.from(status.forkId.hash).toString('hex')).toBe(ETC_FORK_AT_GENESIS.hash);
    expect(status.forkId.next).toBe(ETC_FORK_AT_GENESIS.next);
    await etc.stop();
  }, 60_000);

  it('accepts a peer whose fork hash is a future Mordor fork (3a6b00d7/0: EIP-2124 rule 3, the node is at genesis)', async () => {
    const peer = await dial(mordor, {
      status: (node: Status) => ({
        ...node,
        forkId: { hash: bytes(MORDOR_FORK_SPIRAL.hash), next: MORDOR_FORK_SPIRAL.next },
      }),
    });
    await handshaked(mordor, peer, 'future fork hash');
    const info = (
      await call<Array<{ nodeId: string; forkAccepted: boolean | null; networkId: string | null }>>(
        mordor.url,
        'debug_listPeersInfo',
      )
    ).find((p) => p.nodeId === peer.nodeId);
    expect(info).toMatchObject({ forkAccepted: true, networkId: '0x7' });
    expect(peer.isClosed).toBe(false);
  });

  it('accepts a peer with the matching fork hash (175782aa/301243)', async () => {
    const peer = await dial(mordor, { status: 'echo' });
    expect(Buffer.from((await peer.nodeStatus).forkId.hash).toString('hex')).toBe(MORDOR_FORK_AT_GENESIS.hash);
    await handshaked(mordor, peer, 'matching fork hash');
    expect(peer.isClosed).toBe(false);
  });

  it('disconnects a peer with an unknown fork hash (deadbeef) as USELESS_PEER (0x03)', async () => {
    const peer = await dial(mordor, {
      status: (node: Status) => ({ ...node, forkId: { hash: bytes('deadbeef'), next: 0n } }),
    });
    const closed = await peer.closed;
    expect(closed, JSON.stringify(closed)).toMatchObject({ reason: 0x03, byUs: false });
    expect(String((await rejectionOf(mordor, peer)).detail)).toMatch(/fork id.*deadbeef/);
  });

  it('disconnects a peer announcing another network id (the chain id 63) as USELESS_PEER, naming the mismatch', async () => {
    const peer = await dial(mordor, { status: (node: Status) => ({ ...node, networkId: 63n }) });
    const closed = await peer.closed;
    expect(closed, JSON.stringify(closed)).toMatchObject({ reason: DisconnectReason.USELESS_PEER, byUs: false });
    expect(String((await rejectionOf(mordor, peer)).detail)).toMatch(/network id 63/);
    expect((await rowOf(mordor, peer.nodeId))?.status).not.toBe('Handshaked');
  });

  it('disconnects a peer with another genesis (ETC mainnet) as USELESS_PEER, naming the mismatch', async () => {
    const peer = await dial(mordor, { status: (node: Status) => ({ ...node, genesisHash: bytes(ETC_GENESIS) }) });
    const closed = await peer.closed;
    expect(closed, JSON.stringify(closed)).toMatchObject({ reason: DisconnectReason.USELESS_PEER, byUs: false });
    expect(String((await rejectionOf(mordor, peer)).detail)).toMatch(new RegExp(`genesis ${ETC_GENESIS}`));
  });
});

// ------------------------------------------------------------------ a dev node: malformed input, net_*, blacklist

describe('a dev node and one test peer at a time', () => {
  let node: NodeProcess;
  let datadir: string;

  beforeAll(async () => {
    datadir = tempDir();
    node = await start(['--datadir', datadir, '--no-mine']);
  });

  it.each([
    ['invalid RLP', Uint8Array.from([0xff, 0x01, 0x02])],
    ['valid RLP of the wrong shape (a bare string)', RLP.encode(Uint8Array.from([1, 2, 3]))],
  ])(
    'disconnects a peer sending GetBlockHeaders as %s with PROTOCOL_ERROR (0x02) and keeps serving RPC',
    async (_what, payload) => {
      const peer = await dial(node);
      await handshaked(node, peer, 'before the malformed message');
      expect(peer.send(EthCode.GetBlockHeaders, payload)).toBe(true);
      const closed = await peer.closed;
      expect(closed, JSON.stringify(closed)).toMatchObject({ reason: 0x02, byUs: false });
      expect(await call(node.url, 'eth_blockNumber')).toBe('0x0');
      // A protocol error is not a reason to ban: the same key is let in again.
      const again = await dial(node, { privateKey: peer.privateKey });
      await handshaked(node, again, 'the same key after a protocol error');
      await again.destroy();
    },
  );

  it('net_listPeers shows an inbound test peer; debug_listPeersInfo its Hello and STATUS; net_disconnectPeer drops it', async () => {
    const peer = await dial(node);
    const ours = await peer.nodeStatus;
    const row = await handshaked(node, peer, 'inbound peer');
    expect(row).toMatchObject({ nodeId: peer.nodeId, incomingConnection: true, status: 'Handshaked' });
    expect(row.id).toMatch(/^127\.0\.0\.1:\d+$/);

    const info = (await call<Array<Record<string, unknown>>>(node.url, 'debug_listPeersInfo')).find(
      (p) => p.nodeId === peer.nodeId,
    );
    const genesis = await call<{ hash: string }>(node.url, 'eth_getBlockByNumber', ['0x0', false]);
    expect(info).toMatchObject({
      id: row.id,
      incomingConnection: true,
      status: 'Handshaked',
      clientId: 'svc-node-test-peer/v1',
      networkId: '0x539',
      genesisHash: genesis.hash,
      bestBlockHash: hex(ours.bestHash),
      totalDifficulty: quantity(ours.td),
      forkAccepted: true,
    });
    expect(info!.capabilities).toEqual(expect.arrayContaining(['eth/68', 'snap/1']));

    expect(await call(node.url, 'net_disconnectPeer', ['127.0.0.1:1'])).toBe(false);
    expect(await call(node.url, 'net_disconnectPeer', [row.id])).toBe(true);
    const closed = await peer.closed;
    await waitFor(
      async () => (await rowOf(node, peer.nodeId)) === undefined,
      'the dropped peer to leave net_listPeers',
      { node },
      10_000,
    );
    // The reason as the node sent it: DISCONNECT_REQUESTED (0x00), not a reason of our own.
    expect(closed, JSON.stringify(closed)).toMatchObject({
      reason: DisconnectReason.DISCONNECT_REQUESTED,
      byUs: false,
    });
  });

  it('net_connectToPeer dials a listening test peer (outbound, Handshaked); a malformed enode answers -32602 naming the problem', async () => {
    const listener = await TestPeer.listen();
    listeners.push(listener);
    expect(await call(node.url, 'net_connectToPeer', [listener.enode])).toBe(true);
    const peer = await listener.accept();
    peers.push(peer);
    expect((await peer.nodeStatus).networkId).toBe(1337n);
    expect(await handshaked(node, listener.nodeId, 'outbound peer')).toMatchObject({
      incomingConnection: false,
      status: 'Handshaked',
    });

    const rpcError = async (enode: string) => {
      const res = await fetch(node.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'net_connectToPeer', params: [enode] }),
      });
      return ((await res.json()) as { error?: { code: number; message: string } }).error;
    };
    // 128 hex digits that are not a point on secp256k1, and a port out of range: both pass the URL pattern.
    expect(await rpcError(`enode://${'ab'.repeat(64)}@127.0.0.1:30303`)).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/not a valid secp256k1 public key/),
    });
    expect(await rpcError(`enode://${listener.nodeId}@127.0.0.1:99999`)).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/port 99999/),
    });
    expect(await rpcError('enode://1234@127.0.0.1:30303')).toMatchObject({ code: -32602 });

    await listener.close();
  });

  it('trap (d): an IP on the blacklist is refused before any handshake byte; removing it lets the peer in again', async () => {
    expect(await call(node.url, 'net_addToBlacklist', ['127.0.0.1', 60, 'test'])).toBe(true);
    const refused = await dial(node);
    const closed = await refused.closed;
    expect(closed, JSON.stringify(closed)).toMatchObject({
      name: SOCKET_CLOSED_BEFORE_HANDSHAKE,
      bytesReceived: 0,
      reason: undefined,
    });
    await expect(refused.hello).rejects.toThrow(/closed/);
    expect(await rowOf(node, refused.nodeId)).toBeUndefined();

    expect(await call(node.url, 'net_removeFromBlacklist', ['127.0.0.1'])).toBe(true);
    const admitted = await dial(node, { privateKey: refused.privateKey });
    await handshaked(node, admitted, 'after net_removeFromBlacklist');
    await admitted.destroy();
  });

  let bannedKey: Uint8Array;
  let bannedId: string;

  it('a node id on the blacklist: its connected peer is dropped, its redial refused; other peers still connect', async () => {
    const peer = await dial(node);
    await handshaked(node, peer, 'before the ban');
    bannedKey = peer.privateKey;
    bannedId = peer.nodeId;
    expect(await call(node.url, 'net_addToBlacklist', [bannedId, null, 'banned by id'])).toBe(true);
    const dropped = await peer.closed;
    expect(dropped, JSON.stringify(dropped)).toMatchObject({ reason: DisconnectReason.USELESS_PEER, byUs: false });

    const redial = await dial(node, { privateKey: bannedKey });
    const refused = await redial.closed;
    expect(refused, JSON.stringify(refused)).toMatchObject({ reason: DisconnectReason.USELESS_PEER, byUs: false });
    expect(redial.messages.filter((m) => m.code === EthCode.Status)).toEqual([]); // never got as far as STATUS

    const other = await dial(node);
    await handshaked(node, other, 'another node id');
    await other.destroy();
  });

  it('the blacklist survives a restart on the same datadir (same entry, same addedAt; the id is still refused)', async () => {
    type Entry = { id: string; reason: string; addedAt: number; expiresAt: number | null };
    const before = (await call<Entry[]>(node.url, 'net_listBlacklistedPeers')).find((e) => e.id === bannedId);
    expect(before).toMatchObject({ id: bannedId, reason: 'banned by id', expiresAt: null });
    expect(before!.addedAt).toBeGreaterThan(Date.now() - 120_000);

    await node.stop();
    node = await start(['--datadir', datadir, '--no-mine']);
    const after = (await call<Entry[]>(node.url, 'net_listBlacklistedPeers')).find((e) => e.id === bannedId);
    expect(after).toEqual(before);

    const redial = await dial(node, { privateKey: bannedKey });
    expect((await redial.closed).reason).toBe(DisconnectReason.USELESS_PEER);
    expect(await call(node.url, 'net_removeFromBlacklist', [bannedId])).toBe(true);
    expect(await call(node.url, 'net_removeFromBlacklist', [bannedId])).toBe(false);
  }, 60_000);
});

// ------------------------------------------------------------------ a mined dev chain: serving, and a block with a bad seal

describe('a dev node with mined blocks', () => {
  let miner: NodeProcess;
  /** Block numbers → hashes and transaction hashes, from JSON-RPC. */
  const blocks: Array<{ hash: string; transactions: string[]; totalDifficulty: string }> = [];
  let head = 0;

  beforeAll(async () => {
    // The Ethash dev chain: the bad-seal case below is about Ethash verification over the wire.
    miner = await start(['--seal', 'ethash']);
    const [from, to] = [DEV_ACCOUNTS[1].address, DEV_ACCOUNTS[2].address];
    const send = (value: number) =>
      call<string>(miner.url, 'eth_sendTransaction', [{ from, to, value: quantity(value) }]);
    const mined = (hash: string) =>
      waitFor(
        async () => (await call(miner.url, 'eth_getTransactionReceipt', [hash])) !== null,
        `transaction ${hash} to be mined`,
        { miner },
        20_000,
      );
    // One transaction per block twice, then two sent together (one block or two, as the miner batches them).
    for (const value of [1000, 2000]) await mined(await send(value));
    const pair = await Promise.all([send(3000), send(4000)]);
    for (const hash of pair) await mined(hash);
    head = Number(await call<string>(miner.url, 'eth_blockNumber'));
    for (let n = 0; n <= head; n++) blocks.push((await call(miner.url, 'eth_getBlockByNumber', [quantity(n), false]))!);
  }, 60_000);

  it('serves GetBlockHeaders by number and by hash, with skip and reverse, as eth_getBlockByNumber has them', async () => {
    expect(head).toBeGreaterThanOrEqual(3);
    const peer = await dial(miner);
    await handshaked(miner, peer, 'serving');
    const numbersOf = async (query: Parameters<TestPeer['getBlockHeaders']>[0]) =>
      (await peer.getBlockHeaders(query)).map((h) => blocks.findIndex((b) => b.hash === headerHash(h)));

    // Every header served is the one RPC has at that number.
    const all = await peer.getBlockHeaders({ origin: 0n, amount: head + 1, skip: 0, reverse: false });
    expect(all.map(headerHash)).toEqual(blocks.map((b) => b.hash));
    expect(all.map((h) => toBigInt(h[8]!))).toEqual(blocks.map((_, n) => BigInt(n))); // field 8 = number

    expect(await numbersOf({ origin: 1n, amount: 2, skip: 1, reverse: false })).toEqual([1, 3]);
    const expectedReverse = [head, head - 2, head - 4].filter((n) => n >= 0);
    expect(await numbersOf({ origin: BigInt(head), amount: 3, skip: 1, reverse: true })).toEqual(expectedReverse);
    expect(await numbersOf({ origin: bytes(blocks[1]!.hash), amount: 2, skip: 0, reverse: false })).toEqual([1, 2]);
    expect(await numbersOf({ origin: bytes(blocks[2]!.hash), amount: 5, skip: 0, reverse: true })).toEqual([2, 1, 0]);
    // Past the head, or an unknown hash: nothing.
    expect(await numbersOf({ origin: BigInt(head + 1), amount: 3, skip: 0, reverse: false })).toEqual([]);
    expect(await numbersOf({ origin: bytes('0x' + '11'.repeat(32)), amount: 1, skip: 0, reverse: false })).toEqual([]);
    // A request running past the head stops there.
    expect(await numbersOf({ origin: BigInt(head - 1), amount: 10, skip: 0, reverse: false })).toEqual([
      head - 1,
      head,
    ]);
  });

  it('serves GetBlockBodies and GetReceipts matching eth_getBlockByNumber and eth_getTransactionReceipt', async () => {
    const peer = await dial(miner);
    await handshaked(miner, peer, 'serving');
    const numbers = blocks.map((_, n) => n).filter((n) => n > 0);
    const hashes = numbers.map((n) => bytes(blocks[n]!.hash));

    // An unknown hash at the end is skipped.
    const bodies = await peer.getBlockBodies([...hashes, bytes('0x' + '22'.repeat(32))]);
    expect(bodies).toHaveLength(numbers.length);
    bodies.forEach((body, i) => {
      expect(body.txs.map(txHash), `block ${numbers[i]} transactions`).toEqual(blocks[numbers[i]!]!.transactions);
      expect(body.uncles).toEqual([]);
    });
    expect(bodies.reduce((n, b) => n + b.txs.length, 0)).toBe(4);

    const receipts = await peer.getReceipts(hashes);
    expect(receipts).toHaveLength(numbers.length);
    for (const [i, blockReceipts] of receipts.entries()) {
      const txs = blocks[numbers[i]!]!.transactions;
      expect(blockReceipts).toHaveLength(txs.length);
      for (const [k, wire] of blockReceipts.entries()) {
        const rpc = await call<{
          status: string;
          cumulativeGasUsed: string;
          logsBloom: string;
          logs: unknown[];
          type?: string;
        }>(miner.url, 'eth_getTransactionReceipt', [txs[k]]);
        // Legacy: [status, cumulativeGas, bloom, logs]; typed: type byte ++ RLP of that list.
        const fields = (wire instanceof Uint8Array ? RLP.decode(wire.subarray(1)) : wire) as [
          Uint8Array,
          Uint8Array,
          Uint8Array,
          unknown[],
        ];
        expect(quantity(toBigInt(fields[0])), `status of ${txs[k]}`).toBe(rpc.status);
        expect(quantity(toBigInt(fields[1])), `cumulative gas of ${txs[k]}`).toBe(rpc.cumulativeGasUsed);
        expect(hex(fields[2])).toBe(rpc.logsBloom);
        expect(fields[3]).toHaveLength(rpc.logs.length);
      }
    }
  });

  it('disconnects a peer sending a NewBlock with a bad seal (SUBPROTOCOL_ERROR 0x10), blacklists it, refuses its redial, keeps serving RPC', async () => {
    // Block 1 of the miner's chain, fetched over the wire, its mixHash (header field 13) flipped.
    const source = await dial(miner);
    await handshaked(miner, source, 'fetching block 1');
    const [header] = await source.getBlockHeaders({ origin: 1n, amount: 1, skip: 0, reverse: false });
    const [body] = await source.getBlockBodies([bytes(blocks[1]!.hash)]);
    expect(headerHash(header!)).toBe(blocks[1]!.hash);
    const tampered = header!.map((field, i) => (i === 13 ? field.map((b) => b ^ 0xff) : field));
    const td = BigInt(blocks[1]!.totalDifficulty);

    const fresh = await start(['--no-mine', '--seal', 'ethash']);
    const bad = await dial(fresh);
    await handshaked(fresh, bad, 'before the bad block');
    bad.sendNewBlock({ block: [tampered, body!.txs, body!.uncles], td });
    const closed = await bad.closed;
    expect(closed, JSON.stringify(closed)).toMatchObject({ reason: 0x10, byUs: false });

    type Entry = { id: string; reason: string; addedAt: number; expiresAt: number | null };
    const entry = (await call<Entry[]>(fresh.url, 'net_listBlacklistedPeers')).find((e) => e.id === bad.nodeId);
    expect(entry, `blacklist: ${JSON.stringify(await call(fresh.url, 'net_listBlacklistedPeers'))}`).toBeDefined();
    expect(entry!.reason).toMatch(/invalid block 1/);
    expect(entry!.reason).toMatch(/seal|mix digest/i);
    expect(entry!.expiresAt === null || entry!.expiresAt > entry!.addedAt).toBe(true);

    const redial = await dial(fresh, { privateKey: bad.privateKey });
    const refused = await redial.closed;
    expect(refused, JSON.stringify(refused)).toMatchObject({ reason: DisconnectReason.USELESS_PEER, byUs: false });
    expect(await call(fresh.url, 'eth_blockNumber')).toBe('0x0');

    // The same block with its real seal, from another peer, is imported: the seal was the only fault.
    const good = await dial(fresh);
    await handshaked(fresh, good, 'sending the valid block');
    good.sendNewBlock({ block: [header!, body!.txs, body!.uncles], td });
    await waitFor(
      async () => (await call(fresh.url, 'eth_blockNumber')) === '0x1',
      'the valid block 1 to be imported',
      { fresh },
      15_000,
    );
    expect((await call<{ hash: string }>(fresh.url, 'eth_getBlockByNumber', ['0x1', false])).hash).toBe(
      blocks[1]!.hash,
    );
    expect(good.isClosed).toBe(false);
    await fresh.stop();
  }, 60_000);
});
