/**
 * Handlers hold no engine state: a cache in a handler module is shared by every engine of the process (a test chain
 * swapped in, a fork reset, a second node in one process) and is not dropped with its engine. Per-engine state is a
 * named field of the engine's `memo` (src/chain/engine-memo.ts), per-connection state is the connection's, per-node
 * state the node's. And a fork's history has one door: only the read view (src/handlers/fork-history.ts) asks the
 * upstream or decides what lies at or below the fork's base, so no handler branches on "older than the fork".
 */
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { readSourceTree, type SourceFile } from './layers.js';

/** Constructors whose instances at module level are state shared by every engine in the process. */
const STATE_CLASSES = new Set(['Map', 'WeakMap', 'Set', 'WeakSet', 'Lru']);

/** Calls that ask the upstream about, or place a block in, the fork's history; and the base they compare against. */
const FORK_FALLBACK_CALLS = new Set(['upstreamHistory', 'fromForkHistory', 'historyHeightOf', 'forkBaseOf']);
const FORK_BASE_PROPERTY = 'forkBase';

export interface Finding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

const isHandlerSource = (f: SourceFile): boolean => f.path.startsWith('src/handlers/') && !f.path.endsWith('.test.ts');

const parse = (f: SourceFile): ts.SourceFile => ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);

function finding(file: SourceFile, source: ts.SourceFile, node: ts.Node): Finding {
  const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  return { file: file.path, line, text: node.getText(source).split('\n')[0].trim() };
}

/** `new Map()` and the like in `node`, not counting function bodies (those run per call). */
function stateConstructions(node: ts.Node): ts.NewExpression[] {
  const found: ts.NewExpression[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isFunctionLike(n)) return;
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && STATE_CLASSES.has(n.expression.text)) found.push(n);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/**
 * Module-level state in src/handlers: a `let`/`var` (a value that changes under every engine), or a Map, WeakMap,
 * Set, WeakSet or Lru made when the module loads (a top-level declaration, a class's static field, or a bare statement).
 */
export function moduleLevelState(files: readonly SourceFile[]): Finding[] {
  const out: Finding[] = [];
  for (const file of files.filter(isHandlerSource)) {
    const source = parse(file);
    for (const statement of source.statements) {
      if (ts.isVariableStatement(statement) && !(statement.declarationList.flags & ts.NodeFlags.Const)) {
        out.push(finding(file, source, statement));
        continue;
      }
      if (ts.isClassDeclaration(statement)) {
        for (const member of statement.members) {
          const isStatic = ts.canHaveModifiers(member)
            ? ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)
            : false;
          if (isStatic && ts.isPropertyDeclaration(member) && member.initializer !== undefined)
            for (const made of stateConstructions(member.initializer)) out.push(finding(file, source, made));
        }
        continue;
      }
      if (ts.isFunctionDeclaration(statement)) continue;
      for (const made of stateConstructions(statement)) out.push(finding(file, source, made));
    }
  }
  return out;
}

/** Every call of a fork-fallback function, and every read of `.forkBase`, in src/handlers. */
export function forkFallbackSites(files: readonly SourceFile[]): Finding[] {
  const out: Finding[] = [];
  for (const file of files.filter(isHandlerSource)) {
    const source = parse(file);
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n)) {
        const callee = n.expression;
        const name = ts.isIdentifier(callee)
          ? callee.text
          : ts.isPropertyAccessExpression(callee)
            ? callee.name.text
            : undefined;
        if (name !== undefined && FORK_FALLBACK_CALLS.has(name)) out.push(finding(file, source, n));
      } else if (ts.isPropertyAccessExpression(n) && n.name.text === FORK_BASE_PROPERTY) {
        out.push(finding(file, source, n));
      }
      ts.forEachChild(n, visit);
    };
    visit(source);
  }
  return out;
}

/** The modules holding those sites: one, the read view, when the fallback has one home. */
export const modulesOf = (sites: readonly Finding[]): string[] => [...new Set(sites.map((s) => s.file))].sort();

// `npx tsx test/architecture/handler-state.ts`: prints the module-level state and the fork-fallback sites of the tree.
if (import.meta.url === `file://${process.argv[1]}`) {
  const files = readSourceTree(resolve(dirname(new URL(import.meta.url).pathname), '../..'));
  const state = moduleLevelState(files);
  for (const f of state) process.stdout.write(`state  ${f.file}:${f.line}  ${f.text}\n`);
  const sites = forkFallbackSites(files);
  for (const f of sites) process.stdout.write(`fork   ${f.file}:${f.line}  ${f.text}\n`);
  process.stdout.write(
    `${state.length} module-level state declaration(s) in ${modulesOf(state).length} handler file(s); ` +
      `${sites.length} fork-fallback site(s) in ${modulesOf(sites).length} handler file(s)\n`,
  );
}
