/**
 * `svc-node --network etc import` of real ETC history (era1 epoch 0, real seals and uncles), stopped with Ctrl-C
 * and continued, then `export` → `import` into a fresh datadir, and the one-line failures. A prefix of the epoch is
 * imported, to keep the file's time in CI bounds; bench/ runs the whole epoch.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { Era1File } from '../../../src/chain/archive/era1.js';
import { keccak256 } from '../../../src/chain/base/crypto.js';
import { runCommand } from '../../helpers/cli-command.js';
import { ERA1_EPOCH0 } from '../../helpers/vectors-dir.js';

const ERA1 = ERA1_EPOCH0;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-node-import-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The era1's header hashes and raw blocks of 0..last, read by the test itself. */
async function eraBlocks(last: number): Promise<{ hashes: string[]; stateRoots: string[]; rlp: Uint8Array[] }> {
  const era = await Era1File.open(ERA1);
  const hashes: string[] = [];
  const stateRoots: string[] = [];
  const rlp: Uint8Array[] = [];
  try {
    for await (const b of era.blocks()) {
      if (b.number > BigInt(last)) break;
      hashes.push(bytesToHex(keccak256(b.header)));
      const header = RLP.decode(b.header) as Uint8Array[];
      stateRoots.push(bytesToHex(header[3]));
      const [txs, uncles] = RLP.decode(b.body) as Uint8Array[][];
      rlp.push(RLP.encode([header, txs, uncles]));
    }
  } finally {
    await era.close();
  }
  return { hashes, stateRoots, rlp };
}

/** The last block the export case writes (and the re-run imports at least). */
const EXPORTED = 60;

/** "1m15s", "2h02m", "45s" in seconds. */
function etaSeconds(eta: string): number {
  const [, h = '0', m = '0', sec = '0'] = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(eta) ?? [];
  return Number(h) * 3600 + Number(m) * 60 + Number(sec);
}

const line = (logs: Array<Record<string, unknown>>, msg: string) => logs.find((l) => l.msg === msg);

describe('svc-node import / export of real ETC history', () => {
  const datadir = tempDir();
  // Progress lines every 200 ms: the Ctrl-C cases below stop on one, so they run ~0.2 s past their point, not ~5 s.
  const etc = ['--network', 'etc', '--datadir', datadir, '--progress-interval', '200ms'];
  let firstHead = 0;

  it('imports era1 epoch 0 with every seal checked; Ctrl-C stops between blocks at a real block', async () => {
    const run = await runCommand([...etc, 'import', ERA1], {
      interruptWhen: (l) => l.msg === 'import progress' && Number(l.done) > 1,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(130);
    // The ETA is the blocks left at the pace since the first block, which waited for the Ethash cache: the line
    // shows that pace, and the ETA agrees with it (to the rounding of both), not with a pace counting the build.
    const progress = run.logs.find((l) => l.msg === 'import progress' && Number(l.done) > 1)!;
    const steady = Number(progress.steadyBlocksPerSecond);
    expect(steady).toBeGreaterThan(0);
    const left = Number(progress.total) - Number(progress.done);
    expect(Math.abs(etaSeconds(String(progress.eta)) - left / steady)).toBeLessThanOrEqual(60 + (0.1 * left) / steady);
    const stopped = line(run.logs, 'import stopped')!;
    firstHead = Number(stopped.head);
    expect(firstHead).toBeGreaterThan(0);
    const { hashes } = await eraBlocks(firstHead);
    expect(stopped.hash).toBe(hashes[firstHead]);
  }, 90_000);

  it('a re-run skips what is in and continues from there', async () => {
    const run = await runCommand([...etc, 'import', ERA1], {
      // Past block 60 too, which the export below reads: a loaded machine stopped it at 51 once.
      interruptWhen: (l) => l.msg === 'import progress' && Number(l.number) > Math.max(firstHead, EXPORTED),
    });
    expect(run.code).toBe(130);
    const stopped = line(run.logs, 'import stopped')!;
    expect(stopped.skipped).toBe(firstHead + 1);
    const head = Number(stopped.head);
    expect(head).toBeGreaterThan(firstHead);
    const { hashes } = await eraBlocks(head);
    expect(stopped.hash).toBe(hashes[head]);
  }, 90_000);

  it('export → import into a fresh datadir gives the same head and state root', async () => {
    const file = join(tempDir(), 'blocks.rlp.gz');
    const exported = await runCommand([...etc, 'export', file, '0', String(EXPORTED)]);
    expect(exported.stderr).toBe('');
    expect(line(exported.logs, 'export done')).toMatchObject({ first: '0', last: '60', blocks: 61 });
    const freshDir = tempDir();
    const fresh = await runCommand(['--network', 'etc', '--datadir', freshDir, 'import', file]);
    expect(fresh.stderr).toBe('');
    const { hashes, stateRoots } = await eraBlocks(60);
    expect(line(fresh.logs, 'import done')).toMatchObject({
      head: '60',
      hash: hashes[60],
      stateRoot: stateRoots[60],
      imported: 60,
      skipped: 1,
    });
    // The command ends its process as soon as it has closed the chain: every block it imported is on disk then.
    const again = await runCommand(['--network', 'etc', '--datadir', freshDir, 'import', file]);
    expect(again.stderr).toBe('');
    expect(line(again.logs, 'import done')).toMatchObject({ head: '60', hash: hashes[60], imported: 0, skipped: 61 });
  }, 120_000);

  // A missing file and one of neither format: src/chain/archive/block-sources.test.ts (the same one-line messages).
  it('refuses a bad block with its number, hash and reason, keeping the blocks before it', async () => {
    const dir = tempDir();

    // Blocks 1..5 with block 4's nonce changed: 1..3 go in, 4 is refused.
    const { rlp, hashes } = await eraBlocks(5);
    const bad = RLP.decode(rlp[4]) as [Uint8Array[], Uint8Array[], Uint8Array[]];
    bad[0][14] = new Uint8Array(8).fill(7);
    const badHash = bytesToHex(keccak256(RLP.encode(bad[0])));
    const file = join(dir, 'bad.rlp');
    writeFileSync(file, Buffer.concat([...rlp.slice(1, 4), RLP.encode(bad), rlp[5]]));
    const refused = await runCommand(['--network', 'etc', '--datadir', dir, 'import', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`svc-node: import failed: block 4 ${badHash}: invalid mix digest\n`);
    expect(line(refused.logs, 'import failed')).toMatchObject({ head: '3', hash: hashes[3] });
  }, 120_000);

  it('export to a path that cannot be written is one line, not an unhandled stream error', async () => {
    const dir = tempDir();
    const target = join(dir, 'no-such-dir', 'blocks.rlp');
    const run = await runCommand(['--datadir', join(dir, 'dev'), 'export', target]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`svc-node: export failed: cannot write ${target}: its directory does not exist\n`);
  }, 60_000);

  it('a file of another chain, or one that starts past the head, says which instead of "unknown parent"', async () => {
    const dir = tempDir();
    const { rlp, hashes } = await eraBlocks(6);
    const write = (name: string, blocks: Uint8Array[]) => {
      writeFileSync(join(dir, name), Buffer.concat(blocks));
      return join(dir, name);
    };
    const fromGenesis = write('etc-0-2.rlp', rlp.slice(0, 3));
    const fromOne = write('etc-1-2.rlp', rlp.slice(1, 3));
    const gap = write('etc-5-6.rlp', rlp.slice(5, 7));
    const mordor = (name: string) => ['--network', 'mordor', '--datadir', join(dir, name), 'import'];
    const [genesis, parent, past] = await Promise.all([
      runCommand([...mordor('m1'), fromGenesis]),
      runCommand([...mordor('m2'), fromOne]),
      runCommand(['--network', 'etc', '--datadir', join(dir, 'e'), 'import', gap]),
    ]);
    const mordorGenesis = '0xa68ebde7932eccb177d38d55dcc6461a019dd795a681e59b5a3e4f3a7259a3f1';
    const otherChain = 'the file holds another chain (another --network, or the dev chain of the other --seal mode)';
    expect(genesis.stderr).toBe(
      `svc-node: import failed: ${fromGenesis}: block 0 ${hashes[0]} is not this chain's genesis ${mordorGenesis}: ` +
        `${otherChain}\n`,
    );
    expect(parent.stderr).toBe(
      `svc-node: import failed: ${fromOne}: block 1 ${hashes[1]}: its parent ${hashes[0]} is not this chain's ` +
        `block 0: ${otherChain}\n`,
    );
    expect(past.stderr).toBe(
      `svc-node: import failed: ${gap}: block 5 ${hashes[5]}: its parent, block 4, is not stored (this chain's ` +
        'head is 0): import the blocks before it first\n',
    );
    for (const run of [genesis, parent, past]) expect(run.code).toBe(1);
  }, 120_000);

  it('a gzipped stream whose first block declares a huge length is refused at once, naming the cap', async () => {
    const dir = tempDir();
    // A list prefix declaring 2^31 bytes, then 64 MiB of zeros (64 KiB gzipped): the reader used to buffer the
    // stream chunk by chunk, copying all it held on every chunk (~87 s for this file), before saying anything.
    const prefix = Uint8Array.from([0xfb, 0x80, 0x00, 0x00, 0x00]);
    const file = join(dir, 'huge-first-block.rlp.gz');
    writeFileSync(file, gzipSync(Buffer.concat([prefix, Buffer.alloc(64 * 1024 * 1024)])));
    const run = await runCommand(['--network', 'etc', '--datadir', dir, 'import', file]);
    expect(run.code).toBe(1);
    const declared = 5 + 2 ** 31;
    expect(run.stderr).toBe(
      `svc-node: import failed: ${file}: block 0 (at byte 0 of the stream) declares ${declared} bytes, over the cap ` +
        'of 33554432 bytes on one block (MAX_BLOCK_BYTES, src/chain/archive/rlp-blocks.ts): the file is corrupt\n',
    );
    expect(line(run.logs, 'import failed')).toMatchObject({ head: '0' });
  }, 120_000);
});
