/**
 * Every snippet the guides and README.md's quick start mark as tested (```sh test, ```js test, ```python test) runs
 * against a fresh dev node, one node per page, in the order of the page: shell snippets through `sh` (curl, cast),
 * JS snippets as ES modules in a scratch project that sees the repo's node_modules, `svc-node/client` and
 * `svc-node-client`, Python snippets with python3 and clients/python on PYTHONPATH (skipped, saying so, without a
 * python3 ≥ 3.10). A `# => text` or `// => text` comment is what the reader is told to expect: the output must
 * contain each, in order. The node's URL replaces 127.0.0.1:8546 (the default port the guides name). `svc-node`
 * (and `npx svc-node`) is this checkout's bin/svc-node.js, as an installed package puts it on the PATH; shell
 * snippets run in a scratch directory, so the datadirs they name are throwaway ones.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDES } from '../../codegen/docs/guides.js';
import { repoRoot, startNode, type NodeProcess } from '../helpers/node-process.js';

type Language = 'sh' | 'js' | 'python';

interface Snippet {
  readonly language: Language;
  readonly code: string;
  readonly line: number;
  readonly expected: readonly string[];
}

function snippetsOf(markdown: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(sh|js|python) test\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    while (i + 1 < lines.length && !/^```\s*$/.test(lines[i + 1])) i++;
    const code = lines.slice(start, i + 1).join('\n');
    i++;
    const marker = open[1] === 'sh' ? /^\s*# => (.+)$/ : open[1] === 'python' ? /# => (.+)$/ : /\/\/ => (.+)$/;
    const expected = code.split('\n').flatMap((l) => {
      const m = marker.exec(l);
      return m ? [m[1].trim()] : [];
    });
    snippets.push({ language: open[1] as Language, code, line: start, expected });
  }
  return snippets;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Foundry's cast, when a devDependency or the PATH provides it. */
function findCast(): string | undefined {
  const dirs = [join(repoRoot, 'node_modules/.bin'), ...(process.env.PATH ?? '').split(delimiter)];
  for (const dir of dirs) {
    try {
      if (readdirSync(dir).includes('cast')) return join(dir, 'cast');
    } catch {
      // not a directory
    }
  }
  return undefined;
}

/**
 * A scratch project as the guides tell a reader to make one: "type": "module", the libraries installed, and
 * `svc-node/client`, which the node's package.json exports from the client package's build
 * (clients/typescript/dist/, written by `npm install`'s prepare, or here by `node bin/build.js --client` when missing).
 */
function scratchProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-guide-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'guide-snippets', private: true, type: 'module' }));
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(join(repoRoot, 'node_modules'))) {
    if (entry.startsWith('.') || entry === 'svc-node' || entry === 'svc-node-client') continue;
    symlinkSync(join(repoRoot, 'node_modules', entry), join(modules, entry));
  }
  const pkg = join(modules, 'svc-node');
  mkdirSync(pkg);
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    exports: unknown;
  };
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: manifest.name, version: manifest.version, type: 'module', exports: manifest.exports }),
  );
  symlinkSync(join(repoRoot, 'clients'), join(pkg, 'clients'));
  // The client package as README.md tells a project to install it.
  symlinkSync(join(repoRoot, 'clients/typescript'), join(modules, 'svc-node-client'));
  // The command, as installing the package links it.
  mkdirSync(join(modules, '.bin'));
  symlinkSync(join(repoRoot, 'bin/svc-node.js'), join(modules, '.bin/svc-node'));
  if (!existsSync(join(repoRoot, 'clients/typescript/dist/index.js'))) {
    execFileSync(process.execPath, [join(repoRoot, 'bin/build.js'), '--client'], { cwd: repoRoot, stdio: 'ignore' });
  }
  return dir;
}

const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const NO_PYTHON =
  python.status === 0 && /Python 3\.(1\d|[2-9]\d)/.test(python.stdout + python.stderr)
    ? undefined
    : 'no python3 ≥ 3.10 on the PATH';

const cast = findCast();
// @foundry-rs/cast (a devDependency) brings the binary in a per-platform optional package; other platforms have none.
const NO_CAST = `Foundry's cast is not installed (no @foundry-rs/cast binary for ${process.platform}-${process.arch} in node_modules/.bin or the PATH)`;

describe('guide snippets against a dev node', () => {
  let project: string;
  beforeAll(() => {
    project = scratchProject();
  });
  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
  });

  it('every guide marks snippets the suite runs', () => {
    const counted = GUIDES.map((g) => [
      g.slug,
      snippetsOf(readFileSync(join(repoRoot, 'codegen/docs/guides', `${g.slug}.md`), 'utf8')).length,
    ]);
    for (const slug of GUIDES.map((g) => g.slug).filter((s) => s !== 'operating' && s !== 'contributing')) {
      expect(counted.find(([s]) => s === slug)?.[1], slug).toBeGreaterThan(0);
    }
  });

  const pages = [
    ...GUIDES.map((g) => ({ slug: g.slug, file: join(repoRoot, 'codegen/docs/guides', `${g.slug}.md`) })),
    { slug: 'README', file: join(repoRoot, 'README.md') },
  ];
  for (const guide of pages) {
    const file = guide.file;
    const snippets = snippetsOf(readFileSync(file, 'utf8'));
    if (snippets.length === 0) continue;

    describe(guide.slug, () => {
      let node: NodeProcess | undefined;
      // A page none of whose snippets names the node's URL (history.md's export and import, configuration.md's
      // --help) cannot reach a node: none is started for it.
      const needsNode = snippets.some((snippet) => snippet.code.includes('127.0.0.1:8546'));
      beforeAll(async () => {
        if (needsNode) node = await startNode();
      });
      afterAll(async () => {
        await node?.stop();
      });

      snippets.forEach((snippet, index) => {
        const usesCast = snippet.language === 'sh' && /^\s*cast\s/m.test(snippet.code);
        const skip = usesCast && !cast ? NO_CAST : snippet.language === 'python' ? NO_PYTHON : undefined;
        const label = `${guide.slug}.md:${snippet.line} ${snippet.language} #${index + 1}${skip ? ` (skipped: ${skip})` : ''}`;
        it.skipIf(skip !== undefined)(label, async () => {
          const code = node ? snippet.code.replaceAll('127.0.0.1:8546', `127.0.0.1:${node.port}`) : snippet.code;
          const path = [join(project, 'node_modules/.bin'), ...(cast ? [join(cast, '..')] : []), process.env.PATH];
          const result =
            snippet.language === 'sh'
              ? await run('sh', ['-e', '-c', code], project, { PATH: path.join(delimiter) })
              : snippet.language === 'python'
                ? await (async () => {
                    const script = join(project, `${guide.slug}-${index + 1}.py`);
                    writeFileSync(script, code);
                    return run('python3', [script], project, { PYTHONPATH: join(repoRoot, 'clients/python') });
                  })()
                : await (async () => {
                    const script = join(project, `${guide.slug}-${index + 1}.js`);
                    writeFileSync(script, code);
                    return run(process.execPath, [script], project, {});
                  })();
          const context = `\n--- snippet (${guide.slug}.md line ${snippet.line}) ---\n${code}\n--- output ---\n${result.output}`;
          expect(result.code, `exit status${context}`).toBe(0);
          expect(result.output, `a JSON-RPC error${context}`).not.toMatch(/"error"\s*:/);
          let from = 0;
          for (const text of snippet.expected) {
            const at = result.output.indexOf(text, from);
            expect(at, `expected "${text}" (in order)${context}`).toBeGreaterThanOrEqual(0);
            from = at + text.length;
          }
        });
      });
    });
  }
});
