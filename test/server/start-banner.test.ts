/**
 * What the node prints once at start: the `listening` JSON line (for programs) now also carries the head, its hash
 * and the metrics URL; at a terminal a banner follows with the URLs, network, head and datadir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli.js';
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
