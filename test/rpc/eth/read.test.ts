/**
 * The eth read methods against a dev node process, on blocks produced by signed transfers sent with ethers
 * (the dev node automines): ethers v6 parses blocks, transactions and receipts; the generated client checks
 * every method's exact answers, not-found nulls, -32001 for unknown blocks, historical state and an
 * eth_getProof result verified against the block's stateRoot.
 */
import { MerklePatriciaTrie, verifyMPTWithMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { Transaction, Wallet, getCreateAddress, keccak256, type JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, httpTransport, type RpcClient } from '../../../clients/typescript/src/client.js';
import type { Block, Receipt, Transaction as TxJson } from '../../../src/generated/types.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import {
  CALLED_TOPIC,
  CREATED_TOPIC,
  DEV_CHAIN_ID,
  GWEI,
  RUNTIME_CODE,
  devWallet,
  initCode,
  providerFor,
  rpc,
  sendRawBatch,
  waitForReceipt,
} from './read-helpers.js';

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
const q = (n: bigint | number) => `0x${n.toString(16)}`;
const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`;

let node: NodeProcess;
let provider: JsonRpcProvider;
let client: RpcClient;
let sender: Wallet;
const recipient = Wallet.createRandom().address.toLowerCase();

// What the setup produced.
let legacyHash: string;
let legacyBlock: number;
let accessListHash: string;
let accessListBlock: number;
let createRaw: string;
let callRaw: string;
let createHash: string;
let callHash: string;
let contractBlock: number;
let contract: string;

beforeAll(async () => {
  node = await startNode();
  provider = providerFor(node.url);
  client = createClient(httpTransport(node.url));
  sender = devWallet(0, provider);

  const legacy = await sender.sendTransaction({
    type: 0,
    to: recipient,
    value: 10n ** 18n,
    gasLimit: 21_000n,
    gasPrice: 2n * GWEI,
  });
  legacyHash = legacy.hash;
  legacyBlock = (await waitForReceipt(provider, legacy.hash)).blockNumber;

  const accessList = await sender.sendTransaction({
    type: 1,
    to: recipient,
    value: 2n * 10n ** 18n,
    gasLimit: 30_000n,
    gasPrice: 2n * GWEI,
    accessList: [{ address: recipient, storageKeys: [`0x${'00'.repeat(32)}`] }],
  });
  accessListHash = accessList.hash;
  accessListBlock = (await waitForReceipt(provider, accessList.hash)).blockNumber;

  // A creation and a call to the created contract in one block: sent while the miner is stopped, sealed
  // together when it starts again (the dev policy seals every pending transaction that fits).
  expect((await rpc(node.url, 'miner_stop', [])).result).toBe(true);
  const nonce = await provider.getTransactionCount(sender.address, 'latest');
  contract = getCreateAddress({ from: sender.address, nonce }).toLowerCase();
  const common = { chainId: DEV_CHAIN_ID, gasPrice: 2n * GWEI, type: 0 } as const;
  createRaw = await sender.signTransaction({ ...common, nonce, data: initCode(), gasLimit: 200_000n });
  callRaw = await sender.signTransaction({ ...common, nonce: nonce + 1, to: contract, gasLimit: 100_000n });
  [createHash, callHash] = await sendRawBatch(node.url, [createRaw, callRaw]);
  expect((await rpc(node.url, 'miner_start', [])).result).toBe(true);
  const [createReceipt, callReceipt] = await Promise.all([
    waitForReceipt(provider, createHash),
    waitForReceipt(provider, callHash),
  ]);
  contractBlock = createReceipt.blockNumber;
  expect(callReceipt.blockNumber).toBe(contractBlock);
}, 60_000);

afterAll(async () => {
  provider?.destroy();
  await client?.close();
  await node?.stop();
});

describe('ethers v6 reads what the node returns', () => {
  it('blocks with prefetched transactions, transactions and receipts', async () => {
    expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(contractBlock);
    const block = (await provider.getBlock(legacyBlock, true))!;
    expect(block.number).toBe(legacyBlock);
    expect(block.transactions).toContain(legacyHash);
    const tx = block.prefetchedTransactions.find((t) => t.hash === legacyHash)!;
    expect(tx.from).toBe(sender.address);
    expect(tx.to!.toLowerCase()).toBe(recipient);
    expect(tx.value).toBe(10n ** 18n);
    expect(tx.chainId).toBe(DEV_CHAIN_ID);
    expect(tx.signature.r).toMatch(/^0x[0-9a-f]{64}$/);

    const fetched = (await provider.getTransaction(accessListHash))!;
    expect(fetched.type).toBe(1);
    expect(fetched.accessList!.map((e) => [e.address.toLowerCase(), e.storageKeys])).toEqual([
      [recipient, [`0x${'00'.repeat(32)}`]],
    ]);
    expect(fetched.blockNumber).toBe(accessListBlock);
    // ethers re-serialises the signed transaction from the fields: it must hash to the same hash.
    expect(Transaction.from(fetched).hash).toBe(accessListHash);

    const receipt = (await provider.getTransactionReceipt(createHash))!;
    expect(receipt.status).toBe(1);
    expect(receipt.to).toBeNull();
    expect(receipt.contractAddress!.toLowerCase()).toBe(contract);
    expect(receipt.logs).toHaveLength(1);
    expect(receipt.logs[0].topics).toEqual([CREATED_TOPIC]);
    expect(receipt.gasPrice).toBe(2n * GWEI);
  });

  it('balances, nonces, code and storage, now and at an older block', async () => {
    expect(await provider.getBalance(recipient, legacyBlock - 1)).toBe(0n);
    expect(await provider.getBalance(recipient, legacyBlock)).toBe(10n ** 18n);
    expect(await provider.getBalance(recipient)).toBe(3n * 10n ** 18n);
    expect(await provider.getTransactionCount(sender.address, legacyBlock)).toBe(1);
    expect(await provider.getTransactionCount(sender.address, 'pending')).toBe(4);
    expect(await provider.getCode(contract)).toBe(RUNTIME_CODE);
    expect(await provider.getCode(contract, contractBlock - 1)).toBe('0x');
    expect(BigInt(await provider.getStorage(contract, 0))).toBe(42n);
    expect(BigInt(await provider.getStorage(contract, 1))).toBe(1n);
  });
});

describe('blocks and uncles', () => {
  it('by hash and by number, with hashes or full transactions', async () => {
    const byNumber = (await client.eth_getBlockByNumber(q(legacyBlock) as `0x${string}`, false)) as Block;
    const byHash = (await client.eth_getBlockByHash(byNumber.hash, false)) as Block;
    expect(byHash).toEqual(byNumber);
    expect(byNumber.transactions).toEqual([legacyHash]);
    expect(byNumber.uncles).toEqual([]);
    expect(byNumber.checkpoint).toBeNull();
    expect(byNumber).not.toHaveProperty('lastCheckpointNumber');
    const parent = (await client.eth_getBlockByNumber(q(legacyBlock - 1) as `0x${string}`, false)) as Block;
    expect(byNumber.parentHash).toBe(parent.hash);
    expect(BigInt(byNumber.totalDifficulty)).toBe(BigInt(parent.totalDifficulty) + BigInt(byNumber.difficulty));

    const full = (await client.eth_getBlockByHash(byNumber.hash, true)) as Block;
    const [tx] = full.transactions as TxJson[];
    expect(tx).toEqual(await client.eth_getTransactionByHash(legacyHash as `0x${string}`));
    expect(tx).toMatchObject({
      type: '0x0',
      blockHash: byNumber.hash,
      blockNumber: q(legacyBlock),
      transactionIndex: '0x0',
      chainId: '0x539',
    });
    // size counts the encoded header (over 500 bytes) and the signed transaction.
    const raw = (await client.eth_getRawTransactionByHash(legacyHash as `0x${string}`))!;
    expect(Number(full.size)).toBeGreaterThan(500 + (raw.length - 2) / 2);
  });

  it('latest and earliest; pending is the next block built from the pool', async () => {
    const head = await client.eth_blockNumber();
    expect(((await client.eth_getBlockByNumber('latest', false)) as Block).number).toBe(head);
    expect(((await client.eth_getBlockByNumber('earliest', false)) as Block).number).toBe('0x0');
    const pending = (await client.eth_getBlockByNumber('pending', false)) as Block;
    expect(BigInt(pending.number)).toBe(BigInt(head) + 1n);
    expect(pending.nonce).toBe('0x0000000000000000');
  });

  it('transaction and uncle counts', async () => {
    const block = (await client.eth_getBlockByNumber(q(contractBlock) as `0x${string}`, false)) as Block;
    expect(await client.eth_getBlockTransactionCountByNumber(q(contractBlock) as `0x${string}`)).toBe('0x2');
    expect(await client.eth_getBlockTransactionCountByHash(block.hash)).toBe('0x2');
    expect(await client.eth_getUncleCountByBlockNumber(q(contractBlock) as `0x${string}`)).toBe('0x0');
    expect(await client.eth_getUncleCountByBlockHash(block.hash)).toBe('0x0');
    expect(await client.eth_getUncleByBlockHashAndIndex(block.hash, '0x0')).toBeNull();
    expect(await client.eth_getUncleByBlockNumberAndIndex(q(contractBlock) as `0x${string}`, '0x0')).toBeNull();
  });
});

describe('transactions and receipts', () => {
  it('by block and index, raw encodings', async () => {
    const block = (await client.eth_getBlockByNumber(q(contractBlock) as `0x${string}`, false)) as Block;
    const byIndex = await client.eth_getTransactionByBlockHashAndIndex(block.hash, '0x1');
    expect(byIndex).toEqual(
      await client.eth_getTransactionByBlockNumberAndIndex(q(contractBlock) as `0x${string}`, '0x1'),
    );
    expect(byIndex).toMatchObject({
      hash: callHash,
      to: contract,
      transactionIndex: '0x1',
      from: sender.address.toLowerCase(),
    });
    expect(await client.eth_getTransactionByHash(createHash as `0x${string}`)).toMatchObject({
      to: null,
      input: initCode(),
    });

    expect(await client.eth_getRawTransactionByHash(createHash as `0x${string}`)).toBe(createRaw);
    expect(await client.eth_getRawTransactionByBlockHashAndIndex(block.hash, '0x1')).toBe(callRaw);
    expect(await client.eth_getRawTransactionByBlockNumberAndIndex(q(contractBlock) as `0x${string}`, '0x0')).toBe(
      createRaw,
    );
    expect(keccak256(callRaw)).toBe(callHash);
    const typed = await client.eth_getRawTransactionByHash(accessListHash as `0x${string}`);
    expect(typed!.startsWith('0x01')).toBe(true);
    expect(keccak256(typed!)).toBe(accessListHash);
  });

  it('receipts: creation to null, status, logIndex across the block, block receipts', async () => {
    const create = (await client.eth_getTransactionReceipt(createHash as `0x${string}`)) as Receipt;
    const call = (await client.eth_getTransactionReceipt(callHash as `0x${string}`)) as Receipt;
    expect(create).toMatchObject({
      type: '0x0',
      to: null,
      contractAddress: contract,
      status: '0x1',
      effectiveGasPrice: q(2n * GWEI),
      transactionIndex: '0x0',
    });
    expect(call).toMatchObject({ to: contract, contractAddress: null, status: '0x1', transactionIndex: '0x1' });
    expect(BigInt(call.cumulativeGasUsed)).toBe(BigInt(create.gasUsed) + BigInt(call.gasUsed));
    expect(create.logs.map((l) => [l.logIndex, l.topics[0], l.transactionIndex])).toEqual([
      ['0x0', CREATED_TOPIC, '0x0'],
    ]);
    expect(call.logs.map((l) => [l.logIndex, l.topics[0], l.transactionIndex, l.removed])).toEqual([
      ['0x1', CALLED_TOPIC, '0x1', false],
    ]);
    expect(call.logs[0]).toMatchObject({
      address: contract,
      blockHash: call.blockHash,
      transactionHash: callHash,
      data: '0x',
    });

    expect(await client.eth_getBlockReceipts(q(contractBlock) as `0x${string}`)).toEqual([create, call]);
    expect(await client.eth_getBlockReceipts(create.blockHash)).toEqual([create, call]);
    const typed = (await client.eth_getTransactionReceipt(accessListHash as `0x${string}`)) as Receipt;
    expect(typed).toMatchObject({ type: '0x1', status: '0x1', logs: [] });
  });
});

describe('account state', () => {
  it('balance, nonce, code, storage and storage root at any block', async () => {
    expect(await client.eth_getBalance(recipient as `0x${string}`, q(legacyBlock) as `0x${string}`)).toBe(
      q(10n ** 18n),
    );
    expect(await client.eth_getBalance(recipient as `0x${string}`, 'earliest')).toBe('0x0');
    expect(await client.eth_getTransactionCount(sender.address as `0x${string}`, 'earliest')).toBe('0x0');
    expect(await client.eth_getTransactionCount(sender.address as `0x${string}`, 'latest')).toBe('0x4');
    expect(await client.eth_getCode(contract as `0x${string}`, 'latest')).toBe(RUNTIME_CODE);
    expect(await client.eth_getStorageAt(contract as `0x${string}`, '0x0', 'latest')).toBe(
      `0x${'2a'.padStart(64, '0')}`,
    );
    expect(await client.eth_getStorageAt(contract as `0x${string}`, `0x${'00'.repeat(31)}01`, 'latest')).toBe(
      `0x${'01'.padStart(64, '0')}`,
    );
    expect(await client.eth_getStorageRoot(recipient as `0x${string}`, 'latest')).toBe(
      '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    );
    const root = await client.eth_getStorageRoot(contract as `0x${string}`, 'latest');
    expect(root).not.toBe('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
  });

  it('eth_getProof verifies against the block stateRoot', async () => {
    const block = (await client.eth_getBlockByNumber(q(contractBlock) as `0x${string}`, false)) as Block;
    const proof = await client.eth_getProof(
      contract as `0x${string}`,
      ['0x0', `0x${'00'.repeat(31)}01`],
      q(contractBlock) as `0x${string}`,
    );
    expect(proof.storageHash).toBe(
      await client.eth_getStorageRoot(contract as `0x${string}`, q(contractBlock) as `0x${string}`),
    );

    const account = await verifyMPTWithMerkleProof(
      new MerklePatriciaTrie({ useKeyHashing: true }),
      bytes(block.stateRoot),
      bytes(contract),
      proof.accountProof.map(bytes),
    );
    const [nonce, balance, storageRoot, codeHash] = RLP.decode(account!) as Uint8Array[];
    expect(BigInt(`0x${Buffer.from(nonce).toString('hex') || '0'}`)).toBe(BigInt(proof.nonce));
    expect(BigInt(`0x${Buffer.from(balance).toString('hex') || '0'}`)).toBe(BigInt(proof.balance));
    expect(`0x${Buffer.from(storageRoot).toString('hex')}`).toBe(proof.storageHash);
    expect(`0x${Buffer.from(codeHash).toString('hex')}`).toBe(keccak256(RUNTIME_CODE));
    expect(proof.codeHash).toBe(keccak256(RUNTIME_CODE));

    expect(proof.storageProof.map((s) => [s.key, s.value])).toEqual([
      ['0x0', '0x2a'],
      [`0x${'00'.repeat(31)}01`, '0x1'],
    ]);
    for (const slot of proof.storageProof) {
      const value = await verifyMPTWithMerkleProof(
        new MerklePatriciaTrie({ useKeyHashing: true }),
        bytes(proof.storageHash),
        bytes(`0x${BigInt(slot.key).toString(16).padStart(64, '0')}`),
        slot.proof.map(bytes),
      );
      expect(BigInt(`0x${Buffer.from(RLP.decode(value!) as Uint8Array).toString('hex')}`)).toBe(BigInt(slot.value));
    }

    // A proof from an older block verifies against that block's root, and a tampered root refuses it.
    const older = (await client.eth_getBlockByNumber(q(legacyBlock) as `0x${string}`, false)) as Block;
    const recipientProof = await client.eth_getProof(recipient as `0x${string}`, [], q(legacyBlock) as `0x${string}`);
    expect(recipientProof.balance).toBe(q(10n ** 18n));
    const leaf = await verifyMPTWithMerkleProof(
      new MerklePatriciaTrie({ useKeyHashing: true }),
      bytes(older.stateRoot),
      bytes(recipient),
      recipientProof.accountProof.map(bytes),
    );
    expect(leaf).not.toBeNull();
    await expect(
      verifyMPTWithMerkleProof(
        new MerklePatriciaTrie({ useKeyHashing: true }),
        bytes(block.stateRoot),
        bytes(recipient),
        recipientProof.accountProof.map(bytes),
      ),
    ).rejects.toThrow();
  });
});

describe('unknown blocks and missing things', () => {
  it('state reads at an unknown block answer -32001 naming it', async () => {
    const address = sender.address;
    for (const [method, params] of [
      ['eth_getBalance', [address, '0xffffff']],
      ['eth_getTransactionCount', [address, '0xffffff']],
      ['eth_getCode', [address, '0xffffff']],
      ['eth_getStorageAt', [address, '0x0', '0xffffff']],
      ['eth_getStorageRoot', [address, '0xffffff']],
      ['eth_getProof', [address, [], '0xffffff']],
    ] as const) {
      expect((await rpc(node.url, method, [...params])).error, method).toEqual({
        code: -32001,
        message: 'Block 0xffffff not found',
      });
    }
  });

  it('lookups of unknown things return null', async () => {
    expect(await client.eth_getBlockByNumber('0xffffff', true)).toBeNull();
    expect(await client.eth_getBlockByHash(UNKNOWN_HASH as `0x${string}`, false)).toBeNull();
    expect(await client.eth_getBlockTransactionCountByHash(UNKNOWN_HASH as `0x${string}`)).toBeNull();
    expect(await client.eth_getBlockTransactionCountByNumber('0xffffff')).toBeNull();
    expect(await client.eth_getUncleCountByBlockHash(UNKNOWN_HASH as `0x${string}`)).toBeNull();
    expect(await client.eth_getUncleCountByBlockNumber('0xffffff')).toBeNull();
    expect(await client.eth_getUncleByBlockHashAndIndex(UNKNOWN_HASH as `0x${string}`, '0x0')).toBeNull();
    expect(await client.eth_getTransactionByHash(UNKNOWN_HASH as `0x${string}`)).toBeNull();
    expect(await client.eth_getTransactionByBlockNumberAndIndex(q(legacyBlock) as `0x${string}`, '0x5')).toBeNull();
    expect(await client.eth_getTransactionByBlockHashAndIndex(UNKNOWN_HASH as `0x${string}`, '0x0')).toBeNull();
    expect(await client.eth_getTransactionByBlockNumberAndIndex('0xffffff', '0x0')).toBeNull();
    expect(await client.eth_getRawTransactionByHash(UNKNOWN_HASH as `0x${string}`)).toBeNull();
    expect(await client.eth_getRawTransactionByBlockNumberAndIndex(q(legacyBlock) as `0x${string}`, '0x1')).toBeNull();
    expect(await client.eth_getRawTransactionByBlockHashAndIndex(UNKNOWN_HASH as `0x${string}`, '0x0')).toBeNull();
    expect(await client.eth_getTransactionReceipt(UNKNOWN_HASH as `0x${string}`)).toBeNull();
    expect(await client.eth_getBlockReceipts(UNKNOWN_HASH as `0x${string}`)).toBeNull();
    expect(await client.eth_getBlockReceipts('0xffffff')).toBeNull();
  });
});

describe('node facts', () => {
  it('gas price suggestion, syncing, protocol version, accounts, peers', async () => {
    // Every transaction in the last 20 blocks paid 2 gwei: the median.
    expect(await client.eth_gasPrice()).toBe(q(2n * GWEI));
    expect(await client.eth_syncing()).toBe(false);
    expect(await client.eth_protocolVersion()).toBe('0x44');
    expect(await client.eth_accounts()).toContain(sender.address.toLowerCase());
    expect(await client.net_peerCount()).toBe('0x0');
  });
});
