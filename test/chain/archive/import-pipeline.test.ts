/**
 * The history import's pipeline on real ETC history (era1 epoch 0): a seal tampered with inside an era1 file (its
 * frame and accumulator right, so only the seal is wrong) fails the import naming the block, after the blocks
 * before it went in through the read-ahead; and a stopped import releases its read-ahead (the file closed, no block
 * held, the seal verdicts of blocks it will not import dropped), within its bound while it ran.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Block } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { importHistory } from '../../../src/chain/archive/history-import.js';
import { keccak256 } from '../../../src/chain/base/crypto.js';
import { BlockStore } from '../../../src/chain/db/block-store.js';
import { ChainEngine } from '../../../src/chain/engine/engine.js';
import { runCommand } from '../../helpers/cli-command.js';
import { readEra1, withHeaderField, writeEra1 } from '../../helpers/era1-writer.js';
import { ERA1_EPOCH0 } from '../../helpers/vectors-dir.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-node-import-pipe-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Far enough into the file that the read-ahead has handed out several chunks before it. */
const TAMPERED = 150;

describe('svc-node import: the read-ahead pipeline', () => {
  it('a tampered seal in an era1 file fails the import naming the block; the blocks before it are in', async () => {
    const dir = tempDir();
    const records = await readEra1(ERA1_EPOCH0, 0n, BigInt(TAMPERED));
    const original = bytesToHex(keccak256(records[TAMPERED].header));
    records[TAMPERED] = withHeaderField(records[TAMPERED], 14, new Uint8Array(8).fill(7));
    const badHash = bytesToHex(keccak256(records[TAMPERED].header));
    expect(badHash).not.toBe(original);
    const file = join(dir, 'tampered.era1');
    writeEra1(file, 0n, records);
    const run = await runCommand(['--network', 'etc', '--datadir', join(dir, 'chain'), 'import', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`svc-node: import failed: block ${TAMPERED} ${badHash}: invalid mix digest\n`);
    expect(run.logs.find((l) => l.msg === 'import failed')).toMatchObject({
      head: String(TAMPERED - 1),
      hash: bytesToHex(keccak256(records[TAMPERED - 1].header)),
    });
  }, 120_000);

  it('an era1 file whose accumulator disagrees with its headers fails the import naming the file, no head left from it', async () => {
    const dir = tempDir();
    const records = await readEra1(ERA1_EPOCH0, 0n, 200n);
    const file = join(dir, 'bad-accumulator.era1');
    writeEra1(file, 0n, records, { accumulator: new Uint8Array(32).fill(9) });
    const datadir = join(dir, 'chain');
    const run = await runCommand(['--network', 'etc', '--datadir', datadir, 'import', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^svc-node: import failed: ${file}: epoch accumulator mismatch: `));
    expect(run.logs.find((l) => l.msg === 'import failed')).toMatchObject({ head: '0' });
    // As stored, not only as the failing process saw it: the reopened chain exports the genesis alone.
    const out = await runCommand(['--network', 'etc', '--datadir', datadir, 'export', join(dir, 'out.rlp')]);
    expect(out.code).toBe(0);
    expect(out.logs.find((l) => l.msg === 'export done')).toMatchObject({ first: '0', last: '0', blocks: 1 });
  }, 120_000);

  it('a stopped import releases its read-ahead: nothing held, the verdicts of blocks it will not import dropped; no "is it stored?" read after the first block', async () => {
    const getNumber = BlockStore.prototype.getNumber;
    const imported: string[] = [];
    // Blocks looked up before they were stored (later lookups of a stored block, as a parent, read the cache).
    const asked = new Set<string>();
    const spy = vi.spyOn(BlockStore.prototype, 'getNumber').mockImplementation(function (this: BlockStore, hash) {
      if (!imported.includes(bytesToHex(hash))) asked.add(bytesToHex(hash));
      return getNumber.call(this, hash);
    });
    const engine = await ChainEngine.open({
      dataDir: tempDir(),
      network: 'etc',
      powCacheDir: join(tmpdir(), 'svc-node-test-ethash'),
    });
    try {
      const chain = engine.chain;
      const forgotten: bigint[] = [];
      const forget = chain.forgetSeals;
      chain.forgetSeals = (blocks: readonly Block[]) => {
        forgotten.push(...blocks.map((b) => b.header.number));
        forget(blocks);
      };
      const window = 96;
      let ahead: { readonly held: number } | undefined;
      let mostHeld = 0;
      const stop = new AbortController();
      chain.on('newHead', (b) => {
        imported.push(bytesToHex(b.hash()));
        mostHeld = Math.max(mostHeld, ahead?.held ?? 0);
        if (b.header.number >= 40n) stop.abort();
      });
      const outcome = await importHistory({
        chain,
        files: [ERA1_EPOCH0],
        log: { info: () => {} },
        signal: stop.signal,
        readAhead: { window, chunk: 16 },
        onReadAhead: (a) => {
          ahead = a;
        },
      });
      expect(outcome.stopped).toBe(true);
      const head = outcome.head.header.number;
      expect(head).toBeGreaterThanOrEqual(40n);
      expect(ahead?.held).toBe(0);
      expect(mostHeld).toBeGreaterThan(0);
      expect(mostHeld).toBeLessThanOrEqual(window);
      // Checks still under way when it stopped drop their verdicts as they end.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(forgotten.length).toBeGreaterThan(0);
      const sorted = [...forgotten].sort((a, b) => (a < b ? -1 : 1));
      expect(sorted).toEqual(sorted.map((_, i) => head + 1n + BigInt(i)));
      expect(outcome.times.sealWaitMs).toBeGreaterThanOrEqual(0);
      // Each block is a child of the head this import just stored: only the first one after opening is looked up.
      expect(imported.filter((h) => asked.has(h)).length).toBeLessThanOrEqual(1);
    } finally {
      spy.mockRestore();
      await engine.close();
    }
  }, 120_000);
});
