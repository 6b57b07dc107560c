/**
 * handlers.ts: one interface per namespace with a member per *available* method, so deleting an
 * `x-unavailable` and regenerating makes tsc demand the handler.
 */
import { NAMESPACES, type Model } from './document.js';
import { handlersInterfaceName, paramsTupleName, propertyKey } from './naming.js';

export function emitHandlers(model: Model, header: string): string {
  const out = [
    header,
    "import type * as T from './types.js';",
    '',
    'export type MaybePromise<T> = T | Promise<T>;',
    '',
  ];
  for (const namespace of NAMESPACES) {
    const available = model.methods.filter((m) => m.namespace === namespace && m.unavailable === undefined);
    if (available.length === 0) {
      out.push(`/** Every \`${namespace}\` method is marked x-unavailable, so there is nothing to implement yet. */`);
      // Still declared, so Handlers keeps one key per namespace and the dispatcher's lookup stays uniform.
      out.push(`export interface ${handlersInterfaceName(namespace)}<Ctx> {}`, '');
      continue;
    }
    out.push(`export interface ${handlersInterfaceName(namespace)}<Ctx> {`);
    for (const method of available) {
      if (method.summary) out.push(`  /** ${oneLine(method.summary)} */`);
      out.push(
        `  ${propertyKey(method.name)}(params: T.${paramsTupleName(method.pascal)}, ctx: Ctx): MaybePromise<T.${method.result.typeName}>;`,
      );
    }
    out.push('}', '');
  }
  out.push('export interface Handlers<Ctx> {');
  for (const namespace of NAMESPACES) out.push(`  ${namespace}: ${handlersInterfaceName(namespace)}<Ctx>;`);
  out.push('}', '');
  return out.join('\n');
}

/** Keeps a summary from closing the JSDoc comment or spanning lines. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').replaceAll('*/', '*\\/').trim();
}
