import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const fixtures = path.join(repoRoot, 'test/fixtures/compile-fail');

/** Type-checks one fixture with the project's compiler options (the fixtures are excluded from tsconfig.json). */
function typeErrors(fixture: string): string[] {
  const config = ts.readConfigFile(path.join(repoRoot, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repoRoot);
  const program = ts.createProgram([path.join(fixtures, fixture)], { ...options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(repoRoot, d.file.fileName)}: ` : '';
    return `${where}TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('settings are typed by key', () => {
  it('reads each setting as its table entry says', () => {
    expect(typeErrors('setting-correct-usage.ts')).toEqual([]);
  });

  it('does not compile a misspelt key', () => {
    const errors = typeErrors('setting-unknown-key.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('setting-unknown-key.ts: TS2345');
    expect(errors[0]).toContain(`Argument of type '"network.rpc.http.prot"' is not assignable to parameter of type`);
  });

  it('does not compile a value used as another type', () => {
    const errors = typeErrors('setting-wrong-value-type.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('setting-wrong-value-type.ts: TS2322');
    expect(errors[0]).toContain("Type 'number' is not assignable to type 'string'");
  });
});
