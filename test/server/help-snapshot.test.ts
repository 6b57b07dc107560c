/**
 * `--help` is derived from the settings table; this compares it with a committed copy, so a change to a flag, a
 * description or a default shows up as a diff to review (and a restructure that moves code cannot move a default).
 * After an intended change: `node bin/svc-node.js --help > test/fixtures/cli/help.txt`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/node-process.js';

describe('svc-node --help', () => {
  it('prints exactly the committed help text', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(readFileSync(`${repoRoot}test/fixtures/cli/help.txt`, 'utf8'));
  });
});
