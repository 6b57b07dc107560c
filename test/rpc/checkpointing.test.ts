/**
 * ECIP-1097 checkpointing over JSON-RPC, on real node processes: dev nodes started with --checkpointing (federation
 * = dev accounts 7, 8, 9; 2 signatures needed) and Ethash seals, and one plain dev node.
 *
 * A mines a short chain; B follows A over devp2p; C mines a longer (heavier) chain alone. A checkpoint pushed on A
 * becomes A's head and reaches B. Then A meets C: A downloads C's heavier chain but keeps its checkpointed head.
 * Bad, too few, duplicate, non-federation and too many signatures are each refused with the rule that failed.
 * Signatures are made here with the secp256k1 library, independently of the node's own signing code.
 */
import secp256k1 from 'secp256k1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';
import { call, waitFor } from '../p2p/multi-node-fixture.js';

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const bytes = (hex: string) => Buffer.from(hex.replace(/^0x/, ''), 'hex');
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const publicKeyOf = (account: number) =>
  hex(secp256k1.publicKeyCreate(bytes(DEV_ACCOUNTS[account].privateKey), false).subarray(1));

/** r ‖ s ‖ v over the raw 32-byte hash, v = 27/28: what a federation member sends. */
function sign(blockHash: string, account: number): string {
  const { signature, recid } = secp256k1.ecdsaSign(bytes(blockHash), bytes(DEV_ACCOUNTS[account].privateKey));
  return hex(Uint8Array.from([...signature, 27 + recid]));
}

/** The same signer's other valid signature of the hash: s → n − s with the recovery bit flipped. */
function malleate(sig: string): string {
  const b = bytes(sig);
  const s = BigInt(hex(b.subarray(32, 64)));
  const out = Buffer.concat([
    b.subarray(0, 32),
    Buffer.from((SECP256K1_N - s).toString(16).padStart(64, '0'), 'hex'),
    Buffer.from([b[64] === 27 ? 28 : 27]),
  ]);
  return hex(out);
}

async function rpc(
  node: NodeProcess,
  method: string,
  params: unknown[] = [],
): Promise<{ result?: any; error?: { code: number; message: string; data?: any } }> {
  const res = await post(node.url, request(method, params));
  return res.body;
}

type BlockJson = Record<string, any>;
const block = (node: NodeProcess, tag: string | number): Promise<BlockJson> =>
  call(node.url, 'eth_getBlockByNumber', [typeof tag === 'number' ? `0x${tag.toString(16)}` : tag, false]);

let nodeA: NodeProcess;
let nodeB: NodeProcess;
let nodeC: NodeProcess;
let plain: NodeProcess;

beforeAll(async () => {
  // Real Ethash seals over 16-field headers, mined here and verified here and on the peers (the seal hash formula
  // itself is pinned in test/chain/checkpointing/codec.test.ts). C mines to another coinbase so its blocks differ
  // from A's even when sealed in the same second.
  const checkpointing = ['--checkpointing', '--seal', 'ethash'];
  [nodeA, nodeB, nodeC, plain] = await Promise.all([
    startNode({ args: checkpointing, timeoutMs: 60_000 }),
    startNode({ args: checkpointing, timeoutMs: 60_000 }),
    startNode({ args: [...checkpointing, '--miner.coinbase', DEV_ACCOUNTS[1].address], timeoutMs: 60_000 }),
    startNode({ args: ['--no-p2p'], timeoutMs: 60_000 }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([nodeA, nodeB, nodeC, plain].filter(Boolean).map((node) => node.stop()));
});

describe('checkpointing on dev --checkpointing', () => {
  const nodes = () => ({ nodeA, nodeB, nodeC });
  let b3: BlockJson;
  let cp4: BlockJson;

  it('reports the federation: dev accounts 7, 8 and 9', async () => {
    expect(await call(nodeA.url, 'qa_getFederationMembersInfo')).toEqual({
      membersPublicKeys: [publicKeyOf(7), publicKeyOf(8), publicKeyOf(9)],
    });
  });

  it('mines blocks with lastCheckpointNumber 0x0 and no checkpoint; B follows A', async () => {
    expect(await call(nodeA.url, 'qa_mineBlocks', [3, false])).toEqual({
      responseType: 'MiningOrdered',
      message: null,
    });
    expect(await call(nodeC.url, 'qa_mineBlocks', [8, false])).toEqual({
      responseType: 'MiningOrdered',
      message: null,
    });
    b3 = await block(nodeA, 'latest');
    expect(b3).toMatchObject({ number: '0x3', checkpoint: null, lastCheckpointNumber: '0x0' });
    expect(b3.nonce).toMatch(/^0x[0-9a-f]{16}$/);
    expect(await call(nodeB.url, 'net_connectToPeer', [nodeA.enode])).toBe(true);
    await waitFor(
      async () => (await block(nodeB, 'latest')).hash === b3.hash,
      "B's head to reach A's block 3",
      nodes(),
    );
  });

  it('names the block to checkpoint (checkpointing_getLatestBlock, Mantis semantics)', async () => {
    const b2 = await block(nodeA, 2);
    expect(await call(nodeA.url, 'checkpointing_getLatestBlock', [2, null])).toEqual({
      block: { hash: b2.hash, number: '0x2' },
    });
    expect(await call(nodeA.url, 'checkpointing_getLatestBlock', ['0x2', (await block(nodeA, 0)).hash])).toEqual({
      block: { hash: b2.hash, number: '0x2' },
    });
    expect(await call(nodeA.url, 'checkpointing_getLatestBlock', [2, b2.hash])).toEqual({ block: null });
    expect(await call(nodeA.url, 'checkpointing_getLatestBlock', [1])).toEqual({
      block: { hash: b3.hash, number: '0x3' },
    });
    expect((await rpc(nodeA, 'checkpointing_getLatestBlock', ['0x0'])).error).toMatchObject({ code: -32602 });
  });

  it('pushes a checkpoint signed by the federation: it becomes the head, with its signatures and signers, and reaches B', async () => {
    const sigs = [sign(b3.hash, 8), sign(b3.hash, 7)];
    // The ECIP's example omits 0x: both forms are accepted.
    expect(await call(nodeA.url, 'checkpointing_pushCheckpoint', [b3.hash, [sigs[0], sigs[1]!.slice(2)]])).toBe(true);
    cp4 = await block(nodeA, 'latest');
    const sorted = [...sigs].sort();
    const signerOf = new Map([
      [sign(b3.hash, 7), publicKeyOf(7)],
      [sign(b3.hash, 8), publicKeyOf(8)],
    ]);
    expect(cp4).toMatchObject({
      number: '0x4',
      parentHash: b3.hash,
      checkpoint: { signatures: sorted, signers: sorted.map((s) => signerOf.get(s)) },
      lastCheckpointNumber: '0x4',
      miner: '0x0000000000000000000000000000000000000000',
      nonce: '0x',
      mixHash: '0x',
      extraData: '0x',
      gasUsed: '0x0',
      transactions: [],
      uncles: [],
      stateRoot: b3.stateRoot,
      difficulty: b3.difficulty,
      gasLimit: b3.gasLimit,
      timestamp: `0x${(Number(b3.timestamp) + 1).toString(16)}`,
      totalDifficulty: `0x${(BigInt(b3.totalDifficulty) + BigInt(b3.difficulty)).toString(16)}`,
    });
    // No reward: the miner's balance is the same after the checkpoint block.
    const coinbase = DEV_ACCOUNTS[0].address;
    expect(await call(nodeA.url, 'eth_getBalance', [coinbase, '0x4'])).toBe(
      await call(nodeA.url, 'eth_getBalance', [coinbase, '0x3']),
    );
    await waitFor(
      async () => (await block(nodeB, 'latest')).hash === cp4.hash,
      "B's head to become A's checkpoint block",
      nodes(),
    );
    expect(await block(nodeB, 'latest')).toMatchObject({ checkpoint: cp4.checkpoint, lastCheckpointNumber: '0x4' });
    // Blocks on top carry the checkpoint number forward.
    expect(await call(nodeA.url, 'checkpointing_getLatestBlock', [1])).toEqual({
      block: { hash: cp4.hash, number: '0x4' },
    });
  });

  it('keeps the checkpointed head when a heavier chain without the checkpoint arrives from a peer', async () => {
    const headC = await block(nodeC, 'latest');
    expect(headC.number).toBe('0x8');
    expect(BigInt(headC.totalDifficulty)).toBeGreaterThan(BigInt(cp4.totalDifficulty));
    expect(await call(nodeA.url, 'net_connectToPeer', [nodeC.enode])).toBe(true);
    // A downloads and stores C's chain (it is valid) ...
    await waitFor(
      async () => (await call(nodeA.url, 'eth_getBlockByHash', [headC.hash, false])) !== null,
      "A to store C's head block",
      nodes(),
    );
    const stored = await call<BlockJson>(nodeA.url, 'eth_getBlockByHash', [headC.hash, false]);
    expect(stored).toMatchObject({
      totalDifficulty: headC.totalDifficulty,
      lastCheckpointNumber: '0x0',
      checkpoint: null,
    });
    // ... but does not make it the head: C's chain lacks the checkpoint.
    expect((await block(nodeA, 'latest')).hash).toBe(cp4.hash);
    expect((await block(nodeA, 4)).hash).toBe(cp4.hash);
    expect((await block(nodeB, 'latest')).hash).toBe(cp4.hash);
  });

  describe('refuses a checkpoint, saying which rule failed', () => {
    const refusal = async (sigs: string[], hash = cp4.hash) =>
      (await rpc(nodeA, 'checkpointing_pushCheckpoint', [hash, sigs])).error;

    it('a bad signature (recovers to no key)', async () => {
      const good = sign(cp4.hash, 7);
      const badV = `${good.slice(0, -2)}1d`; // v = 29
      const error = await refusal([badV, sign(cp4.hash, 8)].sort());
      expect(error).toMatchObject({ code: -32602, data: { reason: 'invalid-signature' } });
      expect(error!.message).toMatch(
        /^Invalid checkpoint: signature \d \(0x[0-9a-f]{130}\) is invalid: it recovers to no public key/,
      );
    });

    it('too few signatures', async () => {
      const error = await refusal([sign(cp4.hash, 9)]);
      expect(error).toEqual({
        code: -32602,
        message: 'Invalid checkpoint: 1 valid signature, but 2 of the 3 federation members must sign',
        data: { reason: 'too-few-signatures' },
      });
    });

    it('duplicate signers: the same signature twice, or two signatures of one member', async () => {
      const s7 = sign(cp4.hash, 7);
      for (const sigs of [
        [s7, s7],
        [s7, malleate(s7)],
      ]) {
        const error = await refusal(sigs);
        expect(error).toMatchObject({ code: -32602, data: { reason: 'duplicate-signer' } });
        expect(error!.message).toContain(`are from the same federation member ${publicKeyOf(7)}`);
      }
    });

    it('a signer outside the federation', async () => {
      const error = await refusal([sign(cp4.hash, 0), sign(cp4.hash, 8)]);
      expect(error).toMatchObject({ code: -32602, data: { reason: 'not-federation-signer' } });
      expect(error!.message).toContain(`recovers to ${publicKeyOf(0)}, which is not a federation member`);
    });

    it('more signatures than members, and a malformed or unknown input', async () => {
      const four = [7, 8, 9, 0].map((i) => sign(cp4.hash, i));
      expect(await refusal(four)).toMatchObject({ code: -32602, data: { reason: 'too-many-signatures' } });
      expect(await refusal([sign(cp4.hash, 7).slice(0, -2)])).toMatchObject({ code: -32602 });
      expect(await refusal([sign(cp4.hash, 7)], `0x${'ab'.repeat(32)}`)).toMatchObject({ code: -32001 });
      // Nothing of it reached the chain.
      expect((await block(nodeA, 'latest')).hash).toBe(cp4.hash);
    });
  });

  it('qa_generateCheckpoint signs the head with the given keys and imports the checkpoint (it reaches B too)', async () => {
    expect(await call(nodeA.url, 'qa_mineBlocks', [1, false])).toMatchObject({ responseType: 'MiningOrdered' });
    const b5 = await block(nodeA, 'latest');
    expect(b5.lastCheckpointNumber).toBe('0x4');
    const keys = [DEV_ACCOUNTS[9].privateKey, DEV_ACCOUNTS[8].privateKey.slice(2)];
    const generated = await call<{ signatures: string[]; signers: string[] }>(nodeA.url, 'qa_generateCheckpoint', [
      keys,
    ]);
    const expected = [sign(b5.hash, 9), sign(b5.hash, 8)].sort();
    expect(generated.signatures).toEqual(expected);
    expect([...generated.signers].sort()).toEqual([publicKeyOf(8), publicKeyOf(9)].sort());
    const head = await block(nodeA, 'latest');
    expect(head).toMatchObject({
      number: '0x6',
      parentHash: b5.hash,
      checkpoint: generated,
      lastCheckpointNumber: '0x6',
    });
    await waitFor(
      async () => (await block(nodeB, 'latest')).hash === head.hash,
      "B's head to become the generated checkpoint",
      nodes(),
    );
    // Keys outside the federation are refused like pushed signatures; an unknown block is -32001.
    expect(
      (await rpc(nodeA, 'qa_generateCheckpoint', [[DEV_ACCOUNTS[0].privateKey, DEV_ACCOUNTS[8].privateKey]])).error,
    ).toMatchObject({
      code: -32602,
      data: { reason: 'not-federation-signer' },
    });
    expect(
      (await rpc(nodeA, 'qa_generateCheckpoint', [[DEV_ACCOUNTS[8].privateKey], `0x${'cd'.repeat(32)}`])).error,
    ).toMatchObject({ code: -32001 });
  });
});

describe('svc_getAccountTransactions on a checkpointed chain', () => {
  it('marks a transaction checkpointed once a checkpoint covers its block', async () => {
    const from = DEV_ACCOUNTS[3].address.toLowerCase();
    const hash = await call<string>(nodeA.url, 'eth_sendTransaction', [
      { from, to: DEV_ACCOUNTS[4].address, value: '0x1' },
    ]);
    const receipt = await call<{ blockNumber: string; blockHash: string }>(nodeA.url, 'eth_getTransactionReceipt', [
      hash,
    ]);
    const listed = async () =>
      (await call<{ transactions: any[] }>(nodeA.url, 'svc_getAccountTransactions', [from, '0x0', receipt.blockNumber]))
        .transactions;
    expect((await listed()).map((t) => [t.hash, t.isCheckpointed])).toEqual([[hash, false]]);
    await call(nodeA.url, 'qa_generateCheckpoint', [
      [DEV_ACCOUNTS[7].privateKey, DEV_ACCOUNTS[9].privateKey],
      receipt.blockHash,
    ]);
    expect((await listed()).map((t) => [t.hash, t.isCheckpointed])).toEqual([[hash, true]]);
  });
});

describe('a dev node without --checkpointing', () => {
  it('has no federation, refuses checkpoints with -32000 and leaves lastCheckpointNumber out', async () => {
    expect(await call(plain.url, 'qa_getFederationMembersInfo')).toEqual({ membersPublicKeys: [] });
    const genesis = await block(plain, 0);
    expect(genesis.checkpoint).toBeNull();
    expect(genesis).not.toHaveProperty('lastCheckpointNumber');
    const error = (
      await rpc(plain, 'checkpointing_pushCheckpoint', [genesis.hash, [sign(genesis.hash, 7), sign(genesis.hash, 8)]])
    ).error;
    expect(error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/Checkpointing is not configured on this node.*--checkpointing/),
    });
    expect((await rpc(plain, 'qa_generateCheckpoint', [[DEV_ACCOUNTS[7].privateKey]])).error).toMatchObject({
      code: -32000,
    });
    // Reading the chain works anywhere.
    expect(await call(plain.url, 'checkpointing_getLatestBlock', [1, null])).toEqual({
      block: { hash: genesis.hash, number: '0x0' },
    });
  });
});
