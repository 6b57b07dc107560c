/**
 * The Python client's types under pyright in strict mode: the example tour (ten and more methods across eth_, trace_
 * and ots_) passes, and a fixture with deliberate wrong types fails with exactly its two errors. pyright is a pinned
 * devDependency (node_modules/.bin/pyright); without it, the cases are skipped, saying so.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/node-process.js';

const PYRIGHT = path.join(repoRoot, 'node_modules/.bin/pyright');
const dir = path.join(repoRoot, 'clients/python');

function pyright(...args: string[]) {
  const run = spawnSync(PYRIGHT, args, { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

const probe = spawnSync(PYRIGHT, ['--version'], { encoding: 'utf8', timeout: 60_000 });
const hasPyright = probe.status === 0;
if (!hasPyright) console.warn(`python type checks skipped: ${PYRIGHT} did not run (npm install)`);

describe.runIf(hasPyright)('the Python client under pyright --strict', () => {
  it('type-checks the example tour and the package itself with no error', () => {
    const { code, out } = pyright('-p', 'pyrightconfig.json');
    expect(out).toMatch(/0 errors/);
    expect(code, out).toBe(0);
  });

  it('rejects the wrong-typed fixture: an int balance read as str, a list given as a block', () => {
    const { code, out } = pyright('-p', 'pyrightconfig.json', 'tests/typecheck/wrong_type.py');
    expect(code).not.toBe(0);
    expect(out).toMatch(/"int" is not assignable to "str"/);
    expect(out).toMatch(/"list\[str\]" cannot be assigned to parameter "block" of type "BlockNumberOrTag"/);
    expect(out).toMatch(/2 errors/);
  });
});
