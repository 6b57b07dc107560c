/**
 * The import rules that keep data flowing one way (request → transport → rpc → handler → engine). The layer of a
 * file is its top folder under src/ (`src/chain/db/x.ts` → `chain`); `src/main.ts` is the entry point. Type-only and
 * dynamic imports count too: they couple the folders as much as any other.
 *
 * Inside the engine, given the table of its inner layers (ARCHITECTURE.md, "Inner layers of the engine"): a folder of
 * src/chain/ imports only folders of lower layers, the only file at the top of src/chain/ is its public face
 * (`index.ts`), and the rest of src/ imports the engine only through that face.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** For a lower layer: every layer it may import. A layer not listed here is bound only by `FORBIDDEN`. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  generated: ['generated'],
  chain: ['chain'],
  p2p: ['p2p', 'chain'],
  node: ['node', 'chain', 'p2p', 'generated'],
  rpc: ['rpc', 'node', 'generated'],
};

/** For an upper layer: the layers it must not import. */
const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  server: ['handlers', 'metrics', 'cli'],
  handlers: ['server', 'metrics', 'cli'],
  metrics: ['server', 'handlers', 'cli'],
  mcp: ['server', 'handlers', 'metrics', 'cli'],
};

export interface SourceFile {
  /** Path relative to the repository root, with `/` separators (`src/chain/blockchain.ts`). */
  readonly path: string;
  readonly text: string;
}

export interface Violation {
  readonly file: string;
  readonly imports: string;
  readonly rule: string;
}

/** `src/chain/db/x.ts` → `chain`; a file at the top (`src/main.ts`) → its name; outside src → undefined. */
export function layerOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] !== 'src' || parts.length < 2) return undefined;
  return parts[1];
}

/** The repository-relative path a relative specifier names (`../x.js` → `src/x.ts`); undefined for packages. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const joined = join(dirname(from), specifier).split(sep).join('/');
  return joined.replace(/\.js$/, '.ts');
}

/** The engine's public face: the one module of src/chain/ the rest of src/ imports. */
export const CHAIN_FACE = 'src/chain/index.ts';

/** Folder of src/chain/ → its layer (higher imports lower), as ARCHITECTURE.md's table of inner layers gives it. */
export type ChainLayers = ReadonlyMap<string, number>;

const CHAIN_TABLE_HEADING = '### Inner layers of the engine';

/** The rows `| <layer> | `folder/`, `folder/` | … |` of the table under ARCHITECTURE.md's heading. */
export function chainLayersFromMarkdown(markdown: string): ChainLayers {
  const start = markdown.indexOf(CHAIN_TABLE_HEADING);
  if (start < 0) throw new Error(`ARCHITECTURE.md has no "${CHAIN_TABLE_HEADING}" section`);
  const section = markdown.slice(start + CHAIN_TABLE_HEADING.length).split(/\n#{1,3} /)[0]!;
  const layers = new Map<string, number>();
  for (const line of section.split('\n')) {
    const row = /^\|\s*(\d+)\s*\|([^|]*)\|/.exec(line);
    if (!row) continue;
    for (const [, folder] of row[2]!.matchAll(/`([a-z0-9-]+)\/`/g)) {
      if (layers.has(folder!)) throw new Error(`chain/${folder}/ is in two rows of the table`);
      layers.set(folder!, Number(row[1]));
    }
  }
  if (layers.size === 0) throw new Error(`the "${CHAIN_TABLE_HEADING}" section of ARCHITECTURE.md has no table rows`);
  return layers;
}

/** `src/chain/db/x.ts` → `db`; `src/chain/index.ts` → '' (the top of chain/); outside chain/ → undefined. */
function chainFolderOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] !== 'src' || parts[1] !== 'chain' || parts.length < 3) return undefined;
  return parts.length === 3 ? '' : parts[2];
}

/** The rules inside src/chain/ and at its face, for an import of `target` by `file`. */
function chainRuleBroken(file: string, target: string, layers: ChainLayers): string | undefined {
  const from = chainFolderOf(file);
  const to = chainFolderOf(target);
  if (to === undefined) return undefined;
  if (from === undefined)
    return target === CHAIN_FACE ? undefined : `outside chain/, the engine is imported only through ${CHAIN_FACE}`;
  // A unit test beside its unit may build its fixture from any layer (a pool test opens a ChainEngine).
  if (from === '' || from === to || file.endsWith('.test.ts')) return undefined;
  if (to === '') return 'inside chain/, import the module itself: the face is for the rest of src/';
  const fromLayer = layers.get(from);
  const toLayer = layers.get(to);
  if (fromLayer === undefined || toLayer === undefined) return undefined; // reported once per file below
  if (toLayer >= fromLayer)
    return `chain/${from}/ (layer ${fromLayer}) imports only lower layers, not chain/${to}/ (layer ${toLayer})`;
  return undefined;
}

/** A file of src/chain/ that no row of the table places, or a file at its top other than the face. */
function chainPlacement(path: string, layers: ChainLayers): string | undefined {
  const folder = chainFolderOf(path);
  if (folder === undefined) return undefined;
  if (folder === '')
    return path === CHAIN_FACE
      ? undefined
      : `only the face (${CHAIN_FACE}) sits at the top of chain/: move it into a layer folder`;
  if (!layers.has(folder))
    return `chain/${folder}/ is in no row of ARCHITECTURE.md's table of the engine's inner layers`;
  return undefined;
}

/** Every import of `files` that breaks a rule; with `chainLayers`, the engine's inner rules and its face as well. */
export function checkImports(files: readonly SourceFile[], chainLayers?: ChainLayers): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const from = layerOf(file.path);
    if (from === undefined) continue;
    const placement = chainLayers && chainPlacement(file.path, chainLayers);
    if (placement) violations.push({ file: file.path, imports: '', rule: placement });
    if (from.endsWith('.ts') && from !== 'main.ts') {
      violations.push({
        file: file.path,
        imports: '',
        rule: 'only main.ts lives at the top of src/: every other file belongs to a layer folder',
      });
      continue;
    }
    const { importedFiles } = ts.preProcessFile(file.text, true, true);
    for (const { fileName } of importedFiles) {
      const target = resolveSpecifier(file.path, fileName);
      if (target === undefined) continue;
      const to = layerOf(target);
      const inner = chainLayers && chainRuleBroken(file.path, target, chainLayers);
      if (inner) violations.push({ file: file.path, imports: target, rule: inner });
      if (to === undefined || to === from) continue;
      const rule = ruleBroken(from, to);
      if (rule) violations.push({ file: file.path, imports: target, rule });
    }
  }
  return violations;
}

function ruleBroken(from: string, to: string): string | undefined {
  if (to === 'cli' && from !== 'main.ts') return 'only src/main.ts imports cli/';
  if (to === 'main.ts') return 'nothing imports the entry point';
  const allowed = ALLOWED[from];
  if (allowed && !allowed.includes(to)) return `${from}/ imports only ${allowed.join(', ')}`;
  if (FORBIDDEN[from]?.includes(to)) return `${from}/ must not import ${to}/`;
  if (!allowed && !FORBIDDEN[from] && from !== 'cli' && from !== 'main.ts')
    return `${from}/ is no known layer (add it to the rules)`;
  return undefined;
}

/** Every TypeScript file under `<root>/src`. */
export function readSourceTree(root: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts'))
        out.push({ path: relative(root, full).split(sep).join('/'), text: readFileSync(full, 'utf8') });
    }
  };
  walk(resolve(root, 'src'));
  return out;
}

/** The table of the engine's inner layers in `<root>/ARCHITECTURE.md`. */
export function readChainLayers(root: string): ChainLayers {
  return chainLayersFromMarkdown(readFileSync(resolve(root, 'ARCHITECTURE.md'), 'utf8'));
}

// `npx tsx test/architecture/layers.ts`: prints the violations of the working tree.
if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
  const found = checkImports(readSourceTree(root), readChainLayers(root));
  for (const v of found) process.stdout.write(`${v.file} imports ${v.imports}: ${v.rule}\n`);
  process.stdout.write(`${found.length} violation(s)\n`);
  process.exitCode = found.length === 0 ? 0 : 1;
}
