/** Schema rewriting shared by the type and validator emitters. */
import type { JsonSchema } from './document.js';

/** Deep copy with every `#/components/schemas/X` ref pointed at `prefix + X`. */
export function rewriteRefs<T>(value: T, prefix: string): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${prefix}`)) as T;
}

/** Calls `visit` on every schema-shaped object below (and including) `value`. */
export function forEachObject(value: unknown, visit: (object: JsonSchema) => void): void {
  if (Array.isArray(value))
    value.forEach((item) => {
      forEachObject(item, visit);
    });
  else if (value !== null && typeof value === 'object') {
    visit(value as JsonSchema);
    Object.values(value).forEach((item) => {
      forEachObject(item, visit);
    });
  }
}
