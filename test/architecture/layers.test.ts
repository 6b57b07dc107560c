/** The import direction over the real source tree (rules in layers.ts), and that the check catches a violation. */
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/node-process.js';
import { checkImports, readSourceTree } from './layers.js';

describe('layers', () => {
  it('src/ imports only downwards', () => {
    const found = checkImports(readSourceTree(repoRoot)).map((v) => `${v.file} imports ${v.imports}: ${v.rule}`);
    expect(found).toEqual([]);
  });

  it('catches upward, static, type-only and dynamic imports', () => {
    const found = checkImports([
      { path: 'src/chain/a.ts', text: "import { x } from '../server/app.js';" },
      { path: 'src/p2p/b.ts', text: "import type { Y } from '../handlers/context.js';" },
      { path: 'src/rpc/c.ts', text: "const m = await import('../server/http.js');" },
      { path: 'src/server/d.ts', text: "export { h } from '../handlers/index.js';" },
      { path: 'src/handlers/e.ts', text: "import '../cli/run.js';" },
      { path: 'src/stray.ts', text: '' },
      {
        path: 'src/handlers/ok.ts',
        text: "import { RpcError } from '../rpc/errors.js'; import { keccak256 } from 'ethereum-cryptography/keccak.js';",
      },
      { path: 'src/main.ts', text: "import { runCli } from './cli/run.js';" },
    ]);
    expect(found.map((v) => v.file)).toEqual([
      'src/chain/a.ts',
      'src/p2p/b.ts',
      'src/rpc/c.ts',
      'src/server/d.ts',
      'src/handlers/e.ts',
      'src/stray.ts',
    ]);
    expect(found[0]!.rule).toBe('chain/ imports only chain');
    expect(found[4]!.rule).toBe('only src/main.ts imports cli/');
  });
});
