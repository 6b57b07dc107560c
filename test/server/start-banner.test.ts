/**
 * What the node prints once at start: the `listening` JSON line (for programs) now also carries the head, its hash
 * and the metrics URL; at a terminal a banner follows with the URLs, network, head and datadir, and on the dev chain
 * its ten test accounts with their keys (never on mordor/etc); `--quiet` drops the banner.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliOutcome, runCli } from '../../src/cli/cli.js';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode } from '../helpers/node-process.js';

describe('the start-up report', () => {
  it('puts head, head hash and metrics URL on the listening line', async () => {
    const node = await startNode({ args: ['--no-p2p'] });
    try {
      const listening = node.logs.find((l) => l.msg === 'listening')!;
      expect(listening).toMatchObject({
        network: 'dev',
        head: '0',
        headHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        datadir: node.datadir,
      });
      expect(listening.metrics).toBe(`${node.url}metrics`);
      expect((await fetch(listening.metrics as string)).status).toBe(200);
    } finally {
      await node.stop();
    }
  });

  it('prints a banner at a terminal, after the listening line', async () => {
    const datadir = mkdtempSync(join(tmpdir(), 'svc-banner-'));
    let out = '';
    const stdout = Object.assign(
      { write: (chunk: string) => ((out += chunk), true) },
      { isTTY: true },
    ) as unknown as NodeJS.WritableStream & { isTTY: boolean };
    const outcome = await runCli(
      [
        '--http.port',
        '0',
        '--http.addr',
        '127.0.0.1',
        '--datadir',
        datadir,
        '--no-p2p',
        '--ethash.cachedir',
        join(tmpdir(), 'svc-node-test-ethash'),
      ],
      { NODE_ENV: 'test' },
      { stdout, stderr: { write: () => true } as never },
    );
    try {
      if ('exitCode' in outcome) throw new Error(`the CLI exited with ${outcome.exitCode}`);
      const url = outcome.server.url;
      expect(out).toMatch(/ INFO {2}listening /);
      const banner = out.slice(out.indexOf('svc-node '));
      expect(banner).toMatch(/svc-node \d+\.\d+\.\d+ · dev \(chain id 1337\)/);
      for (const [label, value] of [
        ['JSON-RPC', url],
        ['WebSocket', url.replace('http', 'ws') + 'ws'],
        ['Metrics', `${url}metrics`],
        ['Docs', `${url}docs/`],
        ['Datadir', datadir],
      ]) {
        expect(banner).toMatch(new RegExp(`\\n {4}${label} +${value!.replace(/[.?*+^$[\]\\(){}|-]/g, '\\$&')}\\n`));
      }
      expect(banner).toMatch(/\n {4}Head +block 0 \(0x[0-9a-f]{64}\)\n/);
    } finally {
      if (!('exitCode' in outcome)) await outcome.stop();
      rmSync(datadir, { recursive: true, force: true });
    }
  });
});

/** Runs the CLI in this process with stdout as a terminal (or not), collecting all it writes. */
async function runAt(args: string[], tty = true, stderrTty = false) {
  const datadir = mkdtempSync(join(tmpdir(), 'svc-banner-'));
  let out = '';
  let err = '';
  const stdout = Object.assign(
    { write: (chunk: string) => ((out += chunk), true) },
    { isTTY: tty },
  ) as unknown as NodeJS.WritableStream & { isTTY: boolean };
  const stderr = { write: (chunk: string) => ((err += chunk), true), isTTY: stderrTty } as never;
  const outcome: CliOutcome = await runCli(
    ['--http.port', '0', '--http.addr', '127.0.0.1', '--datadir', datadir, '--no-p2p', ...args],
    { NODE_ENV: 'test' },
    { stdout, stderr },
  );
  if ('exitCode' in outcome) throw new Error(`the CLI exited with ${outcome.exitCode}`);
  return {
    outcome,
    out: () => out,
    err: () => err,
    async stop() {
      await outcome.stop();
      rmSync(datadir, { recursive: true, force: true });
    },
  };
}

const cache = ['--ethash.cachedir', join(tmpdir(), 'svc-node-test-ethash')];

describe('the dev banner', () => {
  it('lists the ten dev accounts with their keys, marked test-only, the MCP URL and a curl line that works', async () => {
    const run = await runAt(cache);
    try {
      const url = run.outcome.server.url;
      const banner = run.out().slice(run.out().indexOf('  svc-node '));
      const answer = (init: RequestInit) => fetch(url, init).then((r) => r.json() as Promise<{ result: unknown }>);
      expect((await answer(curlRequest(banner, url))).result).toBe('0x0');
      const accounts = (await answer(jsonRpc('eth_accounts'))).result as string[];
      expect(accounts).toHaveLength(10);
      const listed = [...banner.matchAll(/\((\d)\) (0x[0-9a-fA-F]{40})\n +key (0x[0-9a-f]{64})\n/g)];
      expect(listed.map((m) => m[2]!.toLowerCase())).toEqual(accounts.map((a) => a.toLowerCase()));
      expect(listed.map((m) => m[3])).toEqual(DEV_ACCOUNTS.map((a) => a.privateKey));
      expect(banner).toMatch(/WARNING: these private keys are publicly known/);
      expect(banner).toContain(`\n    MCP        ${url}mcp\n`);
    } finally {
      await run.stop();
    }
  });

  it('is not printed with --quiet', async () => {
    const run = await runAt([...cache, '--quiet']);
    try {
      expect(run.out()).toMatch(/ INFO {2}listening /);
      expect(run.out()).not.toContain('svc-node 0.');
      for (const { privateKey } of DEV_ACCOUNTS) expect(run.out()).not.toContain(privateKey.slice(2));
    } finally {
      await run.stop();
    }
  });

  it('keeps keys out of JSON-lines stdout and names the addresses in one "dev accounts" line', async () => {
    const run = await runAt(cache, false);
    try {
      const lines = run
        .out()
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.find((l) => l.msg === 'dev accounts')?.addresses).toEqual(DEV_ACCOUNTS.map((a) => a.address));
      for (const { privateKey } of DEV_ACCOUNTS) expect(run.out()).not.toContain(privateKey.slice(2));
    } finally {
      await run.stop();
    }
  });

  it('goes to stderr when only stderr is a terminal (`svc-node | jq`)', async () => {
    const run = await runAt(cache, false, true);
    try {
      expect(run.err()).toContain(DEV_ACCOUNTS[9]!.privateKey);
      expect(run.out()).not.toContain('svc-node 0.');
    } finally {
      await run.stop();
    }
  });

  it('prints no keys and no accounts on mordor', async () => {
    const run = await runAt(['--network', 'mordor', ...cache]);
    try {
      expect(run.out()).toMatch(/svc-node \d+\.\d+\.\d+ · mordor/);
      expect(run.out()).not.toContain('Accounts');
      expect(run.out()).not.toContain('dev accounts');
      for (const { privateKey, address } of DEV_ACCOUNTS) {
        expect(run.out()).not.toContain(privateKey.slice(2));
        expect(run.out()).not.toContain(address);
      }
    } finally {
      await run.stop();
    }
  });
});

const jsonRpc = (method: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
});

/** The banner's `curl` line as a fetch: its body and its URL, exactly as printed. */
function curlRequest(banner: string, url: string): RequestInit {
  const line = banner.split('\n').find((l) => l.includes('curl '))!;
  const match = /curl -s -H 'content-type: application\/json' -d '(\{[^']+\})' (\S+)$/.exec(line.trim());
  expect(match?.[2]).toBe(url);
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: match![1]! };
}
