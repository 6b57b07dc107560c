/**
 * Start-up failures a user causes with a flag: each exits 1 with one stderr line that names the flag and says what
 * to do, and no stack. Ports are taken by a plain TCP server first; addresses and counts fail before the chain opens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/node-process.js';

const datadir = mkdtempSync(join(tmpdir(), 'svc-node-start-errors-'));
let occupied: Server;
let port: number;

beforeAll(async () => {
  occupied = createServer();
  await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
  port = (occupied.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => occupied.close(resolve));
  rmSync(datadir, { recursive: true, force: true });
});

/** The one line a failed start writes to stderr (asserting there is exactly one, and no stack). */
function oneLine(run: CliRun): string {
  expect(run.code).toBe(1);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  return lines[0]!;
}

describe('start-up errors name the flag', () => {
  it('a port in use names --http.port or --p2p.port and suggests 0', async () => {
    const [http, p2p] = await Promise.all([
      runCli(['--datadir', join(datadir, 'a'), '--no-p2p', '--http.port', String(port)]),
      runCli([
        '--datadir',
        join(datadir, 'b'),
        '--http.port',
        '0',
        '--p2p.addr',
        '127.0.0.1',
        '--p2p.port',
        String(port),
      ]),
    ]);
    expect(oneLine(http)).toBe(
      `svc-node: cannot start: port ${port} on 127.0.0.1 is in use (by another svc-node?): ` +
        'choose another with --http.port, or --http.port 0 for any free port',
    );
    expect(oneLine(p2p)).toBe(
      `svc-node: cannot start: port ${port} on 127.0.0.1 is in use (by another svc-node?): ` +
        'choose another with --p2p.port, or --p2p.port 0 for any free port',
    );
  });

  it('an address this machine does not have is refused before the chain opens', async () => {
    const runs = await Promise.all([
      runCli(['--datadir', join(datadir, 'c'), '--http.addr', '999.1.1.1']),
      runCli(['--datadir', join(datadir, 'c'), '--p2p.addr', 'nonsense']),
      runCli(['--datadir', join(datadir, 'c'), '--http.addr', '203.0.113.77']),
    ]);
    const [badIp, unknownName, otherMachine] = runs.map(oneLine);
    expect(badIp).toMatch(
      /network\.rpc\.http\.interface \(--http\.addr\): "999\.1\.1\.1" is not an IP address or host/,
    );
    expect(unknownName).toMatch(/\(--p2p\.addr\): "nonsense" is not an IP address or host name this machine has/);
    expect(otherMachine).toMatch(/\(--http\.addr\): "203\.0\.113\.77" is not an IP address or host name this machine/);
    for (const run of runs) expect(run.stdout).not.toMatch(/chain opened/);
  });

  it('--maxpeers 0 and -1 are refused alike, stating the range and how to run without peers', async () => {
    const runs = await Promise.all(['0', '-1'].map((n) => runCli(['--datadir', join(datadir, 'd'), '--maxpeers', n])));
    const expected = (n: string) =>
      'svc-node: network.max-peers (--maxpeers) must be an integer of at least 1 (to run without peers: --no-p2p), ' +
      `got "${n}"`;
    expect(runs.map(oneLine)).toEqual([expected('0'), expected('-1')]);
  });

  it('ports above 65535 and durations beyond what a timer holds are refused with their range', async () => {
    const [bigPort, longPing] = await Promise.all([
      runCli(['--datadir', join(datadir, 'e'), '--p2p.port', '65536']),
      runCli(['--datadir', join(datadir, 'e')], { SVC_NODE_NETWORK_RPC_WS_PING_INTERVAL: '1000h' }),
    ]);
    expect(oneLine(bigPort)).toMatch(
      /network\.server-address\.port \(--p2p\.port\) must be an integer from 0 to 65535/,
    );
    expect(oneLine(longPing)).toMatch(
      /\(environment SVC_NODE_NETWORK_RPC_WS_PING_INTERVAL\) must be a duration from 0 to/,
    );
  });
});
