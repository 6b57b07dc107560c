import path from 'node:path';
import ts from 'typescript';
import { repoRoot } from './node-process.js';

const fixtures = path.join(repoRoot, 'test/fixtures/compile-fail');

/**
 * Type-checks one fixture of test/fixtures/compile-fail with the project's compiler options (the fixtures are
 * excluded from tsconfig.json) and returns its errors as `file: TS<code>: message`.
 */
export function typeErrors(fixture: string): string[] {
  const config = ts.readConfigFile(path.join(repoRoot, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repoRoot);
  const program = ts.createProgram([path.join(fixtures, fixture)], { ...options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(repoRoot, d.file.fileName)}: ` : '';
    return `${where}TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}
