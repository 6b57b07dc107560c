import * as zlib from 'node:zlib';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { dev, etc, mordor } from '../../src/chain/networks/index.js';
import { genesisBlockOf } from '../../src/chain/genesis/header.js';
import { crc32, crc32Portable, forkBlocksOf, ForkIdTable, type ForkId } from '../../src/p2p/fork-id.js';

// Genesis hashes: reference §1.3.
const ETC_GENESIS = hexToBytes('0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3');
const MORDOR_GENESIS = hexToBytes('0xa68ebde7932eccb177d38d55dcc6461a019dd795a681e59b5a3e4f3a7259a3f1');

const id = (hash: number, next: bigint | number): ForkId => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, hash);
  return { hash: bytes, next: BigInt(next) };
};
const show = (f: ForkId) => `${bytesToHex(f.hash).slice(2)}/${f.next}`;

describe('CRC32', () => {
  const samples = [
    new Uint8Array(0),
    new TextEncoder().encode('123456789'),
    ETC_GENESIS,
    hexToBytes('0x00000000001193d0'),
  ];

  it('portable table matches the published check value and zlib', () => {
    // The IEEE CRC32 check value of "123456789".
    expect(crc32Portable(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    for (const data of samples) expect(crc32Portable(data)).toBe(crc32(data));
    const native = (zlib as { crc32?: (d: Uint8Array, v?: number) => number }).crc32;
    if (native !== undefined) for (const data of samples) expect(crc32Portable(data)).toBe(native(data) >>> 0);
  });

  it('continuing from a previous value equals hashing the concatenation, in both implementations', () => {
    const a = ETC_GENESIS;
    const b = hexToBytes('0x00000000001193d0');
    const joined = new Uint8Array([...a, ...b]);
    expect(crc32(b, crc32(a))).toBe(crc32(joined));
    expect(crc32Portable(b, crc32Portable(a))).toBe(crc32Portable(joined));
    expect(crc32(b, crc32(a))).toBe(crc32Portable(joined));
  });
});

describe('forkBlocksOf', () => {
  it('lists every ETC mainnet activation block, sorted, without the DAO block or era boundaries', () => {
    expect(forkBlocksOf(etc)).toEqual(
      [
        1_150_000, 2_500_000, 3_000_000, 5_000_000, 5_900_000, 8_772_000, 9_573_000, 10_500_839, 11_700_000, 13_189_133,
        14_525_000, 19_250_000,
      ].map(BigInt),
    );
  });

  it('drops forks at block 0 and duplicates', () => {
    expect(forkBlocksOf(mordor)).toEqual([301_243n, 999_983n, 2_520_000n, 3_985_893n, 5_520_000n, 9_957_000n]);
    expect(forkBlocksOf(dev)).toEqual([]);
    const dup = { ...dev, forks: { ...dev.forks, magneto: 10n, mystique: 10n, spiral: null } };
    expect(forkBlocksOf(dup)).toEqual([10n]);
  });
});

describe('ETC fork ids (reference §1.4)', () => {
  // [head ≥, hash, next]
  const etcRows: Array<[number, number, number]> = [
    [0, 0xfc64ec04, 1150000],
    [1150000, 0x97c2c34c, 2500000],
    [2500000, 0xdb06803f, 3000000],
    [3000000, 0xaff4bed4, 5000000],
    [5000000, 0xf79a63c0, 5900000],
    [5900000, 0x744899d6, 8772000],
    [8772000, 0x518b59c6, 9573000],
    [9573000, 0x7ba22882, 10500839],
    [10500839, 0x9007bfcc, 11700000],
    [11700000, 0xdb63a1ca, 13189133],
    [13189133, 0x0f6bf187, 14525000],
    [14525000, 0x7fd1bb25, 19250000],
    [19250000, 0xbe46d57c, 0],
  ];
  const mordorRows: Array<[number, number, number]> = [
    [0, 0x175782aa, 301243],
    [301243, 0x604f6ee1, 999983],
    [999983, 0xf42f5539, 2520000],
    [2520000, 0x66b5c286, 3985893],
    [3985893, 0x92b323e0, 5520000],
    [5520000, 0x8c9b1797, 9957000],
    [9957000, 0x3a6b00d7, 0],
  ];

  const cases = [
    { name: 'etc', def: etc, genesis: ETC_GENESIS, rows: etcRows },
    { name: 'mordor', def: mordor, genesis: MORDOR_GENESIS, rows: mordorRows },
  ];

  for (const { name, def, genesis, rows } of cases) {
    it(`${name}: every row, at its first block and at the block before the next one`, () => {
      expect(bytesToHex(def.genesis.expectedHash!)).toBe(bytesToHex(genesis));
      const table = new ForkIdTable(genesis, forkBlocksOf(def));
      for (const [i, [from, hash, next]] of rows.entries()) {
        expect(show(table.at(BigInt(from)))).toBe(show(id(hash, next)));
        if (i > 0) expect(show(table.at(BigInt(from) - 1n))).toBe(show(id(rows[i - 1]![1], rows[i - 1]![2])));
        // Every published id is accepted by a node anywhere on the same chain (rules 1–3).
        expect(table.check(BigInt(from), id(hash, next))).toBe(true);
      }
      // Far past the last fork the last row still holds.
      const [, lastHash] = rows[rows.length - 1]!;
      expect(show(table.at(100_000_000n))).toBe(show(id(lastHash, 0)));
    });
  }

  it('the wire example of §1.4 matches mainnet block 0', () => {
    const table = new ForkIdTable(ETC_GENESIS, forkBlocksOf(etc));
    expect(table.at(0n)).toEqual({ hash: hexToBytes('0xfc64ec04'), next: 1_150_000n });
  });

  it('an ETC node rejects ETH mainnet after the DAO fork, and ETH after Homestead-era forks diverge', () => {
    const table = new ForkIdTable(ETC_GENESIS, forkBlocksOf(etc));
    // ETH at the DAO block: 0x91d1f948/2463000 (EIP-2124 table) is not an ETC hash.
    expect(table.check(20_000_000n, id(0x91d1f948, 2463000))).toMatch(/local incompatible/);
    // ETH before the DAO fork announces 1920000 as its next fork, which ETC never had: remote is "stale".
    expect(table.check(20_000_000n, id(0x97c2c34c, 1920000))).toMatch(/remote needs update/);
  });
});

describe('dev chain (all forks at block 0)', () => {
  it('is CRC32(genesis hash) with next 0 at every head', async () => {
    const { hash } = await genesisBlockOf(dev);
    const table = new ForkIdTable(hash, forkBlocksOf(dev));
    const expected = id(crc32Portable(hash), 0);
    expect(show(table.at(0n))).toBe(show(expected));
    expect(show(table.at(123_456n))).toBe(show(expected));
    expect(table.check(5n, expected)).toBe(true);
    // Another dev chain (different genesis) is refused.
    expect(table.check(5n, id(crc32Portable(hash) ^ 1, 0))).toMatch(/local incompatible/);
  });
});

/**
 * EIP-2124's published vectors for Ethereum mainnet with the Petersburg cap, computed here from a hand-built fork
 * list (Homestead, DAO, Tangerine, Spurious ×2, Byzantium, Constantinople + Petersburg).
 */
describe('EIP-2124 published vectors (ETH mainnet, Petersburg cap)', () => {
  const ethForks = [1150000n, 1920000n, 2463000n, 2675000n, 2675000n, 4370000n, 7280000n, 7280000n];
  const table = new ForkIdTable(ETC_GENESIS, ethForks);

  it('ids', () => {
    const rows: Array<[number, number, number]> = [
      [0, 0xfc64ec04, 1150000],
      [1149999, 0xfc64ec04, 1150000],
      [1150000, 0x97c2c34c, 1920000],
      [1919999, 0x97c2c34c, 1920000],
      [1920000, 0x91d1f948, 2463000],
      [2462999, 0x91d1f948, 2463000],
      [2463000, 0x7a64da13, 2675000],
      [2674999, 0x7a64da13, 2675000],
      [2675000, 0x3edd5b10, 4370000],
      [4369999, 0x3edd5b10, 4370000],
      [4370000, 0xa00bc324, 7280000],
      [7279999, 0xa00bc324, 7280000],
      [7280000, 0x668db0af, 0],
      [7987396, 0x668db0af, 0],
    ];
    for (const [head, hash, next] of rows)
      expect(show(table.at(BigInt(head))), `head ${head}`).toBe(show(id(hash, next)));
  });

  const MAX_U64 = 2n ** 64n - 1n;
  // [local head, remote hash, remote next, accepted?, reason pattern]
  const rules: Array<[number, number, bigint, true | RegExp, string]> = [
    [7987396, 0x668db0af, 0n, true, 'rule 1: same state, no next fork'],
    [7987396, 0x668db0af, MAX_U64, true, 'rule 1: same state, remote announces an uncertain future fork'],
    [7279999, 0xa00bc324, 0n, true, 'rule 1: both Byzantium, remote unaware of Petersburg'],
    [7279999, 0xa00bc324, 7280000n, true, 'rule 1: both Byzantium, both aware of Petersburg'],
    [7279999, 0xa00bc324, MAX_U64, true, 'rule 1: both Byzantium, remote announces a different future fork'],
    // The EIP text prints 0x668db0af here, a typo: geth, Nethermind and nimbus test 0xa00bc324 (Byzantium).
    [7987396, 0xa00bc324, 7280000n, true, 'rule 2: remote in Byzantium knows Petersburg, remote syncing'],
    [7280000, 0xa00bc324, 7280000n, true, 'rule 2: local exactly on Petersburg, remote one fork behind'],
    [7987396, 0x3edd5b10, 4370000n, true, 'rule 2: remote in Spurious knows Byzantium, remote syncing'],
    [7279999, 0x668db0af, 0n, true, 'rule 3: remote in Petersburg, local syncing'],
    [4369999, 0xa00bc324, 0n, true, 'rule 3: local in Spurious, remote in Byzantium'],
    [7987396, 0xa00bc324, 0n, /^remote needs update/, 'remote stale: Byzantium without knowledge of Petersburg'],
    [7987396, 0x5cddc0e1, 0n, /^local incompatible or needs update/, 'remote has a fork we do not know'],
    [7279999, 0x5cddc0e1, 0n, /^local incompatible or needs update/, 'remote has a fork we do not know, local behind'],
    [7987396, 0xafec6b27, 0n, /^local incompatible or needs update/, 'Rinkeby Petersburg'],
    [
      88888888,
      0x668db0af,
      88888888n,
      /^local incompatible or needs update/,
      'remote announces a fork our chain passed without',
    ],
    [
      7279999,
      0xa00bc324,
      7279999n,
      /^local incompatible or needs update/,
      'remote announces a fork at our head we do not have',
    ],
  ];
  for (const [head, hash, next, want, label] of rules) {
    it(label, () => {
      const got = table.check(BigInt(head), id(hash, next));
      if (want === true) expect(got).toBe(true);
      else expect(got).toMatch(want);
    });
  }

  it('names the peer id and our own in a rejection, and refuses a hash that is not 4 bytes', () => {
    expect(table.check(7987396n, id(0xafec6b27, 0))).toContain('afec6b27/0');
    expect(table.check(7987396n, id(0xafec6b27, 0))).toContain('668db0af/0');
    expect(table.check(7987396n, { hash: new Uint8Array(3), next: 0n })).toMatch(/4 bytes/);
  });

  it('answers from precomputed hashes (a returned id cannot alter the table)', () => {
    const first = table.at(0n);
    first.hash.fill(0);
    expect(show(table.at(0n))).toBe(show(id(0xfc64ec04, 1150000)));
  });
});
