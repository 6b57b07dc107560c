/**
 * `npm run cluster`: three svc-node dev nodes on loopback that peer with each other through static peers, node1
 * mining an empty block every 2 s (and any transaction at once), nodes 2 and 3 following it over devp2p. Prints
 * each node's URLs and enode, prefixes each log line with the node's name, and stops the three on Ctrl-C/SIGTERM.
 *
 *   npm run cluster -- [--base-dir .cluster] [--http-ports 8546,8547,8549] [--p2p-ports 30303,30304,30305]
 *                      [--block-time 2s] [--reset]
 *
 * The datadirs survive a stop, so the next run continues the same chain with the same enodes; --reset starts over.
 * The npm script `exec`s tsx: npm passes a SIGTERM on to its child only, and a shell left between npm and tsx died
 * of it without passing it on, so the nodes outlived a supervisor's stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  DEFAULT_BASE_DIR,
  DEFAULT_BLOCK_TIME,
  DEFAULT_HTTP_PORTS,
  DEFAULT_P2P_PORTS,
  nodeCommand,
  parsePortList,
  prepareCluster,
  type ClusterNodeSpec,
  type ClusterOptions,
} from './cluster/layout.js';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const START_TIMEOUT_MS = 60_000;
/** After SIGTERM, how long a node may take to close its database before it is killed. */
const STOP_GRACE_MS = 15_000;

const USAGE = `usage: npm run cluster -- [options]

  --base-dir <dir>        folder holding node1/ node2/ node3/ (default ${DEFAULT_BASE_DIR})
  --http-ports <a,b,c>    JSON-RPC ports, HTTP and WebSocket at /ws (default ${DEFAULT_HTTP_PORTS.join(',')})
  --p2p-ports <a,b,c>     devp2p TCP ports (default ${DEFAULT_P2P_PORTS.join(',')})
  --block-time <period>   node1 seals an empty block this often (default ${DEFAULT_BLOCK_TIME})
  --reset                 delete the three datadirs first (new chain, new node keys)
  -h, --help              this text`;

const tty = process.stdout.isTTY === true;
const COLOURS = ['\x1b[36m', '\x1b[35m', '\x1b[33m'];
const paint = (text: string, colour: string) => (tty ? `${colour}${text}\x1b[0m` : text);

function readOptions(): { options: ClusterOptions; reset: boolean } {
  const { values } = parseArgs({
    options: {
      'base-dir': { type: 'string', default: DEFAULT_BASE_DIR },
      'http-ports': { type: 'string', default: DEFAULT_HTTP_PORTS.join(',') },
      'p2p-ports': { type: 'string', default: DEFAULT_P2P_PORTS.join(',') },
      'block-time': { type: 'string', default: DEFAULT_BLOCK_TIME },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    options: {
      baseDir: values['base-dir'],
      httpPorts: parsePortList(values['http-ports']),
      p2pPorts: parsePortList(values['p2p-ports']),
      blockTime: values['block-time'],
    },
    reset: values.reset,
  };
}

/** A node's JSON log line as `HH:MM:SS.mmm LEVEL msg key=value…` (the node's own terminal format, shortened). */
function renderLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (entry === null || typeof entry !== 'object') return line;
  const { time, level, msg, ...fields } = entry;
  const clock = typeof time === 'string' ? time.slice(11, 23) : '';
  let text = `${clock} ${String(level ?? '')
    .toUpperCase()
    .padEnd(5)} ${String(msg ?? '')}`;
  for (const [key, value] of Object.entries(fields)) {
    const shown =
      typeof value === 'string' ? (/[\s"=]/.test(value) ? JSON.stringify(value) : value) : JSON.stringify(value);
    text += ` ${key}=${shown}`;
  }
  return text;
}

interface RunningNode {
  readonly spec: ClusterNodeSpec;
  readonly child: ChildProcess;
  /** The node's `listening` log entry. */
  readonly ready: Promise<Record<string, unknown>>;
  readonly exited: Promise<void>;
}

function startNode(spec: ClusterNodeSpec, options: ClusterOptions, colour: string): RunningNode {
  const { args, env } = nodeCommand(spec, options);
  // What `svc-node` runs (bin/svc-node.js: the bundle, brought up to date with src/ first), not src/main.ts through
  // tsx, whose transform cost each node ~3 s of CPU at every start. node1 starts alone, so only its start can find
  // stale sources to compile; nodes 2 and 3 find none.
  const child = spawn(process.execPath, ['bin/svc-node.js', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: Ctrl-C reaches only this script, which stops the nodes itself (all, in one place).
    detached: true,
  });
  const prefix = paint(spec.name.padEnd(6), colour) + '| ';
  const ready = new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${spec.name} did not report listening within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      console.log(prefix + renderLogLine(line));
      if (!line.includes('"listening"')) return;
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry.msg === 'listening') {
          clearTimeout(timer);
          resolve(entry);
        }
      } catch {
        // not a JSON line
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${spec.name} exited (${signal ?? `code ${code}`}) before listening`));
    });
  });
  ready.catch(() => undefined);
  createInterface({ input: child.stderr! }).on('line', (line) => console.error(prefix + line));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { spec, child, ready, exited };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function main(): Promise<void> {
  const { options, reset } = readOptions();
  const specs = prepareCluster(options, reset);
  const nodes: RunningNode[] = [];

  let stopping = false;
  const stopAll = async (exitCode: number) => {
    if (stopping) {
      // A second Ctrl-C: do not wait for a clean close.
      for (const node of nodes) signalGroup(node.child, 'SIGKILL');
      return;
    }
    stopping = true;
    console.log(`stopping ${nodes.length} node(s)…`);
    for (const node of nodes) signalGroup(node.child, 'SIGTERM');
    const killer = setTimeout(
      () =>
        nodes.forEach((node) => {
          signalGroup(node.child, 'SIGKILL');
        }),
      STOP_GRACE_MS,
    );
    await Promise.all(nodes.map((node) => node.exited));
    clearTimeout(killer);
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  // Last resort (an exception in this script): never leave detached nodes behind.
  process.on('exit', () =>
    nodes.forEach((node) => {
      signalGroup(node.child, 'SIGKILL');
    }),
  );

  const launch = (i: number) => {
    const node = startNode(specs[i], options, COLOURS[i]);
    nodes.push(node);
    node.exited.then(() => {
      if (stopping) return;
      console.error(
        `${node.spec.name} stopped unexpectedly (exit ${node.child.exitCode ?? node.child.signalCode}); stopping the cluster`,
      );
      void stopAll(1);
    });
    return node.ready;
  };

  try {
    // node1 first: it is everyone's static peer, and it builds the shared Ethash cache the others then read.
    const listening = [await launch(0)];
    listening.push(...(await Promise.all([launch(1), launch(2)])));
    printSummary(specs, listening, options);
  } catch (err) {
    console.error(`cluster did not start: ${(err as Error).message}`);
    await stopAll(1);
  }
}

function printSummary(
  specs: readonly ClusterNodeSpec[],
  listening: readonly Record<string, unknown>[],
  options: ClusterOptions,
): void {
  const lines = ['', `3-node dev cluster running (datadirs in ${options.baseDir}; Ctrl-C stops all three)`];
  specs.forEach((spec, i) => {
    const entry = listening[i];
    const enode = typeof entry.enode === 'string' ? entry.enode : spec.enode;
    // The key was made before the start, so the node must announce the enode written into the others' static peers.
    if (enode !== spec.enode)
      lines.push(`  warning: ${spec.name} announces ${enode}, but its peers were given ${spec.enode}`);
    lines.push(
      paint(`  ${spec.name}`, COLOURS[i]) +
        `  ${spec.mine ? `mining (empty block every ${options.blockTime})` : 'not mining'}`,
      `    http     ${String(entry.url ?? `http://127.0.0.1:${spec.httpPort}/`)}`,
      `    ws       ${String(entry.ws ?? `ws://127.0.0.1:${spec.httpPort}/ws`)}`,
      `    enode    ${enode}`,
      `    peers    ${spec.staticPeers.length === 0 ? '(none: others dial it)' : spec.staticPeers.map((p) => specs.find((s) => s.enode === p)!.name).join(', ')}`,
    );
  });
  console.log(lines.join('\n') + '\n');
}

main().catch((err: unknown) => {
  console.error(`${err instanceof Error ? err.message : String(err)}\n(npm run cluster -- --help lists the options)`);
  process.exit(1);
});
