/**
 * An instant-seal dev node and a proof-of-work (`--seal ethash`) dev node on one machine, as node processes:
 *
 * - the instant node seals with no work (nonce and mixHash zero), its genesis says "svc-node dev instant-seal", and
 *   its eth_getWork answers how to get a proof-of-work dev chain;
 * - peered (the PoW node has the instant node as bootnode), the PoW node refuses it at the STATUS handshake, naming
 *   the instant chain's genesis: the two are different chains, so no block of one ever reaches the other's import;
 * - an instant-seal block on the PoW node's own genesis, sent by a scripted peer, is refused with the reason
 *   (SUBPROTOCOL_ERROR, blacklisted as "an instant-seal block … on a chain sealed with Ethash");
 * - the instant node likewise refuses a block carrying a proof-of-work seal.
 */
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@ethereumjs/util';
import createKeccak from 'keccak';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { TestPeer } from '../helpers/test-peer.js';
import { call, nodeIdOfEnode, waitFor } from './multi-node-fixture.js';

let instant: NodeProcess;
let pow: NodeProcess;
const peers: TestPeer[] = [];
type RpcBlock = {
  hash: string;
  number: string;
  nonce: string;
  mixHash: string;
  extraData: string;
  transactions: string[];
};

beforeAll(async () => {
  instant = await startNode({ timeoutMs: 60_000 });
  pow = await startNode({ args: ['--seal', 'ethash', '--no-mine', '--bootnodes', instant.enode!], timeoutMs: 60_000 });
  // One block on the instant chain: a transfer, sealed at once.
  const hash = await call<string>(instant.url, 'eth_sendTransaction', [
    { from: DEV_ACCOUNTS[1]!.address, to: DEV_ACCOUNTS[2]!.address, value: '0x1' },
  ]);
  await waitFor(
    async () => (await call(instant.url, 'eth_getTransactionReceipt', [hash])) !== null,
    'the transfer to be sealed',
    { instant },
    20_000,
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(peers.map((p) => p.destroy().catch(() => undefined)));
  await Promise.all([instant?.stop(), pow?.stop()]);
}, 60_000);

const blockOf = (node: NodeProcess, n: number) =>
  call<RpcBlock>(node.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
const headerHash = (fields: Uint8Array[]) =>
  bytesToHex(
    createKeccak('keccak256')
      .update(Buffer.from(RLP.encode(fields)))
      .digest(),
  );

async function dial(node: NodeProcess): Promise<TestPeer> {
  const peer = await TestPeer.dial(node.enode!);
  peers.push(peer);
  await waitFor(
    async () =>
      (await call<Array<{ nodeId: string | null; status: string }>>(node.url, 'net_listPeers')).some(
        (p) => p.nodeId === peer.nodeId && p.status === 'Handshaked',
      ),
    'the test peer to be Handshaked',
    { node },
    15_000,
  );
  return peer;
}

/** Block 1 of the instant chain as the wire carries it: header fields and body. */
async function instantBlockOne(): Promise<{ header: Uint8Array[]; body: { txs: any[]; uncles: Uint8Array[][] } }> {
  const source = await dial(instant);
  const [header] = await source.getBlockHeaders({ origin: 1n, amount: 1, skip: 0, reverse: false });
  const [body] = await source.getBlockBodies([hexToBytes((await blockOf(instant, 1)).hash as `0x${string}`)]);
  await source.destroy();
  return { header: header!, body: body! };
}

type BlacklistEntry = { id: string; reason: string };
async function blacklistReasonOf(node: NodeProcess, peer: TestPeer): Promise<string> {
  let entry: BlacklistEntry | undefined;
  await waitFor(
    async () =>
      (entry = (await call<BlacklistEntry[]>(node.url, 'net_listBlacklistedPeers')).find(
        (e) => e.id === peer.nodeId,
      )) !== undefined,
    'a blacklist entry for the test peer',
    { node },
    15_000,
  );
  return entry!.reason;
}

describe('an instant-seal dev node', () => {
  it('seals with no work on a genesis of its own, and its eth_getWork says how to get a proof-of-work dev chain', async () => {
    const [genesis, one, powGenesis] = await Promise.all([blockOf(instant, 0), blockOf(instant, 1), blockOf(pow, 0)]);
    expect(one.transactions).toHaveLength(1);
    expect(one.nonce).toBe('0x0000000000000000');
    expect(one.mixHash).toBe(`0x${'00'.repeat(32)}`);
    expect(genesis.extraData).toBe(bytesToHex(utf8ToBytes('svc-node dev instant-seal')));
    expect(powGenesis.extraData).toBe(bytesToHex(utf8ToBytes('svc-node dev')));
    expect(genesis.hash).not.toBe(powGenesis.hash);

    const res = await fetch(instant.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getWork', params: [] }),
    });
    const { error } = (await res.json()) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32002);
    expect(error.message).toMatch(/this dev chain is instant-seal .*start svc-node with --seal ethash/);
    expect(await call(instant.url, 'eth_mining')).toBe(true);
    expect(await call(instant.url, 'eth_hashrate')).toBe('0x0');
  });
});

describe('a proof-of-work dev node and instant-seal blocks', () => {
  it('refuses the instant-seal node as a peer at the handshake, naming its genesis', async () => {
    const [instantGenesis, powGenesis] = await Promise.all([blockOf(instant, 0), blockOf(pow, 0)]);
    const instantId = nodeIdOfEnode(instant.enode!);
    let rejection: Record<string, unknown> | undefined;
    await waitFor(
      async () =>
        (rejection = pow.logs.find((e) => e.msg === 'p2p peer rejected' && e.nodeId === instantId)) !== undefined,
      'the PoW node to reject the instant-seal node',
      { pow, instant },
    );
    expect(String(rejection!.detail)).toBe(`genesis ${instantGenesis.hash}, ours is ${powGenesis.hash}`);
    expect(await call(pow.url, 'net_peerCount')).toBe('0x0');
    expect(await call(pow.url, 'eth_blockNumber')).toBe('0x0');
  });

  it('refuses an instant-seal block on its own genesis with the reason, and blacklists the sender', async () => {
    const { header, body } = await instantBlockOne();
    const powGenesis = await blockOf(pow, 0);
    // The instant block 1, re-parented on the PoW node's genesis: every header rule holds; only the seal is instant.
    const onPowGenesis = header.map((field, i) => (i === 0 ? hexToBytes(powGenesis.hash as `0x${string}`) : field));
    const sender = await dial(pow);
    sender.sendNewBlock({ block: [onPowGenesis, body.txs, body.uncles], td: 4n });
    expect(await sender.closed).toMatchObject({ reason: 0x10, byUs: false });
    const reason = await blacklistReasonOf(pow, sender);
    expect(reason).toMatch(/invalid block 1/);
    expect(reason).toContain(
      `${headerHash(onPowGenesis)}: an instant-seal block (nonce and mixHash zero, no proof of work) on a chain sealed with Ethash`,
    );
    expect(await call(pow.url, 'eth_blockNumber')).toBe('0x0');
  });
});

describe('an instant-seal dev node and proof-of-work seals', () => {
  it('refuses a block carrying a nonzero nonce, saying the chain is instant-seal', async () => {
    const { header, body } = await instantBlockOne();
    const withNonce = header.map((field, i) => (i === 14 ? Uint8Array.from([0, 0, 0, 0, 0, 0, 0x12, 0x34]) : field));
    const sender = await dial(instant);
    sender.sendNewBlock({ block: [withNonce, body.txs, body.uncles], td: 4n });
    expect(await sender.closed).toMatchObject({ reason: 0x10, byUs: false });
    expect(await blacklistReasonOf(instant, sender)).toMatch(
      /not an instant seal \(nonce 0x0000000000001234, .*this is an instant-seal dev chain/,
    );
  });
});
