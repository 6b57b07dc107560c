/**
 * Start-up failures a user causes with a flag: each exits 1 with one stderr line that names the flag and says what
 * to do, and no stack. Ports are taken by a plain TCP server first; addresses and counts fail before the chain opens.
 */
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/node-process.js';

const datadir = mkdtempSync(join(tmpdir(), 'svc-node-start-errors-'));
let occupied: Server;
let port: number;
let occupiedUdp: Socket;
let udpPort: number;

beforeAll(async () => {
  occupied = createServer();
  await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
  port = (occupied.address() as { port: number }).port;
  occupiedUdp = createSocket('udp4');
  await new Promise<void>((resolve) => occupiedUdp.bind(0, '127.0.0.1', resolve));
  udpPort = occupiedUdp.address().port;
});
afterAll(async () => {
  await new Promise((resolve) => occupied.close(resolve));
  await new Promise<void>((resolve) => occupiedUdp.close(resolve));
  rmSync(datadir, { recursive: true, force: true });
});

/** The one line a failed start writes to stderr (asserting there is exactly one, and no stack). */
function oneLine(run: CliRun, code = 1): string {
  expect(run.code).toBe(code);
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

  it('a discovery UDP port in use names --discovery.port, and the node exits instead of hanging', async () => {
    // Discovery binds after the RPC server and the RLPx listener are up: both must be closed again for the exit.
    const run = await runCli(
      [
        ...['--datadir', join(datadir, 'udp'), '--http.port', '0', '--p2p.addr', '127.0.0.1', '--p2p.port', '0'],
        ...['--discovery', '--discovery.port', String(udpPort)],
      ],
      undefined,
      20_000,
    );
    expect(oneLine(run)).toBe(
      `svc-node: cannot start: UDP port ${udpPort} on 127.0.0.1 is in use (by another svc-node?): ` +
        'choose another with --discovery.port, or --discovery.port 0 for any free port',
    );
  });

  it('discovery values that could only fail once peering runs are refused before the chain opens', async () => {
    const mordor = ['--network', 'mordor', '--http.port', '0', '--p2p.addr', '127.0.0.1', '--p2p.port', '0'];
    const runs = await Promise.all(
      [
        ['--dns.server', 'x:y:z'],
        ['--dns', 'all.mordor.blockd.info'],
        ['--discovery.interval', '0'],
      ].map((flags) => runCli(['--datadir', join(datadir, 'disc'), ...mordor, ...flags], undefined, 20_000)),
    );
    // A bad value is a mistake on the command line (exit 2, no prefix); an unusable one, the configuration's.
    const [dnsServer, tree, interval] = [oneLine(runs[0]!), oneLine(runs[1]!), oneLine(runs[2]!, 2)];
    expect(dnsServer).toMatch(/^svc-node: network\.discovery\.dns-server \(--dns\.server\) must be an IP address/);
    expect(tree).toBe(
      'svc-node: network.discovery.dns (--dns): "all.mordor.blockd.info" is not an enrtree://<public key>@<domain> URL',
    );
    expect(interval).toMatch(/^network\.discovery\.interval \(--discovery\.interval\) must be a duration from 1s/);
    for (const run of runs) expect(run.stdout).not.toMatch(/chain opened/);
  });

  it('--mine on mordor without --miner.coinbase is refused, as geth refuses to mine without an etherbase', async () => {
    const run = await runCli(['--network', 'mordor', '--mine', '--datadir', join(datadir, 'mine'), '--http.port', '0']);
    expect(oneLine(run)).toBe(
      'svc-node: mining.mining-enabled (--mine) on mordor needs mining.coinbase (--miner.coinbase <address>): ' +
        'without it the block rewards would go to the zero address',
    );
    expect(run.stdout).not.toMatch(/chain opened/);
  });

  it('a datadir that cannot be a directory is refused in one line naming --datadir, before the chain opens', async () => {
    const file = join(datadir, 'a-file');
    writeFileSync(file, '');
    // Under /proc a directory cannot be made, and Node's recursive mkdir retried that for ever at full CPU.
    const runs = await Promise.all(
      [file, join(file, 'sub'), '/proc/svc-node-datadir'].map((d) =>
        runCli(['--datadir', d, '--http.port', '0'], undefined, 20_000),
      ),
    );
    const [isFile, underFile, proc] = runs.map((run) => oneLine(run));
    expect(isFile).toBe(`svc-node: cannot use the datadir ${file}: it is a file; choose another with --datadir`);
    expect(underFile).toBe(
      `svc-node: cannot use the datadir ${join(file, 'sub')}: ${file} is a file, not a directory; ` +
        'choose another with --datadir',
    );
    expect(proc).toMatch(
      /^svc-node: cannot use the datadir \/proc\/svc-node-datadir: .*; choose another with --datadir$/,
    );
    for (const run of runs) expect(run.stdout).not.toMatch(/chain opened/);
  });

  it('an address this machine does not have is refused before the chain opens', async () => {
    const runs = await Promise.all([
      runCli(['--datadir', join(datadir, 'c'), '--http.addr', '999.1.1.1']),
      runCli(['--datadir', join(datadir, 'c'), '--p2p.addr', 'nonsense']),
      runCli(['--datadir', join(datadir, 'c'), '--http.addr', '203.0.113.77']),
    ]);
    const [badIp, unknownName, otherMachine] = runs.map((run) => oneLine(run));
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
      'network.max-peers (--maxpeers) must be an integer of at least 1 (to run without peers: --no-p2p); ' +
      `got "${n}"`;
    expect(runs.map((run) => oneLine(run, 2))).toEqual([expected('0'), expected('-1')]);
  });

  it('ports above 65535 and durations beyond what a timer holds are refused with their range', async () => {
    const [bigPort, longPing] = await Promise.all([
      runCli(['--datadir', join(datadir, 'e'), '--p2p.port', '65536']),
      runCli(['--datadir', join(datadir, 'e')], { SVC_NODE_NETWORK_RPC_WS_PING_INTERVAL: '1000h' }),
    ]);
    expect(oneLine(bigPort, 2)).toMatch(
      /network\.server-address\.port \(--p2p\.port\) must be an integer from 0 to 65535/,
    );
    expect(oneLine(longPing)).toMatch(
      /\(environment SVC_NODE_NETWORK_RPC_WS_PING_INTERVAL\) must be a duration from 0 to/,
    );
  });
});
