import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex } from '@ethereumjs/util';
import { afterAll, describe, expect, it } from 'vitest';
import { keccak256 } from '../base/crypto.js';
import { open } from 'node:fs/promises';
import { readEntries } from './e2store.js';
import { Era1File } from './era1.js';
import { maskedCrc32c } from './snappy-frames.js';

const ERA1 = '/work/shared/vectors/realchain/mainnet-00000-5ec1ffb8.era1';
const dir = mkdtempSync(join(tmpdir(), 'era1-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('era1 files (e2store, snappy frames, epoch accumulator)', () => {
  it('reads ETC epoch 0: 8192 blocks from the mainnet genesis, its accumulator matching its headers', async () => {
    const era = await Era1File.open(ERA1);
    try {
      expect(era.startNumber).toBe(0n);
      expect(era.count).toBe(8192);
      await era.verifyAccumulator();
      const [genesis] = await first(era.blocks(), 1);
      expect(bytesToHex(keccak256(genesis.header))).toBe(
        '0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3',
      );
      const [one] = await first(era.blocks(1n), 1);
      expect(bytesToHex(keccak256(one.header))).toBe(
        '0x88e96d4537bea4d9c05d12549907b32561d3bf31f45aae734cdc119f13406cb6',
      );
    } finally {
      await era.close();
    }
  });

  it('refuses a file whose stored accumulator does not match its headers', async () => {
    const bytes = readFileSync(ERA1);
    // The accumulator's 32 bytes sit just before the block index (8 + 8 + 8·8192 + 8 bytes at the end).
    const at = bytes.length - (8 + 16 + 8 * 8192) - 32;
    bytes[at] ^= 1;
    const file = join(dir, 'bad-accumulator.era1');
    writeFileSync(file, bytes);
    const era = await Era1File.open(file);
    await expect(era.verifyAccumulator()).rejects.toThrow(/epoch accumulator mismatch/);
    await era.close();
  });

  it('refuses a corrupted header entry by its snappy checksum', async () => {
    const bytes = readFileSync(ERA1);
    bytes[8 + 8 + 40] ^= 0x10; // inside block 0's compressed header
    const file = join(dir, 'bad-header.era1');
    writeFileSync(file, bytes);
    const era = await Era1File.open(file);
    await expect(era.verifyAccumulator()).rejects.toThrow(/block 0: checksum mismatch/);
    await era.close();
  });

  it('refuses a broken entry frame inside the file by the file and block (an e2store error)', async () => {
    const bytes = readFileSync(ERA1);
    const at = await headerEntryOffset(1);
    bytes[at + 6] = 1; // block 1's header entry: a reserved byte that must be zero
    const file = join(dir, 'bad-frame.era1');
    writeFileSync(file, bytes);
    const era = await Era1File.open(file);
    await expect(era.verifyAccumulator()).rejects.toThrow(
      `${file}: block 1: entry at byte ${at}: reserved bytes are not zero`,
    );
    await era.close();
  });

  it('refuses a header that does not start with a parent hash by the file and block', async () => {
    const bytes = readFileSync(ERA1);
    const at = await headerEntryOffset(1);
    const length = bytes.readUInt32LE(at + 2);
    // Block 1's header entry, same length, now a valid snappy frame of bytes that are a list but no header.
    const data = new Uint8Array(length - 18).fill(0x80);
    data[0] = 0xc1;
    const frame = Buffer.alloc(length);
    frame.set([0xff, 6, 0, 0, ...Buffer.from('sNaPpY')], 0);
    frame.set([0x01, (data.length + 4) & 0xff, (data.length + 4) >> 8, 0], 10);
    frame.writeUInt32LE(maskedCrc32c(data), 14);
    frame.set(data, 18);
    frame.copy(bytes, at + 8);
    const file = join(dir, 'bad-parent.era1');
    writeFileSync(file, bytes);
    const era = await Era1File.open(file);
    await expect(era.verifyAccumulator()).rejects.toThrow(
      `${file}: block 1: header RLP does not start with a 32-byte parent hash`,
    );
    await era.close();
  });

  it('refuses a file that is not era1', async () => {
    const file = join(dir, 'plain.era1');
    writeFileSync(file, 'not an e2store file at all');
    await expect(Era1File.open(file)).rejects.toThrow(/is not an era1 file/);
  });
});

async function first<T>(gen: AsyncGenerator<T>, n: number): Promise<T[]> {
  const out: T[] = [];
  for await (const item of gen) {
    out.push(item);
    if (out.length >= n) break;
  }
  return out;
}

/** Where block `n`'s compressed header entry starts in the epoch-0 file. */
async function headerEntryOffset(n: number): Promise<number> {
  const file = await open(ERA1, 'r');
  try {
    let seen = -1;
    for await (const entry of readEntries(file, (await file.stat()).size)) {
      if (entry.type === 0x0003 && ++seen === n) return entry.offset;
    }
    throw new Error(`no header entry ${n}`);
  } finally {
    await file.close();
  }
}
