/**
 * src/handlers/methods.generated.ts: every handler a namespace's folder exports under its method's own name
 * (`export function anvil_getIntervalMining` in src/handlers/anvil/<any file>.ts), collected per namespace. Each
 * namespace's index.ts spreads its collection and adds only what is not found this way (aliases such as
 * hardhat_mine, groups, names that are not identifiers), so a new method needs no registration line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { compareStrings, NAMESPACES, type Model } from './document.js';

const EXPORTED = /^export (?:async )?(?:function\*? |const |let )([A-Za-z_$][\w$]*)/gm;

/** Method name → file (relative to the handlers directory) exporting it, per namespace. */
export function findHandlers(model: Model, handlersDir: string): Map<string, Map<string, string>> {
  const found = new Map<string, Map<string, string>>();
  for (const namespace of NAMESPACES) {
    const wanted = new Set(
      model.methods.filter((m) => m.namespace === namespace && m.unavailable === undefined).map((m) => m.name),
    );
    const byMethod = new Map<string, string>();
    const dir = path.join(handlersDir, namespace);
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort(compareStrings) : [];
    for (const file of files) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file === 'index.ts') continue;
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const [, name] of text.matchAll(EXPORTED)) {
        if (!wanted.has(name)) continue;
        const other = byMethod.get(name);
        if (other) throw new Error(`${name} is exported by both src/handlers/${namespace}/${other} and ${file}`);
        byMethod.set(name, file);
      }
    }
    found.set(namespace, byMethod);
  }
  return found;
}

export function emitHandlerTable(found: Map<string, Map<string, string>>, header: string): string {
  const imports: string[] = [];
  const body: string[] = [];
  for (const [namespace, byMethod] of found) {
    const names = [...byMethod.keys()].sort(compareStrings);
    for (const name of names)
      imports.push(`import { ${name} } from './${namespace}/${byMethod.get(name)!.replace(/\.ts$/, '.js')}';`);
    body.push(names.length ? `  ${namespace}: { ${names.join(', ')} },` : `  ${namespace}: {},`);
  }
  return [
    header.trimEnd(),
    '// Every handler exported under its own method name by a file of src/handlers/<namespace>/ (see',
    '// codegen/emit-handler-table.ts); each namespace index.ts adds the aliases and groups.',
    ...imports,
    '',
    'export const methodHandlers = {',
    ...body,
    '} as const;',
    '',
  ].join('\n');
}
