/**
 * The external-miner API against a node started with its miner off: eth_getWork → solve with the pow module
 * in this process → eth_submitWork true and the head advances; wrong nonces, mix digests and stale work are
 * refused. Also the miner status, control and hash-rate methods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../../src/chain/networks/devAccounts.js';
import { getNetwork } from '../../../src/chain/networks/index.js';
import { Ethash } from '../../../src/chain/pow/index.js';
import { createClient, httpTransport, type RpcClient } from '../../../clients/typescript/src/client.js';
import { persistentCacheDir } from '../../chain/pow/helpers.js';
import { startNode, type NodeProcess } from '../../helpers/node-process.js';
import { asHex } from '../contracts.js';

let node: NodeProcess;
let client: RpcClient;
let ethash: Ethash;
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}` as const;

beforeAll(async () => {
  const dev = getNetwork('dev');
  [node, ethash] = await Promise.all([
    // The external-miner API needs a proof-of-work chain: the dev default is instant-seal.
    startNode({ args: ['--seal', 'ethash'], env: { SVC_NODE_MINING_MINING_ENABLED: 'false' } }),
    Ethash.create({
      params: dev.pow.ecip1099Block == null ? {} : { ecip1099Block: dev.pow.ecip1099Block },
      cacheDir: persistentCacheDir,
    }),
  ]);
  client = createClient(httpTransport(node.url));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await node?.stop();
});

describe('external mining: getWork → solve → submitWork', () => {
  it('starts idle, with the first dev account as coinbase', async () => {
    expect(await client.eth_mining()).toBe(false);
    expect(await client.miner_getStatus()).toEqual({
      isMining: false,
      coinbase: DEV_ACCOUNTS[0]!.address.toLowerCase(),
      hashRate: '0x0',
      blocksMinedCount: '0x0',
    });
    expect(await client.eth_coinbase()).toBe(DEV_ACCOUNTS[0]!.address.toLowerCase());
  });

  it('seals the block of a solved package and refuses wrong seals and stale work', async () => {
    const number = BigInt(await client.eth_blockNumber()) + 1n;
    const [powHash, seedHash, boundary] = await client.eth_getWork();
    expect(seedHash).toBe(hex(ethash.seedHash(number)));
    expect(await client.eth_mining()).toBe(true); // an external miner is active now
    const difficulty = 2n ** 256n / BigInt(boundary);
    const seal = await ethash.mine(Buffer.from(powHash.slice(2), 'hex'), difficulty, number, 0n, 10_000);
    expect(seal).toBeDefined();
    const nonce = hex(seal!.nonce);
    const mixDigest = hex(seal!.mixDigest);

    expect(await client.eth_submitWork(nonce, powHash, `0x${'00'.repeat(32)}` as const)).toBe(false); // wrong mix digest
    const otherNonce: `0x${string}` = `0x${(BigInt(nonce) ^ 1n).toString(16).padStart(16, '0')}`;
    expect(await client.eth_submitWork(otherNonce, powHash, mixDigest)).toBe(false); // the mix digest is another nonce's
    expect(await client.eth_blockNumber()).toBe(`0x${(number - 1n).toString(16)}`);

    expect(await client.eth_submitWork(nonce, powHash, mixDigest)).toBe(true);
    const head = await client.eth_getBlockByNumber('latest', false);
    expect(head).toMatchObject({
      number: `0x${number.toString(16)}`,
      nonce,
      mixHash: mixDigest,
      miner: DEV_ACCOUNTS[0]!.address.toLowerCase(),
    });
    expect(await client.eth_submitWork(nonce, powHash, mixDigest)).toBe(false); // stale: the head moved on
    expect((await client.miner_getStatus()).blocksMinedCount).toBe('0x1');
    expect((await client.eth_getWork())[0]).not.toBe(powHash);
  });

  it('sums reported hash rates', async () => {
    expect(await client.eth_submitHashrate('0x500', `0x${'11'.repeat(32)}`)).toBe(true);
    expect(await client.eth_submitHashrate(`0x${'00'.repeat(31)}20`, `0x${'22'.repeat(32)}`)).toBe(true);
    expect(await client.eth_hashrate()).toBe('0x520');
  });

  it('starts and stops the internal miner', async () => {
    expect(await client.miner_start()).toBe(true);
    expect((await client.miner_getStatus()).isMining).toBe(true);
    const before = BigInt(await client.eth_blockNumber());
    const hash = await client.eth_sendTransaction({
      from: asHex(DEV_ACCOUNTS[1]!.address),
      to: asHex(DEV_ACCOUNTS[2]!.address),
      value: '0x1',
    });
    expect((await client.eth_getTransactionReceipt(hash))?.blockNumber).toBe(`0x${(before + 1n).toString(16)}`);
    expect(await client.miner_stop()).toBe(true);
  });

  it('mines on demand with qa_mineBlocks', async () => {
    const before = BigInt(await client.eth_blockNumber());
    expect(await client.qa_mineBlocks(3)).toEqual({ responseType: 'MiningOrdered', message: null });
    expect(BigInt(await client.eth_blockNumber())).toBe(before + 3n);
    await expect(client.qa_mineBlocks(1, true, `0x${'ab'.repeat(32)}`)).rejects.toMatchObject({ code: -32001 });
  });
});
