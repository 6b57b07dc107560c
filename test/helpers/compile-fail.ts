import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './node-process.js';

const fixtures = path.join(repoRoot, 'test/fixtures/compile-fail');
const tsgo = path.join(repoRoot, 'node_modules/.bin/tsgo');

/**
 * A checker of the given fixtures of test/fixtures/compile-fail: `typeErrors(fixture)` type-checks them with the
 * project's compiler options (the fixtures are excluded from tsconfig.json) and answers the fixture's errors as
 * `file: TS<code>: message`.
 *
 * The fixtures are checked together in one program, built on the first ask, by tsgo (the compiler `npm run
 * typecheck` runs): @types/node, the libraries and the sources they import are checked once instead of once per
 * fixture, in ~1 s of CPU where the TypeScript API's program took ~8 s. The fixtures are modules that declare
 * nothing global, so none changes another's errors; an error outside the fixtures (in a source they import) is
 * reported with every fixture, as a program of that fixture alone would report it.
 */
export function compileFixtures(...names: string[]): (fixture: string) => string[] {
  let checked: Map<string, string[]> | undefined;
  return (fixture) => {
    checked ??= check(names);
    const errors = checked.get(fixture);
    if (errors === undefined) throw new Error(`${fixture} is not among the fixtures given: ${names.join(', ')}`);
    return errors;
  };
}

/** src/'s hand-written .d.ts files (tsconfig.json's include brings them into the project's own program). */
function ambientDeclarations(): string[] {
  const src = path.join(repoRoot, 'src');
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.d.ts') && !f.startsWith('generated'))
    .map((f) => path.join(src, f));
}

function check(names: readonly string[]): Map<string, string[]> {
  const files = names.map((name) => path.join(fixtures, name));
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-compile-fail-'));
  try {
    // The project's options (extended) for these files alone; type roots are looked up from the config's folder.
    const config = path.join(dir, 'tsconfig.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: path.join(repoRoot, 'tsconfig.json'),
        compilerOptions: { noEmit: true, typeRoots: [path.join(repoRoot, 'node_modules/@types')] },
        include: [],
        // The project's ambient module declarations (snappyjs), which a source the fixtures import may rely on.
        files: [...files, ...ambientDeclarations()],
      }),
    );
    const run = spawnSync(tsgo, ['-p', config, '--pretty', 'false'], { cwd: repoRoot, encoding: 'utf8' });
    if (run.error !== undefined || (run.status !== 0 && run.status !== 1 && run.status !== 2))
      throw new Error(`tsgo did not run: ${run.error?.message ?? `exit ${run.status}`}\n${run.stderr}`);
    return byFixture(names, files, run.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * tsgo's plain diagnostics, `file(line,col): error TS<code>: message` with the message's chain on the indented
 * lines below it, as `file: TS<code>: message` (the chain joined by newlines) under the fixture they are in.
 */
function byFixture(names: readonly string[], files: readonly string[], output: string): Map<string, string[]> {
  const own = new Map(files.map((file) => [file, [] as string[]]));
  const elsewhere: string[] = [];
  let last: { list: string[]; at: number } | undefined;
  for (const line of output.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith(' ') && last !== undefined) {
      last.list[last.at] += `\n${line}`;
      continue;
    }
    const located = /^(.+?)\(\d+,\d+\): error TS(\d+): (.*)$/.exec(line);
    const global = /^error TS(\d+): (.*)$/.exec(line);
    const text = located
      ? `${path.relative(repoRoot, path.resolve(repoRoot, located[1]!))}: TS${located[2]}: ${located[3]}`
      : global
        ? `TS${global[1]}: ${global[2]}`
        : line;
    const list = (located && own.get(path.resolve(repoRoot, located[1]!))) || elsewhere;
    list.push(text);
    last = { list, at: list.length - 1 };
  }
  return new Map(names.map((name, i) => [name, [...own.get(files[i]!)!, ...elsewhere]]));
}
