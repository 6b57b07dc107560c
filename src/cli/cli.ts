/**
 * The composition root of `svc-node`: flags (flags.ts) → configuration → node → services → handlers, metrics
 * and RPC server. Only here are the handlers table and the metrics created and handed to the server.
 * Prints one `listening` log line with the real address, port, network, URLs, head and datadir once the server
 * accepts requests (and, when peering runs, the enode URL and devp2p port); at a terminal, also a start banner
 * (not with `--quiet`), and on the dev chain a `dev accounts` line.
 */
import { parseArgs } from 'node:util';
import { SvcNode, packageVersion } from '../node/node.js';
import { openNodeServices, type NodeServices } from '../node/services.js';
import { runDbPrune } from '../node/db-prune-command.js';
import { runForkCacheCommand } from '../node/fork-cache-command.js';
import { HISTORY_COMMANDS, type HistoryCommand, runHistoryCommand } from '../node/history-commands.js';
import { type DbCommandResult, runDbStats } from '../node/db-stats-command.js';
import { ConfigError, loadConfig } from '../node/config.js';
import { misspeltEnvironment } from '../node/settings/read.js';
import { checkListenHosts } from '../node/listen-hosts.js';
import { ensureDatadir } from '../node/datadir.js';
import { rpcExposure } from '../node/exposure.js';
import { startBanner } from './banner.js';
import { isUdpBindFailure, listenFailure, type Listener } from './listen-errors.js';
import { flagsToSettings, joinNegativeValues, parseOptions } from './flags.js';
import { flagMistake, isFlagValueError, unknownCommand, USAGE_EXIT_CODE } from './flag-errors.js';
import { helpText } from './help.js';
import { createLogger } from '../node/logger.js';
import type { RunningServer } from '../server/server.js';

export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** `svc-node db <subcommand>`: offline work on a datadir's chain database, one module each. */
type DbCommandOptions = Parameters<typeof runDbStats>[1] & { readonly node: SvcNode };
const DB_COMMANDS: Record<string, (args: readonly string[], opts: DbCommandOptions) => Promise<DbCommandResult>> = {
  stats: runDbStats,
  prune: (args, { node }) => runDbPrune(node, args),
};

export type CliOutcome =
  | { readonly exitCode: number }
  | { readonly node: SvcNode; readonly server: RunningServer; stop(): Promise<void> };

export async function runCli(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = { stdout: process.stdout, stderr: process.stderr },
  /** Aborted by a stop signal: a subcommand (import, export) stops between blocks. */
  stop?: AbortSignal,
): Promise<CliOutcome> {
  const fail = (message: string, exitCode = 1): CliOutcome => {
    // A command's mistake in its arguments is a usage error like a flag's: the same one line, unprefixed.
    io.stderr.write(exitCode === USAGE_EXIT_CODE ? `${message}\n` : `svc-node: ${message}\n`);
    return { exitCode };
  };

  // `--help all` is the one place a word stands alone on the command line.
  const helpAll = argv.includes('all') && (argv.includes('--help') || argv.includes('-h'));
  // Each mistake on the command line alone on stderr, in flag-errors.ts's one style.
  const usage = (message: string): CliOutcome => {
    io.stderr.write(`${message}\n`);
    return { exitCode: USAGE_EXIT_CODE };
  };
  const args = joinNegativeValues(helpAll ? argv.filter((a) => a !== 'all') : argv);
  const mistake = flagMistake(args);
  if (mistake !== undefined) return usage(mistake);
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, options: parseOptions, strict: true, allowPositionals: true }));
  } catch (err) {
    // flagMistake let through what parseArgs refuses: its first line, still alone.
    return usage((err as Error).message.split('\n')[0]!);
  }
  const [command, ...commandArgs] = positionals;
  const commands = [...HISTORY_COMMANDS, 'db', 'fork-cache'];
  if (command !== undefined && !commands.includes(command)) return usage(unknownCommand(command, commands));
  const dbCommand = command === 'db' ? DB_COMMANDS[commandArgs[0] ?? ''] : undefined;
  if (command === 'db' && dbCommand === undefined) {
    const dbCommands = Object.keys(DB_COMMANDS);
    return usage(
      commandArgs[0] === undefined
        ? `missing db command; write svc-node db ${dbCommands.join(' or svc-node db ')}`
        : unknownCommand(commandArgs[0], dbCommands, 'db command'),
    );
  }
  if (values.json === true && command !== 'db')
    return usage('--json is an option of db commands; write svc-node db stats --json');
  if (values.help) {
    io.stdout.write(helpText(helpAll));
    return { exitCode: 0 };
  }
  if (values.version) {
    io.stdout.write(`${packageVersion()}\n`);
    return { exitCode: 0 };
  }

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig({ flags: flagsToSettings(values), env, configFile: values.config as string | undefined });
    if (command === 'fork-cache') {
      const result = await runForkCacheCommand(config.forkRequests.cache, commandArgs, io.stdout);
      return result.error === undefined ? { exitCode: result.exitCode } : fail(result.error, result.exitCode);
    }
    await checkListenHosts(config);
    ensureDatadir(config.datadir);
  } catch (err) {
    if (err instanceof ConfigError) return isFlagValueError(err.message, args) ? usage(err.message) : fail(err.message);
    throw err;
  }

  const log = createLogger({ level: config.logLevel, stream: io.stdout });
  for (const { name, meant } of misspeltEnvironment(env))
    log.warn('unknown environment variable, ignored', { name, didYouMean: meant });
  const node = new SvcNode(config, log);
  if (dbCommand !== undefined) {
    const { datadir, network } = config;
    const db = { datadir, network, json: values.json === true, out: io.stdout, progress: io.stderr, node };
    const result = await dbCommand(commandArgs.slice(1), db);
    return result.error === undefined ? { exitCode: result.exitCode } : fail(result.error, result.exitCode);
  }
  if (command !== undefined) {
    const result = await runHistoryCommand(node, command as HistoryCommand, commandArgs, stop);
    return result.error === undefined ? { exitCode: result.exitCode } : fail(result.error, result.exitCode);
  }
  let server: RunningServer | undefined;
  let services: NodeServices | undefined;
  // Which listener is being started, so that a failed bind names its flags.
  let listener: Listener | undefined;
  try {
    // The RPC side (every handler, the server, metrics) loads only for a running node: commands never reach it.
    const [{ handlers }, { startServer }, { createNodeMetrics }] = await Promise.all([
      import('../handlers/index.js'),
      import('../server/server.js'),
      import('../metrics/node-metrics.js'),
    ]);
    services = await openNodeServices(node);
    const metrics = config.rpc.metrics.enabled ? createNodeMetrics(node) : undefined;
    listener = 'rpc';
    server = await startServer(node, { handlers, ...(metrics !== undefined ? { metrics } : {}) });
    node.noteRpcPort(server.port);
    // Peering starts once the RPC server listens; the "listening" line below still waits for it.
    listener = 'p2p';
    await services.startPeers();
  } catch (err) {
    const bind =
      listener === 'rpc'
        ? listenFailure('rpc', config.rpc.http.interface, config.rpc.http.port, err)
        : listener === 'p2p'
          ? isUdpBindFailure(err)
            ? listenFailure('discovery', config.p2p.interface, config.p2p.discoveryPort ?? config.p2p.port, err)
            : listenFailure('p2p', config.p2p.interface, config.p2p.port, err)
          : undefined;
    const message = bind ?? (err instanceof Error ? err.message : String(err));
    log.error('start-up failed', { error: message });
    await server?.close().catch(() => undefined);
    await services?.close().catch(() => undefined);
    return fail(`cannot start: ${message}`);
  }
  // Peering's own address rides on the same line, so scripts (and the test helper) learn every port from one line.
  const peers = node.peers;
  const headBlock = node.engine?.chain.getHead();
  const head =
    headBlock === undefined
      ? undefined
      : { number: headBlock.header.number, hash: `0x${Buffer.from(headBlock.hash()).toString('hex')}` };
  const metricsUrl = config.rpc.metrics.enabled ? new URL('metrics', server.url).href : undefined;
  log.info('listening', {
    address: server.address,
    port: server.port,
    network: config.network,
    url: server.url,
    ws: server.wsUrl,
    apis: config.rpc.apis.join(','),
    datadir: config.datadir,
    ...(head !== undefined ? { head: head.number.toString(), headHash: head.hash } : {}),
    ...(metricsUrl !== undefined ? { metrics: metricsUrl } : {}),
    ...(peers !== undefined ? { enode: peers.enode, p2pPort: peers.listenPort } : {}),
  });
  // Programs read stdout's JSON lines: the banner goes where a person is, stdout at a terminal, else stderr at one
  // (`svc-node | jq`), else nowhere. Without a terminal the dev accounts still show, addresses only: log lines end
  // up in collectors, and no log line carries a key (operating.md); the README names the keys' well-known mnemonic.
  const isDev = config.network === 'dev';
  const devAccounts = services.devAccounts;
  if (isDev) log.info('dev accounts', { addresses: devAccounts.map((a) => a.address) });
  const exposure = rpcExposure(config);
  if (exposure !== undefined) {
    const by = exposure.cors === '*' ? 'to any web page (CORS "*")' : 'to other machines';
    log.warn(`RPC open ${by} without authentication`, {
      ...exposure,
      advice:
        'whoever reaches this port may call these namespaces: turn on network.rpc.auth, listen on 127.0.0.1 ' +
        'behind a proxy with named CORS origins, or leave them out of --apis',
    });
  }
  const bannerStream = io.stdout.isTTY ? io.stdout : io.stderr.isTTY ? io.stderr : undefined;
  if (bannerStream !== undefined && !config.quiet && head !== undefined) {
    bannerStream.write(
      startBanner({
        version: node.version,
        network: config.network,
        chainId: node.network.chainId,
        url: server.url,
        ...(server.wsUrl !== undefined ? { wsUrl: server.wsUrl } : {}),
        ...(metricsUrl !== undefined ? { metricsUrl } : {}),
        ...(config.rpc.apis.includes('mcp') ? { mcpUrl: new URL('mcp', server.url).href } : {}),
        docsUrl: new URL('docs/', server.url).href,
        head,
        datadir: config.datadir,
        ...(peers !== undefined ? { enode: peers.enode } : {}),
        // Only the dev chain has them; a private key printed for a real network would be a defect.
        ...(isDev ? { devAccounts, mnemonic: config.dev.mnemonic } : {}),
      }),
    );
  }
  return {
    node,
    server,
    async stop() {
      log.info('shutting down');
      await server.close();
      await services?.close();
      // The last line: everything is closed and the datadir is free for another node.
      log.info('stopped');
    },
  };
}
