/**
 * The Python client's types under pyright in strict mode: the package, the example tour (ten and more methods across
 * eth_, trace_ and ots_) and every ```python test block of the Python guide (codegen/docs/guides/python-client.md,
 * the same blocks test/docs/guide-snippets.test.ts runs) pass, and a fixture with deliberate wrong types fails with
 * exactly its four errors. pyright is a pinned devDependency (node_modules/.bin/pyright); without it, the cases are
 * skipped, saying so.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/node-process.js';

const PYRIGHT = path.join(repoRoot, 'node_modules/.bin/pyright');
/** pyright is CPU-bound: on a loaded machine a strict run over the package takes a minute and more. */
const PYRIGHT_BUDGET_MS = 240_000;
const dir = path.join(repoRoot, 'clients/python');

function pyright(...args: string[]) {
  const run = spawnSync(PYRIGHT, args, { cwd: dir, encoding: 'utf8', timeout: PYRIGHT_BUDGET_MS - 10_000 });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

/** The guide's Python blocks, one file each (pyright checks files named on its command line with the config's rules). */
function guideBlocks(into: string): string[] {
  const markdown = readFileSync(path.join(repoRoot, 'codegen/docs/guides/python-client.md'), 'utf8');
  const blocks = [...markdown.matchAll(/^```python test\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  return blocks.map((code, i) => {
    const file = path.join(into, `guide_block_${i + 1}.py`);
    writeFileSync(file, code);
    return file;
  });
}

const probe = spawnSync(PYRIGHT, ['--version'], { encoding: 'utf8', timeout: 60_000 });
const hasPyright = probe.status === 0;
if (!hasPyright) console.warn(`python type checks skipped: ${PYRIGHT} did not run (npm install)`);

interface Diagnostic {
  readonly file: string;
  readonly severity: string;
  readonly message: string;
  readonly range: { readonly start: { readonly line: number } };
}

/** One strict pyright run over everything this file checks (a run re-analyses the package: ~6 s of CPU each). */
function checkAll(scratch: string): { blocks: string[]; errors: Diagnostic[]; out: string } {
  const blocks = guideBlocks(scratch);
  const wrong = 'tests/typecheck/wrong_type.py';
  const { out } = pyright('--outputjson', '-p', 'pyrightconfig.json', 'svc_node_client', 'examples', wrong, ...blocks);
  const report = JSON.parse(out.slice(out.indexOf('{'))) as { generalDiagnostics: Diagnostic[] };
  return { blocks, errors: report.generalDiagnostics.filter((d) => d.severity === 'error'), out };
}

describe.runIf(hasPyright)('the Python client under pyright --strict', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'svc-py-guide-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  let checked: ReturnType<typeof checkAll> | undefined;
  const checks = () => (checked ??= checkAll(scratch));
  const inFixture = (d: Diagnostic) => d.file.endsWith(`${path.sep}wrong_type.py`);
  const shown = (list: readonly Diagnostic[]) =>
    list.map((d) => `${d.file}:${d.range.start.line + 1}: ${d.message}`).join('\n');

  it(
    "type-checks the package, the example tour and the guide's Python blocks with no error",
    () => {
      const { blocks, errors } = checks();
      expect(blocks.length).toBeGreaterThanOrEqual(6);
      const elsewhere = errors.filter((d) => !inFixture(d));
      expect(elsewhere, shown(elsewhere)).toEqual([]);
    },
    PYRIGHT_BUDGET_MS,
  );

  it('the tour calls ten or more methods, across eth_, trace_ and ots_', () => {
    const tour = readFileSync(path.join(dir, 'examples/tour.py'), 'utf8');
    const methods = new Set([...tour.matchAll(/\bclient\.((eth|trace|ots)_[a-z_]+)\(/g)].map((m) => m[1]));
    expect(methods.size, [...methods].join(' ')).toBeGreaterThanOrEqual(10);
    for (const ns of ['eth_', 'trace_', 'ots_'])
      expect(
        [...methods].some((m) => m.startsWith(ns)),
        ns,
      ).toBe(true);
  });

  it(
    'rejects the wrong-typed fixture: a balance as str, a list as a block, a head as a Log, a batched number as str',
    () => {
      const fixture = checks().errors.filter(inFixture);
      const text = shown(fixture);
      expect(fixture, text).toHaveLength(4);
      expect(text).toMatch(/wrong_type\.py:11: Type "Uint" is not assignable to declared type "str"/);
      expect(text).toMatch(/"list\[str\]" cannot be assigned to parameter "block" of type "BlockNumberOrTag"/);
      expect(text).toMatch(/wrong_type\.py:13: Type "Block" is not assignable to declared type "Log"/);
      expect(text).toMatch(/wrong_type\.py:14: Type "Uint" is not assignable to declared type "str"/);
    },
    PYRIGHT_BUDGET_MS,
  );
});
