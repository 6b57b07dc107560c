/**
 * The engine's inner walls (issue 38, item 1), as a re-runnable codemod.
 *
 *   npx tsx scripts/chain-face-codemod.ts            # moves, then import repair, then the face rewrite
 *   npx tsx scripts/chain-face-codemod.ts --dry-run  # prints what it would change
 *
 * 1. Moves: `git mv` each file of `MOVES` that is still at its old place (files that are already moved are skipped).
 * 2. Repair: every relative specifier in the repository's TypeScript (src, test, bench, scripts, conformance, codegen,
 *    clients) that no longer names a file is resolved again through `MOVES`, from the importing file's old place when
 *    the importer itself moved. So a branch that still imports `../blockchain.js` merges and is then repaired by
 *    running this again.
 * 3. Face: an import of `src/chain/<anything>` from a file of `src/` outside `src/chain/` is rewritten to the engine's
 *    public face, `src/chain/index.ts` (the imports of one file from the face are merged into one declaration). A name
 *    the face does not export yet is added to the face under `FACE_ADDED` and listed, so the lead can file it in its
 *    section.
 *
 * Only import lines change; the bodies of files are left as they are.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const dryRun = process.argv.includes('--dry-run');
const CHAIN = 'src/chain';
const FACE = `${CHAIN}/index.ts`;
const FACE_ADDED = '// Added by scripts/chain-face-codemod.ts: file each name in its section above.';

/** Old place → new place, relative to src/chain. The order is the order of the table in ARCHITECTURE.md. */
export const MOVES: Readonly<Record<string, string>> = {
  // base/: helpers every part uses
  'crypto.ts': 'base/crypto.ts',
  'pow/keccak.ts': 'base/keccak.ts',
  'keyed-lock.ts': 'base/keyed-lock.ts',
  'file-problem.ts': 'base/file-problem.ts',
  'progress-log.ts': 'base/progress-log.ts',
  'cache-limits.ts': 'base/cache-limits.ts',
  // rules/: the engine's view of a network's rules
  'engine-types.ts': 'rules/engine-types.ts',
  // genesis/: the genesis header (needs the EVM rules) and the genesis state (needs state/)
  'networks/genesis.ts': 'genesis/header.ts',
  'genesis.ts': 'genesis/state.ts',
  // exec/: what the importer and the assembler share
  'commons.ts': 'exec/commons.ts',
  'assembly/warm-state.ts': 'exec/warm-state.ts',
  'assembly/sealed-blocks.ts': 'exec/sealed-blocks.ts',
  // view/: the stored chain and its head
  'chain-view.ts': 'view/chain-view.ts',
  'chain-events.ts': 'view/chain-events.ts',
  'state/head-state-edit.ts': 'view/head-state-edit.ts',
  'state/snap-store.ts': 'view/snap-store.ts',
  // blockchain/: the facade over import, assembly and the view
  'blockchain.ts': 'blockchain/blockchain.ts',
  // filters/: the log source over the Blockchain sits with the filters' wiring
  'logs/chain-source.ts': 'filters/chain-source.ts',
  // engine/: the composition of blockchain, pool, miner and log services
  'engine.ts': 'engine/engine.ts',
  'engine-memo.ts': 'engine/engine-memo.ts',
  'engine-logs.ts': 'engine/engine-logs.ts',
  'engine-adapters.ts': 'engine/engine-adapters.ts',
  'seal-mode.ts': 'engine/seal-mode.ts',
};

const moves = new Map(Object.entries(MOVES).map(([from, to]) => [`${CHAIN}/${from}`, `${CHAIN}/${to}`]));
const movedFrom = new Map([...moves].map(([from, to]) => [to, from]));
const SCAN = ['src', 'test', 'bench', 'scripts', 'conformance', 'codegen', 'clients'];

const posix = (p: string) => p.split(sep).join('/');

function tsFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const rel = `${dir}/${name}`;
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
    }
  };
  for (const dir of SCAN) if (existsSync(join(root, dir))) walk(dir);
  return out;
}

/** `../x.js` from `src/a/b.ts` → `src/x.ts` (the .ts a .js specifier names). */
function target(fromFile: string, spec: string): string {
  return posix(join(dirname(fromFile), spec)).replace(/\.js$/, '.ts');
}

function specifier(fromFile: string, targetTs: string, like: string): string {
  let s = posix(relative(dirname(fromFile), targetTs));
  if (!s.startsWith('.')) s = `./${s}`;
  return like.endsWith('.js') ? s.replace(/\.ts$/, '.js') : s;
}

interface Spec {
  readonly start: number; // of the string literal's text (after the quote)
  readonly end: number;
  readonly text: string;
}

/** Every relative module specifier: imports, re-exports, dynamic imports, `vi.mock`/`vi.importActual` and the like. */
function specifiers(file: string, text: string): Spec[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Spec[] = [];
  const add = (lit: ts.Node | undefined) => {
    if (lit && ts.isStringLiteralLike(lit) && lit.text.startsWith('.'))
      out.push({ start: lit.getStart(sf) + 1, end: lit.getEnd() - 1, text: lit.text });
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      add(node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression.getText(sf);
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword || /^vi\.(mock|doMock|importActual)$/.test(callee))
        add(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function replaceAll(text: string, edits: readonly { start: number; end: number; text: string }[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

const changed = new Set<string>();
function write(file: string, text: string): void {
  changed.add(file);
  if (!dryRun) writeFileSync(join(root, file), text);
}

function doMoves(): void {
  for (const [from, to] of moves) {
    if (!existsSync(join(root, from))) continue;
    if (existsSync(join(root, to))) throw new Error(`both ${from} and ${to} exist: merge them by hand`);
    process.stdout.write(`git mv ${from} ${to}\n`);
    if (!dryRun) {
      execFileSync('mkdir', ['-p', dirname(join(root, to))]);
      execFileSync('git', ['mv', from, to], { cwd: root });
    }
  }
}

/** A specifier that names no file is looked up through the moves (from the importer's old place if it moved). */
function repair(): void {
  for (const file of tsFiles()) {
    const text = readFileSync(join(root, file), 'utf8');
    const edits = [];
    for (const s of specifiers(file, text)) {
      const now = target(file, s.text);
      if (!/\.(js|ts)$/.test(s.text) || existsSync(join(root, now))) continue;
      const candidates = [now];
      const oldPlace = movedFrom.get(file);
      if (oldPlace) candidates.push(target(oldPlace, s.text));
      for (const c of candidates) {
        const resolved = moves.get(c) ?? (existsSync(join(root, c)) ? c : undefined);
        if (resolved && existsSync(join(root, resolved)) && resolved !== now) {
          edits.push({ start: s.start, end: s.end, text: specifier(file, resolved, s.text) });
          break;
        }
      }
    }
    if (edits.length > 0) write(file, replaceAll(text, edits));
  }
}

/** The names the face exports, read from its `export { … } from` declarations. */
function faceExports(faceText: string): Map<string, string> {
  const sf = ts.createSourceFile(FACE, faceText, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const names = new Map<string, string>();
  for (const st of sf.statements) {
    if (!ts.isExportDeclaration(st) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const from = target(FACE, st.moduleSpecifier.text);
    if (st.exportClause && ts.isNamedExports(st.exportClause))
      for (const el of st.exportClause.elements) names.set(el.name.text, from);
  }
  return names;
}

/** Imports of chain/ internals from the rest of src/ → one import from the face per file. */
function face(): void {
  let faceText = existsSync(join(root, FACE))
    ? readFileSync(join(root, FACE), 'utf8')
    : "/** The engine's public face: what the rest of src/ may import from src/chain/. */\n";
  const exported = faceExports(faceText);
  const missing = new Map<string, { from: string; type: boolean }>();
  for (const file of tsFiles()) {
    if (!file.startsWith('src/') || file.startsWith(`${CHAIN}/`)) continue;
    const text = readFileSync(join(root, file), 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const faceSpec = specifier(file, FACE, '.js');
    const merged: { name: string; alias?: string; type: boolean }[] = [];
    const removals: { start: number; end: number; text: string }[] = [];
    let first: ts.ImportDeclaration | undefined;
    let existingFace: ts.ImportDeclaration | undefined;
    for (const st of sf.statements) {
      const isImport = ts.isImportDeclaration(st);
      const isExport = ts.isExportDeclaration(st);
      if ((!isImport && !isExport) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
      const spec = st.moduleSpecifier.text;
      if (!spec.startsWith('.')) continue;
      const to = target(file, spec);
      if (!to.startsWith(`${CHAIN}/`)) continue;
      const record = (name: string, type: boolean) => {
        if (to !== FACE && !exported.has(name) && !missing.has(name)) missing.set(name, { from: to, type });
        else if (!type && missing.get(name)?.type) missing.set(name, { from: missing.get(name)!.from, type: false });
        const known = exported.get(name) ?? missing.get(name)?.from;
        if (to !== FACE && known !== undefined && known !== to)
          process.stdout.write(`check: ${file} imports ${name} from ${to}, the face from ${known} (a re-export?)\n`);
      };
      if (isExport) {
        if (to === FACE) continue;
        const clause = st.exportClause;
        if (!clause || !ts.isNamedExports(clause)) throw new Error(`${file}: export * from ${spec}: write it by hand`);
        for (const el of clause.elements) record((el.propertyName ?? el.name).text, st.isTypeOnly || el.isTypeOnly);
        const lit = st.moduleSpecifier;
        removals.push({ start: lit.getStart(sf) + 1, end: lit.getEnd() - 1, text: faceSpec });
        continue;
      }
      const imp = st as ts.ImportDeclaration;
      const clause = imp.importClause;
      const named = clause?.namedBindings;
      if (!clause || clause.name || !named || !ts.isNamedImports(named))
        throw new Error(`${file}: ${imp.getText(sf)}: only named imports pass the face; write it by hand`);
      if (to === FACE) existingFace ??= imp;
      for (const el of named.elements) {
        const name = (el.propertyName ?? el.name).text;
        record(name, clause.isTypeOnly || el.isTypeOnly);
        merged.push({
          name,
          alias: el.propertyName ? el.name.text : undefined,
          type: clause.isTypeOnly || el.isTypeOnly,
        });
      }
      if (!first) first = imp;
      else {
        let end = imp.getEnd();
        if (text[end] === '\n') end += 1;
        removals.push({ start: imp.getStart(sf), end, text: '' });
      }
    }
    if (!first && removals.length === 0) continue;
    if (first && (merged.length > 0 || existingFace !== first || removals.length > 0)) {
      const seen = new Set<string>();
      const items = merged.filter((m) => {
        const key = `${m.name} ${m.alias ?? ''}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      // A name imported both as a value and as a type is a value.
      for (const m of items)
        if (m.type && merged.some((o) => o.name === m.name && o.alias === m.alias && !o.type)) m.type = false;
      const allTypes = items.every((m) => m.type);
      const parts = items.map(
        (m) => `${!allTypes && m.type ? 'type ' : ''}${m.name}${m.alias ? ` as ${m.alias}` : ''}`,
      );
      const decl = `import ${allTypes ? 'type ' : ''}{ ${parts.join(', ')} } from '${faceSpec}';`;
      const flat = (t: string) =>
        t
          .replace(/\s+/g, ' ')
          .replace(/,\s*\}/, ' }')
          .replace(/\{\s*/, '{ ');
      if (flat(decl) !== flat(first.getText(sf)))
        removals.push({ start: first.getStart(sf), end: first.getEnd(), text: decl });
    }
    if (removals.length > 0) {
      const next = replaceAll(text, removals);
      if (next !== text) write(file, next);
    }
  }
  if (missing.size > 0) {
    if (!faceText.includes(FACE_ADDED)) faceText = `${faceText.trimEnd()}\n\n${FACE_ADDED}\n`;
    for (const [name, { from, type }] of missing) {
      faceText += `export { ${type ? 'type ' : ''}${name} } from '${specifier(FACE, from, '.js')}';\n`;
      process.stdout.write(`face: added ${name} from ${from}\n`);
    }
    write(FACE, faceText);
  }
}

doMoves();
repair();
if (!process.argv.includes('--no-face')) face();
if (!dryRun && changed.size > 0)
  execFileSync('npx', ['biome', 'format', '--write', ...changed], { cwd: root, stdio: 'inherit' });
process.stdout.write(`${changed.size} file(s) ${dryRun ? 'would change' : 'changed'}\n`);
