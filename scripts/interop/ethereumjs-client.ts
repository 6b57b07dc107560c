/**
 * Starts `@ethereumjs/client` (installed by install-ethereumjs-client.sh) on svc-node's dev chain as a
 * child process in its own process group, learns its enode from its start-up log, and talks to it
 * over JSON-RPC. Used by test/p2p/interop-ethereumjs.test.ts.
 *
 * What the client offers and lacks (read in its bin/utils.ts and src/, version 0.10.5):
 *   - No node-key flag: the key is generated on first start and kept in `<dataDir>/<chain>/config`
 *     (LevelDB key `config:client_key`), so a fresh data dir means a fresh node id. Its enode is in the
 *     `Server listener up transport=rlpx url=enode://<id>@<extIP>:<port>` log line and in
 *     `admin_nodeInfo`.
 *   - RLPx and the discv4 socket always bind 0.0.0.0 (hard-coded; `--extIP` only changes what the enode
 *     says), so the process is started with loopback-only.mjs preloaded, which moves them to 127.0.0.1. With `--discV4=false --discDns=false` nothing is discovered or dialled, but the UDP socket is
 *     still bound on the RLPx port number.
 *   - If the RLPx port is taken, it logs the error and carries on without a listener, so the port must be
 *     free beforehand (`freePort`, test/helpers/free-port.ts); `--port 0` would put port 0 into the enode.
 *   - It dials `--bootnodes` only after a discv4 PING/PONG, which svc-node does not answer: svc-node dials it.
 *   - Its "Started JSON RPC Server" line is logged before the HTTP socket is bound; `start` waits for an answer.
 *   - SIGTERM waits for the chain lock and takes seconds; the test kills the whole group with SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../test/helpers/free-port.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface EthereumjsClientOptions {
  /** The client's cli.js (the last line install-ethereumjs-client.sh prints). */
  readonly entry: string;
  readonly chainPath: string;
  readonly genesisStatePath: string;
  /** RLPx (and discv4 UDP) port; a free one when omitted. */
  readonly port?: number;
  /** JSON-RPC port on 127.0.0.1; a free one when omitted. */
  readonly rpcPort?: number;
  /** Extra flags, e.g. `--logLevel debug`, `--mine --unlock <file> --isSingleNode`. */
  readonly extraArgs?: readonly string[];
  /** How long to wait for both the RLPx listener and the RPC server (default 60 s). */
  readonly startTimeoutMs?: number;
}

export interface EthereumjsClient {
  readonly child: ChildProcess;
  readonly dataDir: string;
  readonly port: number;
  readonly rpcUrl: string;
  /** 128 hex digits. */
  readonly nodeId: string;
  /** `enode://<nodeId>@127.0.0.1:<port>`, ready for net_connectToPeer. */
  readonly enode: string;
  /** Every stdout/stderr line so far (its logger colours nothing when not on a TTY). */
  readonly logLines: string[];
  /** Resolves with the first log line (past or future) matching `pattern`. */
  waitForLog(pattern: RegExp, timeoutMs: number): Promise<string>;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** SIGKILLs the process group and removes the data dir. */
  stop(): Promise<void>;
}

const LOOPBACK_PRELOAD = pathToFileURL(fileURLToPath(new URL('./loopback-only.mjs', import.meta.url))).href;

const LISTENER_LINE = /Server listener up transport=rlpx url=enode:\/\/([0-9a-f]{128})@/;
const RPC_LINE = /Started JSON RPC Server address=/;

export async function startEthereumjsClient(options: EthereumjsClientOptions): Promise<EthereumjsClient> {
  const port = options.port ?? (await freePort());
  const rpcPort = options.rpcPort ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-node-ethereumjs-data-'));
  const args = [
    options.entry,
    '--dataDir',
    dataDir,
    '--customChain',
    options.chainPath,
    '--customGenesisState',
    options.genesisStatePath,
    '--port',
    String(port),
    '--extIP',
    '127.0.0.1',
    '--discV4=false',
    '--discDns=false',
    '--rpc',
    '--rpcAddr',
    '127.0.0.1',
    '--rpcPort',
    String(rpcPort),
    '--logFile=false',
    ...(options.extraArgs ?? []),
  ];
  // Its own process group, so stop() can kill it and anything it spawned with one signal.
  // Loopback only (its sockets would bind 0.0.0.0: see loopback-only.mjs), and run in its data dir, where it
  // writes its log-rotation files.
  const child = spawn(process.execPath, ['--import', LOOPBACK_PRELOAD, ...args], {
    cwd: dataDir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  const logLines: string[] = [];
  const watchers = new Set<(line: string) => void>();
  const onOutput = (stream: NodeJS.ReadableStream) => {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        logLines.push(line);
        for (const watch of watchers) watch(line);
      }
    });
  };
  onOutput(child.stdout!);
  onOutput(child.stderr!);

  const waitForLog = (pattern: RegExp, timeoutMs: number): Promise<string> => {
    const seen = logLines.find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        watchers.delete(watch);
        child.off('exit', onExit);
      };
      const watch = (line: string) => {
        if (!pattern.test(line)) return;
        done();
        resolve(line);
      };
      const onExit = (code: number | null) => {
        done();
        reject(
          new Error(`ethereumjs client exited (${code}) before logging ${pattern}\n${logLines.slice(-30).join('\n')}`),
        );
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `ethereumjs client did not log ${pattern} within ${timeoutMs} ms\n${logLines.slice(-30).join('\n')}`,
          ),
        );
      }, timeoutMs);
      watchers.add(watch);
      child.once('exit', onExit);
    });
  };

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const rpcUrl = `http://127.0.0.1:${rpcPort}/`;
  let nextId = 1;
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    const body = (await response.json()) as { result?: T; error?: { code: number; message: string } };
    if (body.error !== undefined) throw new Error(`ethereumjs ${method}: ${body.error.code} ${body.error.message}`);
    return body.result as T;
  };

  try {
    const timeoutMs = options.startTimeoutMs ?? 60_000;
    const listenerLine = await waitForLog(LISTENER_LINE, timeoutMs);
    await waitForLog(RPC_LINE, timeoutMs);
    // That line is logged right after listen() is called, not once the socket is bound: ask until it answers.
    for (let attempt = 0; ; attempt++) {
      try {
        await rpc('web3_clientVersion');
        break;
      } catch (error) {
        if (attempt >= 50 || child.exitCode !== null) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const nodeId = LISTENER_LINE.exec(listenerLine)![1]!;
    return {
      child,
      dataDir,
      port,
      rpcUrl,
      nodeId,
      enode: `enode://${nodeId}@127.0.0.1:${port}`,
      logLines,
      waitForLog,
      rpc,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
