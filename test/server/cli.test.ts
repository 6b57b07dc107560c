/** The command line as a process: --help, start-up failures, and the config file / environment / flag precedence. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startNode } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

describe('svc-node CLI', () => {
  it('prints --help with every flag and exits 0', async () => {
    const run = await runCli(['--help', 'all']);
    expect(run.code).toBe(0);
    for (const flag of [
      '--config',
      '--network',
      '--datadir',
      '--http.addr',
      '--http.port',
      '--apis',
      '--testmode',
      '--log-level',
    ]) {
      expect(run.stdout).toContain(flag);
    }
    for (const flag of [
      '--p2p, --no-p2p',
      '--p2p.addr <address>',
      '--p2p.port <port>',
      '--bootnodes <list>',
      '--maxpeers <n>',
    ]) {
      expect(run.stdout).toContain(flag);
    }
    expect(run.stdout).toContain('SVC_NODE_NETWORK_RPC_HTTP_PORT');
    expect(run.stdout).toContain('network.rpc.http.rate-limit.min-request-interval');
    expect(run.stdout).toContain('SVC_NODE_NETWORK_DISCOVERY_DISCOVERY_ENABLED');
  });

  it('answers an unknown flag with the one it most likely meant, alone on stderr, exit 2', async () => {
    const run = await runCli(['--htpp.port', '1']);
    expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({
      code: 2,
      stderr: 'unknown flag --htpp.port; did you mean --http.port?\n',
      stdout: '',
    });
  });

  it('words every command-line mistake alike: one line, what is wrong; what to do, exit 2', async () => {
    const cases: [string[], string][] = [
      [['--no-such-flag'], 'unknown flag --no-such-flag; svc-node --help lists the flags'],
      [['--override.spiarl', '1'], 'unknown flag --override.spiarl; did you mean --override.spiral?'],
      [['--http.port'], 'missing value for --http.port; write --http.port <value>'],
      [['--http.port', '--mine'], 'missing value for --http.port; write --http.port <value>'],
      [['--mine=yes'], '--mine takes no value; write --mine or --no-mine'],
      [['exprot', 'out.rlp'], 'unknown command exprot; did you mean export?'],
      [['db', 'stat'], 'unknown db command stat; did you mean stats?'],
      [['import'], 'missing file for import; write svc-node import <file>…'],
      [
        ['export', 'out.rlp', 'ten'],
        'export: "ten" is not a block number; write svc-node export <file> [first] [last]',
      ],
      [
        ['--http.port', 'eighty'],
        'network.rpc.http.port (--http.port) must be an integer from 0 to 65535; got "eighty"',
      ],
      [
        ['--apis', 'eth,bogus', '--http.port', '0'],
        'network.rpc.apis (--apis) must name namespaces among eth, web3, net, personal, debug, trace, qa, ' +
          'checkpointing, svc, test, anvil, iele, mcp, rpc, txpool, admin, ots; got bogus',
      ],
    ];
    const runs = await Promise.all(cases.map(([args]) => runCli(args)));
    expect(runs.map((r) => [r.code, r.stderr])).toEqual(cases.map(([, message]) => [2, `${message}\n`]));
  });

  it('fails on a bad value and the test namespace without --testmode', async () => {
    const test = await runCli(['--apis', 'eth,test']);
    expect(test.code).toBe(1);
    expect(test.stderr).toMatch(/testmode/);
    const p2pPort = await runCli(['--p2p.port', '65536']);
    expect(p2pPort.code).toBe(2);
    expect(p2pPort.stderr).toMatch(
      /network\.server-address\.port \(--p2p\.port\) must be an integer from 0 to 65535; got "65536"/,
    );
    const maxPeers = await runCli(['--maxpeers', '0']);
    expect(maxPeers.code).toBe(2);
    expect(maxPeers.stderr).toMatch(/network\.max-peers \(--maxpeers\) must be an integer of at least 1/);
  });

  it('reads a TOML config file, overridden by the environment, overridden by flags', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-node-config-'));
    const file = join(dir, 'node.toml');
    writeFileSync(
      file,
      [
        '[blockchains]',
        'network = "mordor"',
        '[network.rpc]',
        'apis = "eth,web3,net,personal"',
        '[network.rpc.http]',
        'port = 0',
        'cors-allowed-origins = ["https://app.example"]',
      ].join('\n'),
    );
    const node = await startNode({
      args: ['--config', file, '--apis', 'eth,web3'],
      env: {
        SVC_NODE_NETWORK_RPC_APIS: 'net',
        // No settings: a flag written as a variable, a typo, and a name like no setting (left alone).
        SVC_NODE_HTTP_PORT: '9',
        SVC_NODE_NETWORK_RPC_APIZ: 'eth',
        SVC_NODE_WHATEVER_THE_CONTAINER_SETS: '1',
      },
    });
    try {
      expect(node.logs.filter((l) => l.msg === 'unknown environment variable, ignored')).toEqual([
        expect.objectContaining({
          level: 'warn',
          name: 'SVC_NODE_HTTP_PORT',
          didYouMean: 'SVC_NODE_NETWORK_RPC_HTTP_PORT',
        }),
        expect.objectContaining({ name: 'SVC_NODE_NETWORK_RPC_APIZ', didYouMean: 'SVC_NODE_NETWORK_RPC_APIS' }),
      ]);
      expect((await post(node.url, request('net_version'))).body.error.code).toBe(-32601); // flag beat env
      expect((await post(node.url, request('eth_chainId'))).body.result).toBe('0x3f'); // from the file
      const allowed = await post(node.url, request('eth_chainId'), { headers: { origin: 'https://app.example' } });
      expect(allowed.status).toBe(200);
    } finally {
      await node.stop();
    }
    const unknownKey = join(dir, 'bad.toml');
    writeFileSync(unknownKey, '[network.rpc.http]\nprot = 1\n');
    const run = await runCli(['--config', unknownKey]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /unknown setting "network\.rpc\.http\.prot" in .*: did you mean network\.rpc\.http\.port\?/,
    );
  });
});
