/**
 * The ECIP-1097 header codec: 15-field headers decode, re-encode and hash exactly as before (real ETC and Mordor
 * headers), with or without checkpointing; 16-field headers (`[]` or `[[ [r,s,v], … ]]`) round-trip byte for byte,
 * their hash and seal hash cover the 16th field, and malformed or unexpected 16th fields are refused.
 */
import type { BlockHeader, BlockHeaderBytes } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes, KECCAK256_RLP, KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { BlockCodec } from '../../../src/chain/codec/block-codec.js';
import {
  buildCheckpointBlock,
  checkpointOf,
  Ecip1097Header,
  hasCheckpointField,
  signatureToBytes,
  signCheckpoint,
  type CheckpointSignature,
} from '../../../src/chain/checkpointing/index.js';
import { keccak256 } from '../../../src/chain/base/crypto.js';
import { etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { genesisBlock } from '../../../src/chain/genesis/header.js';
import { engineNetworkOf } from '../../../src/chain/engine/engine-adapters.js';
import { dev, DEV_ACCOUNTS, etc, mordor } from '../../../src/chain/networks/index.js';
import { sealHash } from '../../../src/chain/pow/ethash.js';
import { decodeBlockHeaders, encodeBlockHeaders } from '../../../src/p2p/eth/messages.js';

const h = (hex: string) => hexToBytes(hex as `0x${string}`);

/** ETC (and Ethereum) block 1, as every archive stores it. */
const ETC_BLOCK_1: BlockHeaderBytes = [
  h('0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3'),
  h('0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347'),
  h('0x05a56e2d52c817161883f50c441c3228cfe54d9f'),
  h('0xd67e4d450343046425ae4271474353857ab860dbc0a1dde64b41b5cd3a532bf3'),
  h('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'),
  h('0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'),
  new Uint8Array(256),
  h('0x03ff800000'),
  h('0x01'),
  h('0x1388'),
  new Uint8Array(0),
  h('0x55ba4224'),
  h('0x476574682f76312e302e302f6c696e75782f676f312e342e32'),
  h('0x969b900de27b6ac6a67742365dd65f55a0526c41fd18e1b16f1a1215c2e66f59'),
  h('0x539bd4979fef1ec4'),
];
const ETC_BLOCK_1_HASH = '0x88e96d4537bea4d9c05d12549907b32561d3bf31f45aae734cdc119f13406cb6';
const MORDOR_GENESIS_HASH = '0xa68ebde7932eccb177d38d55dcc6461a019dd795a681e59b5a3e4f3a7259a3f1';

function codecFor(network: typeof etc, checkpointing: boolean): BlockCodec {
  const rules = etcEngineRules(network);
  return new BlockCodec(
    (n) => rules.commonAt(n),
    (n) => (rules.txCommonAt ?? rules.commonAt)(n),
    checkpointing,
  );
}

const devRules = etcEngineRules(dev);
const devCodec = codecFor(dev, true);
const key = (i: number) => h(DEV_ACCOUNTS[i].privateKey);

/** A dev header at `number` with the 16th field `[]` (as the miner builds them after activation). */
function regularHeader(number: bigint): Ecip1097Header {
  return new Ecip1097Header(
    {
      number,
      difficulty: 2n,
      gasLimit: 30_000_000n,
      timestamp: 1000n + number,
      extraData: h('0x1234'),
      mixHash: new Uint8Array(32).fill(7),
      nonce: h('0x0102030405060708'),
    },
    { common: devRules.commonAt(number) },
    undefined,
  );
}

const rlpRoundTrip = (codec: BlockCodec, header: BlockHeader) =>
  codec.header(RLP.decode(header.serialize()) as unknown as BlockHeaderBytes);

describe('15-field headers (checkpointing off, and on before activation)', () => {
  it.each([
    ['off', false],
    ['on', true],
  ])('decode, re-encode and hash a stored ETC header exactly as before (checkpointing %s)', (_label, checkpointing) => {
    const codec = codecFor(etc, checkpointing);
    const header = codec.header(ETC_BLOCK_1);
    expect(hasCheckpointField(header)).toBe(false);
    expect(header.raw()).toHaveLength(15);
    expect(bytesToHex(header.hash())).toBe(ETC_BLOCK_1_HASH);
    expect(bytesToHex(header.serialize())).toBe(bytesToHex(RLP.encode(ETC_BLOCK_1)));
    // The seal hash still drops exactly mixHash and nonce.
    expect(bytesToHex(sealHash(header))).toBe(bytesToHex(keccak256(RLP.encode(ETC_BLOCK_1.slice(0, 13)))));
  });

  it('hash the Mordor genesis to its published hash through the codec', () => {
    const network = engineNetworkOf(mordor);
    const built = genesisBlock(network.genesisHeader, etcEngineRules(mordor).commonAt(0n), KECCAK256_RLP);
    for (const checkpointing of [false, true]) {
      const decoded = rlpRoundTrip(codecFor(mordor, checkpointing), built.header);
      expect(bytesToHex(decoded.hash())).toBe(MORDOR_GENESIS_HASH);
    }
  });

  it('a codec without checkpointing refuses a 16-field header, as before this feature', () => {
    const values = RLP.decode(regularHeader(5n).serialize()) as unknown as BlockHeaderBytes;
    expect(values).toHaveLength(16);
    expect(() => codecFor(dev, false).header(values)).toThrow();
  });
});

describe('16-field headers', () => {
  it('a regular header ends in [] (0xc0): bytes and hash round-trip, and the hash covers the field', () => {
    const header = regularHeader(5n);
    const bytes = header.serialize();
    expect(bytes[bytes.length - 1]).toBe(0xc0);
    const decoded = rlpRoundTrip(devCodec, header);
    expect(decoded).toBeInstanceOf(Ecip1097Header);
    expect(checkpointOf(decoded)).toBeUndefined();
    expect(bytesToHex(decoded.serialize())).toBe(bytesToHex(bytes));
    expect(bytesToHex(decoded.hash())).toBe(bytesToHex(keccak256(bytes)));
    // The same 15 fields without the 16th are another header with another hash.
    const standard = RLP.encode(header.raw().slice(0, 15));
    expect(bytesToHex(keccak256(standard))).not.toBe(bytesToHex(decoded.hash()));
  });

  it('the seal hash drops mixHash and nonce but keeps the 16th field', () => {
    const header = regularHeader(5n);
    const raw = header.raw();
    expect(bytesToHex(sealHash(header))).toBe(bytesToHex(keccak256(RLP.encode([...raw.slice(0, 13), raw[15]]))));
    expect(bytesToHex(sealHash(header))).not.toBe(bytesToHex(keccak256(RLP.encode(raw.slice(0, 13)))));
    // "Drop the last two fields" (what @ethereumjs/ethash does) would seal the nonce and lose the checkpoint field.
    expect(bytesToHex(sealHash(header))).not.toBe(bytesToHex(keccak256(RLP.encode(raw.slice(0, 14)))));
  });

  it('a checkpoint header [[ [r,s,v], … ]] round-trips with its signatures, empty nonce and mixHash', () => {
    const parent = regularHeader(5n);
    const sigs = [7, 8, 9].map((i) => signCheckpoint(parent.hash(), key(i)));
    const block = buildCheckpointBlock(parent, sigs, devRules.commonAt(6n));
    const header = block.header;
    const raw = header.raw() as unknown[];
    expect(raw).toHaveLength(16);
    expect(raw[15]).toHaveLength(1);
    expect((raw[15] as unknown[][])[0]).toHaveLength(3);
    const decoded = rlpRoundTrip(devCodec, header);
    expect(bytesToHex(decoded.serialize())).toBe(bytesToHex(header.serialize()));
    expect(bytesToHex(decoded.hash())).toBe(bytesToHex(header.hash()));
    expect(decoded.nonce).toHaveLength(0);
    expect(decoded.mixHash).toHaveLength(0);
    const sorted = [...sigs].sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0));
    expect(checkpointOf(decoded)!.signatures.map((s) => bytesToHex(signatureToBytes(s)))).toEqual(
      sorted.map((s) => bytesToHex(signatureToBytes(s))),
    );
    // §5.3 fields.
    expect(header.number).toBe(6n);
    expect(header.timestamp).toBe(parent.timestamp + 1n);
    expect(header.difficulty).toBe(parent.difficulty);
    expect(header.gasLimit).toBe(parent.gasLimit);
    expect(bytesToHex(header.stateRoot)).toBe(bytesToHex(parent.stateRoot));
    expect(bytesToHex(header.uncleHash)).toBe(bytesToHex(KECCAK256_RLP_ARRAY));
    expect(header.extraData).toHaveLength(0);
    expect(header.coinbase.isZero()).toBe(true);
    // A whole block (header + empty body) round-trips too, as stored and as sent to peers.
    const again = devCodec.blockFromRLP(block.serialize());
    expect(bytesToHex(again.hash())).toBe(bytesToHex(block.hash()));
  });

  it('travels in an eth/68 BlockHeaders message and decodes to the same hash', () => {
    const parent = regularHeader(5n);
    const checkpoint = buildCheckpointBlock(
      parent,
      [signCheckpoint(parent.hash(), key(7))],
      devRules.commonAt(6n),
    ).header;
    const message = encodeBlockHeaders(9n, [parent.raw(), checkpoint.raw()]);
    const { headers } = decodeBlockHeaders(message);
    expect(headers.map((raw) => bytesToHex(devCodec.header(raw).hash()))).toEqual([
      bytesToHex(parent.hash()),
      bytesToHex(checkpoint.hash()),
    ]);
  });

  it('refuses malformed checkpoint fields', () => {
    const base = regularHeader(5n).raw().slice(0, 15);
    const sig = signCheckpoint(new Uint8Array(32).fill(1), key(7));
    const item = (s: CheckpointSignature) => [
      h(`0x${s.r.toString(16).padStart(64, '0')}`),
      h(`0x${s.s.toString(16).padStart(64, '0')}`),
      Uint8Array.of(s.v),
    ];
    const bad: Array<[string, unknown]> = [
      ['a byte string', h('0x01')],
      ['two items', [[], []]],
      ['a signature that is not a list', [[h('0x01')]]],
      ['a signature of two items', [[[h('0x01'), h('0x02')]]]],
      [
        'r with a leading zero byte',
        [[[Uint8Array.of(0, ...h(`0x${sig.r.toString(16)}`)), item(sig)[1], item(sig)[2]]]],
      ],
      ['r longer than 32 bytes', [[[new Uint8Array(33).fill(1), item(sig)[1], item(sig)[2]]]]],
    ];
    for (const [what, field] of bad) {
      expect(() => devCodec.header([...base, field] as unknown as BlockHeaderBytes), what).toThrow();
    }
  });
});
