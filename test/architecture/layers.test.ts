/**
 * The import direction over the real source tree (rules in layers.ts), the engine's inner layers (the table in
 * ARCHITECTURE.md) and its public face, and that the check catches each kind of violation.
 */
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/node-process.js';
import { CHAIN_FACE, checkImports, chainLayersFromMarkdown, readChainLayers, readSourceTree } from './layers.js';

const describeViolations = (found: ReturnType<typeof checkImports>) =>
  found.map((v) => `${v.file} imports ${v.imports}: ${v.rule}`);

describe('layers', () => {
  it('src/ imports only downwards, chain/ only down its inner layers, and the rest of src/ only its face', () => {
    expect(describeViolations(checkImports(readSourceTree(repoRoot), readChainLayers(repoRoot)))).toEqual([]);
  });

  it("ARCHITECTURE.md's table of chain/'s layers: storage and codec at the bottom, state and exec above, then import, assembly, miner and pool", () => {
    const layer = readChainLayers(repoRoot);
    const of = (folder: string) => layer.get(folder)!;
    expect(of('codec')).toBeLessThan(of('db'));
    expect(of('db')).toBeLessThan(of('state'));
    expect(of('state')).toBeLessThan(of('exec'));
    for (const upper of ['import', 'assembly', 'miner', 'txpool']) expect(of('exec')).toBeLessThan(of(upper));
    expect(of('import')).toBeLessThan(of('assembly'));
    expect(of('blockchain')).toBeLessThan(of('engine'));
  });

  it('catches, in the real tree, an import past the face and an upward import inside chain/', () => {
    const planted = [
      { path: 'src/handlers/eth/planted.ts', text: "import { CallExecutor } from '../../chain/exec/call.js';" },
      { path: 'src/chain/db/planted.ts', text: "import type { Blockchain } from '../blockchain/blockchain.js';" },
    ];
    expect(
      describeViolations(checkImports([...readSourceTree(repoRoot), ...planted], readChainLayers(repoRoot))),
    ).toEqual([
      `src/handlers/eth/planted.ts imports src/chain/exec/call.ts: outside chain/, the engine is imported only through ${CHAIN_FACE}`,
      'src/chain/db/planted.ts imports src/chain/blockchain/blockchain.ts: chain/db/ (layer 4) imports only lower layers, not chain/blockchain/ (layer 11)',
    ]);
  });

  it("catches each inner rule of chain/ against a table's layers", () => {
    const layers = chainLayersFromMarkdown(
      [
        '### Inner layers of the engine',
        '| layer | folders | job |',
        '| ----- | ------- | --- |',
        '| 2     | `import/`, `assembly/` | upper |',
        '| 1     | `state/` | middle |',
        '| 0     | `db/` | bottom |',
        '## Next section',
        '| 9 | `ignored/` | not in the section |',
      ].join('\n'),
    );
    expect([...layers]).toEqual([
      ['import', 2],
      ['assembly', 2],
      ['state', 1],
      ['db', 0],
    ]);
    const found = checkImports(
      [
        { path: 'src/chain/db/up.ts', text: "import { x } from '../state/s.js';" },
        { path: 'src/chain/import/beside.ts', text: "import type { A } from '../assembly/a.js';" },
        { path: 'src/chain/state/lazy.ts', text: "const m = await import('../import/i.js');" },
        { path: 'src/chain/state/face.ts', text: "export { y } from '../index.js';" },
        { path: 'src/chain/loose.ts', text: '' },
        { path: 'src/chain/nowhere/n.ts', text: '' },
        { path: 'src/p2p/deep.ts', text: "import type { S } from '../chain/state/s.js';" },
        {
          path: 'src/chain/import/ok.ts',
          text: "import { s } from '../state/s.js'; import { d } from '../db/d.js'; import { i } from './i.js';",
        },
        { path: 'src/chain/state/s.test.ts', text: "import { i } from '../import/i.js';" },
        { path: 'src/chain/index.ts', text: "export { i } from './import/i.js';" },
        { path: 'src/node/ok.ts', text: "import type { S } from '../chain/index.js';" },
      ],
      layers,
    );
    expect(found.map((v) => v.file)).toEqual([
      'src/chain/db/up.ts',
      'src/chain/import/beside.ts',
      'src/chain/state/lazy.ts',
      'src/chain/state/face.ts',
      'src/chain/loose.ts',
      'src/chain/nowhere/n.ts',
      'src/p2p/deep.ts',
    ]);
    expect(found[1]!.rule).toBe('chain/import/ (layer 2) imports only lower layers, not chain/assembly/ (layer 2)');
    expect(found[3]!.rule).toBe('inside chain/, import the module itself: the face is for the rest of src/');
    expect(found[5]!.rule).toBe("chain/nowhere/ is in no row of ARCHITECTURE.md's table of the engine's inner layers");
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
