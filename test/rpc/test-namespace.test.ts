/**
 * The retesteth interface over HTTP against a real node process in test mode: chain replacement with either params
 * dialect, raw block import (valid, invalid, Ethash-sealed), mining at a set time, rewind, log hash, etherbase,
 * and the state dumps read from the state trie. Block data comes from the BlockchainTests vector SimpleTx.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openrpc from '../../openrpc.json' with { type: 'json' };
import { keccak256 } from '../../src/chain/base/crypto.js';
import { crc32 } from '../../src/chain/rules/fork-id.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

const ZERO32 = `0x${'00'.repeat(32)}`;
const ONE32 = `0x${'00'.repeat(31)}01`;
const EMPTY_LIST_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';

// BlockchainTests/legacy-constantinople/ValidBlocks/bcValidBlockTest/SimpleTx.json, case SimpleTx_Byzantium.
const SENDER = '0xa94f5374fce5edbc8e2a8697c15331677e6ebf0b';
const RECIPIENT = '0x095e7baea6a6c7c4c2dfeb977efac326af552d87';
const COINBASE = '0x8888f1f195afa192cfee860698584c030f4c9db1';
const GENESIS = {
  author: COINBASE,
  difficulty: '0x020000',
  gasLimit: '0x2fefd8',
  extraData: '0x42',
  timestamp: '0x54c98c81',
  nonce: '0x0102030405060708',
  mixHash: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
};
const GENESIS_HASH = '0x7285abd5b24742f184ad676e31f6054663b3529bc35ea2fcad8a3e0f642a46f7';
const PRE = { [SENDER]: { balance: '0x02540be400', code: '0x', nonce: '0x00', storage: {} } };
/** The block's RLP, as the openrpc.json example of test_importRawBlock carries it (copied from the vector). */
const BLOCK_1: string = (
  openrpc as { methods: Array<{ name: string; examples: Array<{ params: Array<{ value: string }> }> }> }
).methods.find((m) => m.name === 'test_importRawBlock')!.examples[0].params[0].value;
const BLOCK_1_HASH = '0x4b7af50a5b68d957bf8774954c468b9d69cde26a6570d22e01376a4e0467a85a';

const hashOf = (hex: string) => `0x${Buffer.from(keccak256(Buffer.from(hex.slice(2), 'hex'))).toString('hex')}`;

let node: NodeProcess;

async function call(
  method: string,
  params: unknown[],
): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const res = await post(node.url, request(method, params));
  return res.body;
}

async function ok(method: string, params: unknown[]): Promise<any> {
  const body = await call(method, params);
  if (body.error !== undefined) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return body.result;
}

const chain = (params: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  genesis: GENESIS,
  params,
  accounts: PRE,
  ...extra,
});

beforeAll(async () => {
  node = await startNode({ args: ['--testmode', '--network', 'dev'] });
}, 60_000);
afterAll(async () => node?.stop());

describe('test_setChainParams', () => {
  it('builds the vector genesis from the fork-name dialect (hash covers the state root of the pre-state)', async () => {
    expect(await ok('test_setChainParams', [chain({ fork: 'Byzantium', chainID: '0x01' })])).toBe(true);
    expect((await ok('eth_getBlockByNumber', ['0x0', false])).hash).toBe(GENESIS_HASH);
  });

  it('accepts the classic dialect with the same result', async () => {
    const params = {
      homesteadForkBlock: '0x00',
      EIP150ForkBlock: '0x00',
      EIP158ForkBlock: '0x00',
      byzantiumForkBlock: 0,
      chainID: '1',
    };
    expect(await ok('test_setChainParams', [chain(params)])).toBe(true);
    expect((await ok('eth_getBlockByNumber', ['0x0', false])).hash).toBe(GENESIS_HASH);
  });

  it("eth_config reports the installed chain: its chain id, Byzantium's precompiles, fork ids from its genesis", async () => {
    await ok('test_setChainParams', [chain({ fork: 'Byzantium', chainID: '0x01' })]);
    const config = await ok('eth_config', []);
    expect(config.current.chainId).toBe('0x1');
    expect(config.current.activationBlock).toBe(0);
    // Every fork at block 0: the fork hash is the CRC32 of the genesis hash alone (EIP-2124).
    const crc = crc32(Buffer.from(GENESIS_HASH.slice(2), 'hex'))
      .toString(16)
      .padStart(8, '0');
    expect(config.current.forkId).toBe(`0x${crc}`);
    expect(Object.keys(config.current.precompiles)).toEqual([
      'ECREC',
      'SHA256',
      'RIPEMD160',
      'ID',
      'MODEXP',
      'BN256_ADD',
      'BN256_MUL',
      'BN256_PAIRING',
    ]);
    expect([config.next, config.last]).toEqual([null, null]);
  });

  it('refuses unknown forks and forks after Berlin with -32602', async () => {
    const unknown = await call('test_setChainParams', [chain({ fork: 'Atlantis2' })]);
    expect(unknown.error?.code).toBe(-32602);
    expect(unknown.error?.message).toContain('unknown fork name Atlantis2');
    const london = await call('test_setChainParams', [chain({ fork: 'London' })]);
    expect(london.error?.code).toBe(-32602);
    expect(london.error?.message).toContain('London');
  });
});

describe('test_setChainParams with ETC_Bastion', () => {
  // TSTORE(0, 0x2a); TLOAD(0) → mem[0]; MCOPY(0x20 ← 0, 32); CLZ(mload(0x20)) → returned: 250 (0x2a has 6 bits).
  const CONTRACT = '0x00000000000000000000000000000000000b1a57';
  const code = '0x602a60005d60005c6000526020600060205e6020511e8060005560005260206000f3';
  // EIP-2537's first G1ADD vector (bls_g1add_g1+p1), from the copy of the EIP's assets.
  const G1ADD = (
    JSON.parse(
      readFileSync(join(import.meta.dirname, '../fixtures/bastion/eip-2537/add_G1_bls.json'), 'utf8'),
    ) as Array<{
      Input: string;
      Expected: string;
    }>
  )[0]!;
  const withCode = { ...PRE, [CONTRACT]: { balance: '0x00', code, nonce: '0x00', storage: {} } };
  const ethCall = (to: string, data = '0x') => call('eth_call', [{ to, data, gas: '0x100000' }, 'latest']);

  it('runs TSTORE/TLOAD, MCOPY and CLZ under ETC_Bastion and refuses them under ETC_Spiral', async () => {
    expect(
      await ok('test_setChainParams', [chain({ fork: 'ETC_Spiral', chainID: '0x01' }, { accounts: withCode })]),
    ).toBe(true);
    expect((await ethCall(CONTRACT)).error?.message).toMatch(/invalid opcode/);
    expect(
      await ok('test_setChainParams', [chain({ fork: 'ETC_Bastion', chainID: '0x01' }, { accounts: withCode })]),
    ).toBe(true);
    expect((await ethCall(CONTRACT)).result).toBe(`0x${'0'.repeat(62)}fa`);
  });

  it('answers BLS12-381 G1ADD at 0x0b under ETC_Bastion only', async () => {
    const g1add = `0x${'00'.repeat(19)}0b`;
    expect(await ok('test_setChainParams', [chain({ fork: 'ETC_Spiral', chainID: '0x01' })])).toBe(true);
    expect(await ethCall(g1add, `0x${G1ADD.Input}`)).toMatchObject({ result: '0x' });
    expect(await ok('test_setChainParams', [chain({ fork: 'ETC_Bastion', chainID: '0x01' })])).toBe(true);
    expect((await ethCall(g1add, `0x${G1ADD.Input}`)).result).toBe(`0x${G1ADD.Expected}`);
  });
});

describe('test_importRawBlock', () => {
  beforeAll(async () => {
    await ok('test_setChainParams', [chain({ fork: 'Byzantium', chainID: '0x01' })]);
  });

  it('imports a valid block, returns its hash and pays the Byzantium reward (3 ETH + fee)', async () => {
    expect(await ok('test_importRawBlock', [BLOCK_1])).toBe(BLOCK_1_HASH);
    expect((await ok('eth_getBlockByNumber', ['latest', false])).hash).toBe(BLOCK_1_HASH);
    expect(BigInt(await ok('eth_getBalance', [COINBASE, '0x1']))).toBe(0x29a2241af62f3450n);
    expect(BigInt(await ok('eth_getBalance', [RECIPIENT, '0x1']))).toBe(10n);
  });

  it('rejects a block whose state root is wrong, with the reason, and keeps the head', async () => {
    await ok('test_rewindToBlock', [0]);
    // Flip one nibble of the header's state root (it starts 45 bytes into the RLP).
    const at = 2 + 2 * (3 + 3 + 33 + 33 + 21 + 1) + 2;
    const bad = BLOCK_1.slice(0, at) + (BLOCK_1[at] === 'e' ? 'f' : 'e') + BLOCK_1.slice(at + 1);
    const res = await call('test_importRawBlock', [bad]);
    expect(res.error?.code).toBe(-32000);
    expect(res.error?.message).toMatch(/^Block validation failed: .*stateRoot/);
    expect((await ok('eth_getBlockByNumber', ['latest', false])).hash).toBe(GENESIS_HASH);
  });

  it('answers -32602 for bytes that are not RLP', async () => {
    const res = await call('test_importRawBlock', ['0xf9ffff00']);
    expect(res.error?.code).toBe(-32602);
  });

  it('checks the real Ethash seal when sealEngine is Ethash (the vector block carries no valid proof of work)', async () => {
    await ok('test_setChainParams', [chain({ fork: 'Byzantium', chainID: '0x01' }, { sealEngine: 'Ethash' })]);
    const res = await call('test_importRawBlock', [BLOCK_1]);
    expect(res.error?.code).toBe(-32000);
    expect(res.error?.message).toMatch(/Block validation failed/);
  }, 60_000);
});

describe('state dumps read the state trie', () => {
  beforeAll(async () => {
    await ok('test_setChainParams', [chain({ fork: 'Byzantium', chainID: '0x01' })]);
    await ok('test_importRawBlock', [BLOCK_1]);
  });

  it('debug_accountRange lists every account of the block state by keccak256(address), in trie order', async () => {
    const page = await ok('debug_accountRange', ['1', 0, ONE32, 10]);
    const expected = [SENDER, RECIPIENT, COINBASE]
      .map((a) => [hashOf(a), a] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    expect(Object.entries(page.addressMap)).toEqual(expected);
    expect(page.nextKey).toBe(ZERO32);
    // Genesis (block given as hex with a leading zero) holds only the sender.
    expect(Object.values((await ok('debug_accountRange', ['0x00', 0, ZERO32, 10])).addressMap)).toEqual([SENDER]);
  });

  it('pages with nextKey and ends on the zero key', async () => {
    const seen: string[] = [];
    let start = ZERO32;
    for (let i = 0; i < 5; i++) {
      const page = await ok('debug_accountRange', [1, 0, start, 1]);
      seen.push(...Object.keys(page.addressMap));
      if (page.nextKey === ZERO32) break;
      start = page.nextKey;
    }
    expect(seen).toEqual([SENDER, RECIPIENT, COINBASE].map(hashOf).sort());
  });

  it('an unknown block is -32001', async () => {
    expect((await call('debug_accountRange', ['99', 0, ZERO32, 10])).error?.code).toBe(-32001);
  });

  // Found by the fuzzer (npm run fuzz): these passed the TestQuantity schema but the parser refused them, and
  // the handler let that through as a -32603 fault.
  it('a quantity the schema admits but no page size or block can be is -32602 naming the param', async () => {
    const cases: Array<[string, unknown[], RegExp]> = [
      ['debug_accountRange', ['1', 0, ONE32, '0x8000000000000000'], /maxResults.*too large/],
      ['debug_accountRange', ['1', 0, ONE32, 2 ** 53 + 2], /maxResults.*not a non-negative integer/],
      ['debug_storageRangeAt', ['1', 0, SENDER, ZERO32, '0x' + 'f'.repeat(40)], /maxResults.*too large/],
      ['debug_accountRange', [1e300, 0, ONE32, 1], /block.*not a non-negative integer/],
      ['test_mineBlocks', ['0x' + 'f'.repeat(20)], /count.*too large/],
      ['test_rewindToBlock', [2 ** 60], /blockNumber.*not a non-negative integer/],
    ];
    for (const [method, params, message] of cases) {
      const error = (await call(method, params)).error;
      expect(error?.code, method).toBe(-32602);
      expect(error?.message).toMatch(message);
    }
  });

  it('debug_storageRangeAt pages through storage, keyed by keccak256(slot), zero values absent', async () => {
    const contract = '0x1000000000000000000000000000000000000001';
    const storage = { '0x00': '0x01', '0x01': '0x00', '0x02': '0xff', '0x0100': '0x0a' };
    const accounts = { ...PRE, [contract]: { balance: '0', code: '0x6000', nonce: '1', storage } };
    await ok('test_setChainParams', [{ genesis: GENESIS, params: { fork: 'Berlin' }, accounts }]);
    const all = await ok('debug_storageRangeAt', ['0', 0, contract, ZERO32, 20]);
    expect(all.complete).toBe(true);
    expect(all.nextKey).toBeNull();
    const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
    const expected = Object.fromEntries(
      [
        [0, 1],
        [2, 0xff],
        [0x100, 0x0a],
      ].map(([k, v]) => [hashOf(word(k)), { key: word(k), value: word(v) }]),
    );
    expect(all.storage).toEqual(expected);
    const first = await ok('debug_storageRangeAt', ['0x0', 0, contract, ZERO32, 1]);
    expect(first.complete).toBe(false);
    expect(Object.keys(first.storage)).toHaveLength(1);
    const rest = await ok('debug_storageRangeAt', ['0x0', 0, contract, first.nextKey, 20]);
    expect({ ...first.storage, ...rest.storage }).toEqual(expected);
  });
});

describe('mining, time, rewind, etherbase and log hash', () => {
  it('mines at the test_modifyTimestamp time, +1 s per block, paying the etherbase the Frontier reward', async () => {
    await ok('test_setChainParams', [chain({ fork: 'Frontier' })]);
    expect(await ok('test_modifyTimestamp', [0x54c98c81 + 100])).toBe(true);
    expect(await ok('test_mineBlocks', ['2'])).toBe(true);
    const one = await ok('eth_getBlockByNumber', ['0x1', false]);
    const two = await ok('eth_getBlockByNumber', ['0x2', false]);
    expect(BigInt(one.timestamp)).toBe(BigInt(0x54c98c81 + 100));
    expect(BigInt(two.timestamp)).toBe(BigInt(0x54c98c81 + 101));
    expect(one.miner).toBe(COINBASE);
    expect(BigInt(await ok('eth_getBalance', [COINBASE, 'latest']))).toBe(10n * 10n ** 18n);

    const other = '0x1111111111111111111111111111111111111111';
    expect(await ok('miner_setEtherbase', [other])).toBe(true);
    await ok('test_mineBlocks', [1]);
    expect((await ok('eth_getBlockByNumber', ['latest', false])).miner).toBe(other);
  });

  it('test_rewindToBlock moves the head back; beyond the head is -32001', async () => {
    expect(await ok('test_rewindToBlock', ['0x01'])).toBe(true);
    expect((await ok('eth_getBlockByNumber', ['latest', false])).number).toBe('0x1');
    expect((await call('test_rewindToBlock', [50])).error?.code).toBe(-32001);
  });

  it('test_getLogHash of an unknown transaction is the empty-list hash', async () => {
    expect(await ok('test_getLogHash', [`0x${'ab'.repeat(32)}`])).toBe(EMPTY_LIST_HASH);
  });

  it('test_getLogHash of a transfer without logs is the empty-list hash', async () => {
    await ok('test_setChainParams', [chain({ fork: 'Byzantium', chainID: '0x01' })]);
    await ok('test_importRawBlock', [BLOCK_1]);
    const block = await ok('eth_getBlockByNumber', ['0x1', false]);
    expect(await ok('test_getLogHash', [block.transactions[0]])).toBe(EMPTY_LIST_HASH);
  });
});

describe('without --testmode', () => {
  it('the test namespace is not served', async () => {
    const plain = await startNode({ args: ['--network', 'dev'] });
    try {
      const res = await post(plain.url, request('test_setChainParams', [chain({ fork: 'Berlin' })]));
      expect(res.body.error).toBeDefined();
      expect(res.body.result).toBeUndefined();
    } finally {
      await plain.stop();
    }
  }, 60_000);
});
