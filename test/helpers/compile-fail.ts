import path from 'node:path';
import ts from 'typescript';
import { repoRoot } from './node-process.js';

const fixtures = path.join(repoRoot, 'test/fixtures/compile-fail');

/**
 * A checker of the given fixtures of test/fixtures/compile-fail: `typeErrors(fixture)` type-checks them with the
 * project's compiler options (the fixtures are excluded from tsconfig.json) and answers the fixture's errors as
 * `file: TS<code>: message`.
 *
 * The fixtures are checked together in one program, built on the first ask: @types/node, the libraries and the
 * sources they import are parsed and checked once instead of once per fixture (each program took ~5 s). The
 * fixtures are modules that declare nothing global, so none changes another's errors; an error outside the fixtures
 * (in a source they import) is reported with every fixture, as a program of that fixture alone would report it.
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

function check(names: readonly string[]): Map<string, string[]> {
  const config = ts.readConfigFile(path.join(repoRoot, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repoRoot);
  const files = names.map((name) => path.join(fixtures, name));
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const byFixture = new Map(files.map((file) => [file, [] as string[]]));
  const elsewhere: string[] = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const where = d.file ? `${path.relative(repoRoot, d.file.fileName)}: ` : '';
    const text = `${where}TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    const own = d.file === undefined ? undefined : byFixture.get(path.normalize(d.file.fileName));
    (own ?? elsewhere).push(text);
  }
  return new Map(names.map((name, i) => [name, [...byFixture.get(files[i]!)!, ...elsewhere]]));
}
