import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import { afterAll, describe, expect, it } from 'vitest';
import { type BlockDecoder, openHistoryFile } from './block-sources.js';
import { RlpBlockWriter, readRlpBlocks } from './rlp-blocks.js';

const dir = mkdtempSync(join(tmpdir(), 'block-sources-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const decoder = {} as BlockDecoder; // format checks decode nothing

describe('history files: which format, and the one-line refusals', () => {
  it('refuses a missing file', async () => {
    const path = join(dir, 'missing.era1');
    await expect(openHistoryFile(path, decoder)).rejects.toThrow(`${path}: no such file`);
  });

  it('refuses a directory as a directory, not as a missing file', async () => {
    await expect(openHistoryFile(dir, decoder)).rejects.toThrow(`${dir}: not a file (a directory)`);
  });

  it('refuses a file that is neither era1 nor an RLP stream', async () => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'hello');
    await expect(openHistoryFile(path, decoder)).rejects.toThrow(
      `${path}: neither an era1 file nor an RLP block stream (plain or .gz)`,
    );
  });

  it('writes and reads RLP streams, plain and gzip, item by item across read chunks', async () => {
    const items = Array.from({ length: 300 }, (_, i) => RLP.encode([new Uint8Array(i * 50).fill(i % 251)]));
    for (const name of ['s.rlp', 's.rlp.gz']) {
      const path = join(dir, name);
      const writer = await RlpBlockWriter.create(path);
      for (const item of items) await writer.write(item);
      await writer.close();
      const back: Uint8Array[] = [];
      for await (const item of readRlpBlocks(path)) back.push(Uint8Array.from(item));
      // Compared as bytes (a deep equality over 2 MB of elements is slow): same items, same boundaries.
      expect(back.map((b) => b.length)).toEqual(items.map((b) => b.length));
      expect(Buffer.concat(back).equals(Buffer.concat(items))).toBe(true);
      const file = await openHistoryFile(path, decoder);
      expect(file).toMatchObject({ format: 'rlp', count: 300 });
    }
  });

  it('refuses a stream that ends inside a block', async () => {
    const path = join(dir, 'cut.rlp');
    const item = RLP.encode([new Uint8Array(100)]);
    writeFileSync(path, item.subarray(0, 60));
    await expect(openHistoryFile(path, decoder)).rejects.toThrow(/ends inside a block/);
  });
});
