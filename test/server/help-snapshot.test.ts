/**
 * `--help` is derived from the settings table; this compares it with a committed copy, so a change to a flag, a
 * description or a default shows up as a diff to review (and a restructure that moves code cannot move a default).
 * After an intended change: `node bin/svc-node.js --help > test/fixtures/cli/help.txt`.
 * Both `--help` and `--help all` must fit a 100-column terminal and show the flags by group.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/node-process.js';

describe('svc-node --help', () => {
  it('prints exactly the committed help text, examples first and flags by group, within 100 columns', async () => {
    const [help, all] = await Promise.all([runCli(['--help']), runCli(['--help', 'all'])]);
    expect(help.code).toBe(0);
    expect(help.stderr).toBe('');
    expect(help.stdout).toBe(readFileSync(`${repoRoot}test/fixtures/cli/help.txt`, 'utf8'));
    expect(all.code).toBe(0);
    for (const text of [help.stdout, all.stdout]) {
      const tooWide = text.split('\n').filter((line) => [...line].length > 100);
      expect(tooWide).toEqual([]);
    }
    const headings = help.stdout.split('\n').filter((line) => /^[A-Z][^:]*:$/.test(line));
    expect(headings).toEqual([
      'Examples:',
      'Options:',
      'Chain, data and logs:',
      'Fork schedule:',
      'RPC server:',
      'Peer-to-peer:',
      'Mining:',
      "Dev chain (Anvil's flags):",
      'Accounts:',
      'Execution:',
    ]);
    expect(help.stdout.indexOf('svc-node --network mordor --metrics')).toBeLessThan(help.stdout.indexOf('--network <'));
    // The reference lists every setting, each with its environment name; ranges are stated.
    expect(all.stdout).toContain('cache.trie-nodes\n      SVC_NODE_CACHE_TRIE_NODES; default');
    expect(all.stdout).toContain('SVC_NODE_NETWORK_MAX_PEERS; default 25; an integer of at least 1');
    expect(all.stdout).toContain('Limits: transaction pool, caches, health:');
  });
});
