/**
 * The container files, checked without a Docker engine (this machine has none):
 * - the Dockerfile is multi-stage, runs as a non-root user with /data as a volume and a health check on /health,
 *   and its build commands and entry point are the operating guide's "without Docker" commands, in order; the docker
 *   commands in its header are the guide's;
 * - docker-compose.yml's three nodes carry the flags and environment `npm run cluster` gives its nodes
 *   (scripts/cluster/layout.ts), translated for containers, and its enodes are the public keys of docker/cluster/.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { nodeIdOf } from '../../src/p2p/node-key.js';
import { formatEnode, parseEnode } from '../../src/p2p/enode.js';
import {
  nodeCommand,
  prepareCluster,
  DEFAULT_BLOCK_TIME,
  DEFAULT_HTTP_PORTS,
  DEFAULT_P2P_PORTS,
} from '../../scripts/cluster/layout.js';
import { repoRoot } from '../helpers/node-process.js';

const read = (name: string) => readFileSync(join(repoRoot, name), 'utf8');

interface Instruction {
  readonly keyword: string;
  readonly args: string;
  /** Index of the build stage (FROM) it belongs to. */
  readonly stage: number;
}

/** Dockerfile → instructions, with `\` continuations joined and comments dropped. */
function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  let stage = -1;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    const space = full.indexOf(' ');
    const keyword = full.slice(0, space).toUpperCase();
    if (keyword === 'FROM') stage++;
    out.push({ keyword, args: full.slice(space + 1).trim(), stage });
  }
  return out;
}

/** The exec form `["a", "b"]` or the shell form `a b` as words. */
const words = (args: string): string[] => (args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/));

/** The commands of the operating guide's fenced sh block that follows `marker` (comments and blank lines dropped). */
function readmeBlockAfter(readme: string, marker: string): string[] {
  const at = readme.indexOf(marker);
  expect(at, `the operating guide has "${marker}"`).toBeGreaterThan(-1);
  const start = readme.indexOf('```sh\n', at) + '```sh\n'.length;
  const end = readme.indexOf('```', start);
  return readme
    .slice(start, end)
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

describe('Dockerfile', () => {
  const instructions = parseDockerfile(read('Dockerfile'));
  const last = Math.max(...instructions.map((i) => i.stage));
  const final = instructions.filter((i) => i.stage === last);
  const one = (keyword: string) => {
    const found = final.filter((i) => i.keyword === keyword);
    expect(found, keyword).toHaveLength(1);
    return found[0]!.args;
  };

  it('builds in one stage and runs from another, as a non-root user, with /data as a volume and a health check on /health', () => {
    const stages = instructions.filter((i) => i.keyword === 'FROM').map((i) => i.args);
    expect(stages).toHaveLength(2);
    expect(stages[0]).toMatch(/^node:20\S* AS build$/);
    expect(final.filter((i) => i.keyword === 'COPY').every((i) => i.args.startsWith('--from=build '))).toBe(true);
    expect(one('USER')).not.toMatch(/^(root|0)$/);
    expect(words(one('VOLUME'))).toEqual(['/data']);
    expect(one('HEALTHCHECK')).toMatch(/CMD .*http:\/\/127\.0\.0\.1:8546\/health/);
    expect(words(one('ENTRYPOINT'))).toEqual(expect.arrayContaining(['--http.addr', '0.0.0.0', '--datadir', '/data']));
  });

  it('runs the operating guide’s build commands and entry point, in order', () => {
    const readme = read('codegen/docs/guides/operating.md');
    const build = instructions.filter((i) => i.stage === 0 && i.keyword === 'RUN').map((i) => words(i.args).join(' '));
    const entry = words(one('ENTRYPOINT')).join(' ');
    expect([...build, entry]).toEqual(
      readmeBlockAfter(readme, 'The image runs exactly what you can run without Docker'),
    );
    // The usage in the Dockerfile's header is the guide's.
    const header = read('Dockerfile')
      .split('\n')
      .filter((l) => /^#\s+docker /.test(l))
      .map((l) => l.replace(/^#\s+/, '').replace(/\s+#.*$/, ''));
    expect(header.length).toBeGreaterThanOrEqual(2);
    const readmeDocker = readmeBlockAfter(readme, '## Container');
    for (const command of header) expect(readmeDocker).toContain(command);
  });
});

describe('docker-compose.yml', () => {
  interface Service {
    command: string[];
    environment: Record<string, string>;
    ports: string[];
    volumes: string[];
    depends_on?: string[];
  }
  const compose = parseYaml(read('docker-compose.yml')) as {
    services: Record<string, Service>;
    volumes: Record<string, unknown>;
  };

  /** `--flag value` pairs (and bare boolean flags as true) of a command line. */
  const flagsOf = (args: readonly string[]): Map<string, string | true> => {
    const flags = new Map<string, string | true>();
    for (let i = 0; i < args.length; i++) {
      const next = args[i + 1];
      if (next !== undefined && !next.startsWith('--')) flags.set(args[i]!, args[++i]!);
      else flags.set(args[i]!, true);
    }
    return flags;
  };

  it('gives each node the flags and environment of npm run cluster, translated for containers', () => {
    const base = mkdtempSync(join(tmpdir(), 'svc-compose-'));
    try {
      const options = {
        baseDir: base,
        httpPorts: DEFAULT_HTTP_PORTS,
        p2pPorts: DEFAULT_P2P_PORTS,
        blockTime: DEFAULT_BLOCK_TIME,
      };
      const specs = prepareCluster(options);
      expect(Object.keys(compose.services)).toEqual(specs.map((s) => s.name));
      const names = new Map(specs.map((s) => [s.p2pPort, s.name]));
      for (const spec of specs) {
        const service = compose.services[spec.name]!;
        const { args, env } = nodeCommand(spec, options);
        const cluster = flagsOf(args);
        // What the image's entry point gives (--datadir /data, --http.addr 0.0.0.0), the port mapping replaces
        // (--http.port), or a per-node volume replaces (--ethash.cachedir): not repeated in the compose command.
        expect(cluster.get('--http.addr')).toBe('127.0.0.1');
        expect(service.ports).toEqual([`127.0.0.1:${cluster.get('--http.port')}:8546`]);
        for (const flag of ['--datadir', '--http.addr', '--http.port', '--ethash.cachedir']) cluster.delete(flag);
        cluster.set('--p2p.addr', '0.0.0.0');
        const composed = flagsOf(service.command);
        const bootnodes = composed.get('--bootnodes');
        composed.delete('--bootnodes');
        expect(Object.fromEntries(composed), spec.name).toEqual(Object.fromEntries(cluster));
        expect(service.environment).toEqual(env);
        expect(service.volumes).toEqual([`${spec.name}:/data`, `./docker/cluster/${spec.name}.key:/data/node.key:ro`]);

        // The static peers of the cluster, by service name and with the committed keys' ids.
        const peers = typeof bootnodes === 'string' ? bootnodes.split(',').map(parseEnode) : [];
        expect(peers.map((p) => `${p.host}:${p.port}`)).toEqual(
          spec.staticPeers.map((url) => {
            const { port } = parseEnode(url);
            return `${names.get(port)}:${port}`;
          }),
        );
        for (const peer of peers) expect(formatEnode(peer)).toBe(formatEnode({ ...peer, id: idOfKeyFile(peer.host) }));
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

function idOfKeyFile(service: string): Uint8Array {
  const hex = readFileSync(join(repoRoot, 'docker/cluster', `${service}.key`), 'utf8').trim();
  return nodeIdOf(Uint8Array.from(Buffer.from(hex, 'hex')));
}
