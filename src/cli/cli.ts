/**
 * The composition root of `svc-node`: flags (flags.ts) → configuration → node → services → handlers, metrics
 * and RPC server. Only here are the handlers table and the metrics created and handed to the server.
 * Prints one `listening` log line with the real address, port, network, URLs, head and datadir once the server
 * accepts requests (and, when peering runs, the enode URL and devp2p port); at a terminal, also a start banner.
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { handlers } from '../handlers/index.js';
import { createNodeMetrics } from '../metrics/node-metrics.js';
import { SvcNode, packageVersion } from '../node/node.js';
import { openNodeServices, type NodeServices } from '../node/services.js';
import { HISTORY_COMMANDS, type HistoryCommand, historyUsage, runHistoryCommand } from '../node/history-commands.js';
import { ConfigError, loadConfig } from '../node/config.js';
import { startBanner } from './banner.js';
import { flagsToSettings, helpText, parseOptions } from './flags.js';
import { createLogger } from '../node/logger.js';
import { startServer, type RunningServer } from '../server/server.js';

export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream;
}

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
    io.stderr.write(`svc-node: ${message}\n`);
    return { exitCode };
  };

  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: parseOptions,
      strict: true,
      allowPositionals: true,
    }));
  } catch (err) {
    return fail(`${(err as Error).message}\nRun svc-node --help for the options.`, 2);
  }
  const [command, ...commandArgs] = positionals;
  if (command !== undefined && !HISTORY_COMMANDS.includes(command as HistoryCommand))
    return fail(`unknown command "${command}" (commands: ${HISTORY_COMMANDS.join(', ')})\n${historyUsage}`, 2);
  if (values.help) {
    io.stdout.write(helpText());
    return { exitCode: 0 };
  }
  if (values.version) {
    io.stdout.write(`${packageVersion()}\n`);
    return { exitCode: 0 };
  }

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig({ flags: flagsToSettings(values), env, configFile: values.config as string | undefined });
  } catch (err) {
    if (err instanceof ConfigError) return fail(err.message);
    throw err;
  }

  const log = createLogger({ level: config.logLevel, stream: io.stdout });
  const node = new SvcNode(config, log);
  if (command !== undefined) {
    mkdirSync(config.datadir, { recursive: true });
    const result = await runHistoryCommand(node, command as HistoryCommand, commandArgs, stop);
    return result.error === undefined ? { exitCode: result.exitCode } : fail(result.error, result.exitCode);
  }
  let server: RunningServer | undefined;
  let services: NodeServices | undefined;
  try {
    mkdirSync(config.datadir, { recursive: true });
    services = await openNodeServices(node);
    const metrics = config.rpc.metrics.enabled ? createNodeMetrics(node) : undefined;
    server = await startServer(node, { handlers, ...(metrics !== undefined ? { metrics } : {}) });
    node.noteRpcPort(server.port);
    // Peering starts once the RPC server listens; the "listening" line below still waits for it.
    await services.startPeers();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
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
  // At a terminal, the same facts once more in a layout for people (the log line above stays for programs).
  if (io.stdout.isTTY && head !== undefined) {
    io.stdout.write(
      startBanner({
        version: node.version,
        network: config.network,
        chainId: node.network.chainId,
        url: server.url,
        ...(server.wsUrl !== undefined ? { wsUrl: server.wsUrl } : {}),
        ...(metricsUrl !== undefined ? { metricsUrl } : {}),
        docsUrl: new URL('docs/', server.url).href,
        head,
        datadir: config.datadir,
        ...(peers !== undefined ? { enode: peers.enode } : {}),
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
    },
  };
}
