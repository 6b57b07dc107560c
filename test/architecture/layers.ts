/**
 * The import rules that keep data flowing one way (request → transport → rpc → handler → engine). The layer of a
 * file is its top folder under src/ (`src/chain/db/x.ts` → `chain`); `src/main.ts` is the entry point. Type-only and
 * dynamic imports count too: they couple the folders as much as any other.
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

export function checkImports(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const from = layerOf(file.path);
    if (from === undefined) continue;
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

// `npx tsx test/architecture/layers.ts`: prints the violations of the working tree.
if (import.meta.url === `file://${process.argv[1]}`) {
  const found = checkImports(readSourceTree(resolve(dirname(new URL(import.meta.url).pathname), '../..')));
  for (const v of found) process.stdout.write(`${v.file} imports ${v.imports}: ${v.rule}\n`);
  process.stdout.write(`${found.length} violation(s)\n`);
  process.exitCode = found.length === 0 ? 0 : 1;
}
