/**
 * validators.js (+ .d.ts): ajv standalone code compiled now, so the server needs no ajv and no schema
 * compilation at start-up. Components are added once under one id and every per-method schema refers to
 * them, so their compiled functions are shared rather than inlined per method.
 */
import { Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { JsonSchema, Model } from './document.js';

// A CommonJS module: under NodeNext its default import is `module.exports`, whose `default` is the function.
const standaloneCode = standaloneModule.default;

const componentId = (key: string): string => `${key}.json`;
const toComponentRefs = (schema: JsonSchema): JsonSchema =>
  JSON.parse(
    JSON.stringify(schema).replace(/"#\/components\/schemas\/([^"]+)"/g, (_, key: string) =>
      JSON.stringify(componentId(key)),
    ),
  );

export interface ValidatorSources {
  js: string;
  dts: string;
}

export function emitValidators(model: Model, header: string): ValidatorSources {
  const ajv = new Ajv({
    code: { source: true, esm: true, lines: true },
    // Every $ref becomes a call to one shared function per component instead of a copy at each use.
    inlineRefs: false,
    strict: false,
    allErrors: false,
    // Formats are documentation here; validating them would pull ajv-formats in at runtime.
    validateFormats: false,
    // String lengths by code units: the unicode-aware counter is a runtime `require`, impossible in ESM output.
    unicode: false,
    logger: { log: () => {}, warn: (...args: unknown[]) => quietUnicodeDeprecation(args), error: console.error },
  } as ConstructorParameters<typeof Ajv>[0]);
  // Each component is a schema of its own: ajv compiles a whole schema once and shares it, whereas a
  // fragment (`x#/definitions/y`) is recompiled for every schema that refers to it.
  for (const [key, schema] of Object.entries(model.doc.components?.schemas ?? {})) {
    ajv.addSchema({ ...toComponentRefs(schema), $id: componentId(key) });
  }

  const exports: Record<string, string> = {};
  const add = (name: string, schema: JsonSchema): void => {
    ajv.addSchema({ ...toComponentRefs(schema), $id: name });
    exports[name] = name;
  };
  for (const method of model.methods) {
    for (const param of method.params) add(param.validator, param.schema);
    add(method.result.validator, method.result.schema);
  }

  const code = standaloneCode(ajv, exports);
  const runtimeImport = /require\("([^"]+)"\)/.exec(code);
  if (runtimeImport) {
    throw new Error(
      `a schema needs the ajv runtime helper ${runtimeImport[1]} (e.g. uniqueItems/enum/const on objects); rewrite it without that keyword`,
    );
  }
  const names = Object.keys(exports).sort();
  return {
    js: `${header}\n${withoutUnusedSchemas(code.replace(/^"use strict";\n?/, ''))}`,
    dts: `${header}\n${DTS_PRELUDE}\n${names.map((name) => `export declare const ${name}: Validator;`).join('\n')}\n`,
  };
}

/**
 * `code` without the `const schemaN = {...};` lines nothing refers to: ajv's standalone output declares every schema it
 * compiled, though the validators read only a few (~40 of ~660). Every node start compiles and builds what the module
 * holds, and the unused ones were 150 KB of object literals.
 */
function withoutUnusedSchemas(code: string): string {
  const uses = new Map<string, number>();
  for (const [name] of code.matchAll(/\bschema\d+\b/g)) uses.set(name, (uses.get(name) ?? 0) + 1);
  return code
    .split('\n')
    .filter((line) => {
      const declared = /^const (schema\d+) = .*;$/.exec(line)?.[1];
      return declared === undefined || uses.get(declared) !== 1;
    })
    .join('\n');
}

function quietUnicodeDeprecation(args: unknown[]): void {
  if (typeof args[0] === 'string' && args[0].startsWith('DEPRECATED: option unicode')) return;
  console.warn(...args);
}

const DTS_PRELUDE = `/** The error objects ajv reports (allErrors off: the first failure, plus branch failures of oneOf/anyOf). */
export interface ValidationError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: { readonly [name: string]: unknown };
  readonly message?: string;
}

/** An ajv standalone validator: returns whether \`data\` is valid and leaves the reasons on \`errors\`. */
export interface Validator {
  (data: unknown): boolean;
  errors?: ValidationError[] | null;
}
`;
