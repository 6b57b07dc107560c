/**
 * `svc-node export` and `svc-node db prune` check the fork schedule a datadir was built with (fork-schedule.json) as a
 * start does: a dev datadir built with `--override.bastion 3` and mined past block 3 is refused without the override,
 * with the start's message (which fork moves, which blocks would have to be re-executed, how to keep the chain); with
 * the override as before, both run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/cli-command.js';
import { startNode } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const OVERRIDE = ['--override.bastion', '3'];
const REFUSAL =
  /bastion moves from block 3 to never, but the chain's head is 6: blocks 3\.\.6 were executed under the old schedule and would have to be re-executed.*start with --override\.bastion 3 as before/;

describe('export and db prune check the stored fork schedule', () => {
  it('refuse a datadir whose chain passed a fork the schedule moves, and run with the schedule it was built with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fork-schedule-commands-'));
    dirs.push(dir);
    const node = await startNode({ args: ['--datadir', dir, '--no-p2p', ...OVERRIDE], timeoutMs: 90_000 });
    try {
      await call(node.url, 'anvil_mine', ['0x6']);
    } finally {
      await node.stop();
    }
    const stored = readFileSync(join(dir, 'fork-schedule.json'), 'utf8');
    const out = join(dir, 'chain.rlp');

    const exportRefused = await runCommand(['--datadir', dir, 'export', out]);
    expect(exportRefused.code).toBe(1);
    expect(exportRefused.stderr).toMatch(REFUSAL);
    expect(existsSync(out)).toBe(false);
    const pruneRefused = await runCommand(['--datadir', dir, 'db', 'prune']);
    expect(pruneRefused.code).toBe(1);
    expect(pruneRefused.stderr).toMatch(REFUSAL);
    // A refusal leaves the datadir as it was: the stored schedule, and an archive (the export below opens it as one).
    expect(readFileSync(join(dir, 'fork-schedule.json'), 'utf8')).toBe(stored);

    const exported = await runCommand(['--datadir', dir, ...OVERRIDE, 'export', out]);
    expect([exported.code, exported.stderr]).toEqual([0, '']);
    expect(existsSync(out)).toBe(true);
    const pruned = await runCommand(['--datadir', dir, ...OVERRIDE, 'db', 'prune']);
    expect([pruned.code, pruned.stderr]).toEqual([0, '']);
  }, 240_000);
});
