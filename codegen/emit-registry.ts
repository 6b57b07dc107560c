/** registry.ts: the method table the server dispatches from (contract in ARCHITECTURE.md). */
import { NAMESPACES, type MethodModel, type Model } from './document.js';
import { propertyKey, quote } from './naming.js';
import { expectsText } from './schema-text.js';

export function emitRegistry(model: Model, header: string): string {
  return `${header}
import * as validators from './validators.js';
import type { ValidationError, Validator } from './validators.js';

export type Namespace = ${NAMESPACES.map(quote).join(' | ')};
export const namespaces: readonly Namespace[] = [${NAMESPACES.map(quote).join(', ')}];

export type MethodName =
${model.methods.map((m) => `  | ${quote(m.name)}`).join('\n')};

export interface ParamSpec {
  /** The OpenRPC param name. */
  readonly name: string;
  readonly required: boolean;
  /** Human text for errors: what a valid value looks like. */
  readonly expects: string;
  /** undefined when valid; otherwise a short reason from the compiled validator. */
  readonly check: (value: unknown) => string | undefined;
}

export interface MethodSpec {
  readonly name: MethodName;
  readonly namespace: Namespace;
  readonly params: readonly ParamSpec[];
  /** Count of leading required params; trailing optional ones may be omitted. */
  readonly requiredParams: number;
  readonly checkResult: (value: unknown) => string | undefined;
  /** From x-unavailable: answer -32004 without calling a handler. */
  readonly unavailable?: string;
  /** From x-transport. */
  readonly transport: 'any' | 'ws';
}

function checker(validate: Validator): (value: unknown) => string | undefined {
  return (value) => {
    if (validate(value)) return undefined;
    const { text, path } = reason(validate.errors ?? []);
    return path === undefined ? text : text + decimalHint(validate, value, path);
  };
}

/**
 * ajv stops at the first failure, except that a failed oneOf/anyOf first lists why each branch failed:
 * when those are all about the same value, naming the alternatives reads better than the first branch alone.
 */
function reason(errors: readonly ValidationError[]): { text: string; path?: string } {
  const first = errors[0];
  if (!first) return { text: 'is invalid' };
  const last = errors[errors.length - 1];
  if ((last.keyword === 'oneOf' || last.keyword === 'anyOf') && errors.every((e) => e.instancePath === last.instancePath)) {
    const alternatives = [...new Set(errors.slice(0, -1).map(describe))];
    return { text: at(last.instancePath) + (alternatives.length > 0 ? alternatives.join(' or ') : describe(last)), path: last.instancePath };
  }
  return { text: at(first.instancePath) + describe(first), path: first.instancePath };
}

/**
 * A JSON number or a decimal string where hex is expected is the commonest client mistake (chainId: 61): when the
 * same number written as a hex quantity would be accepted at that place and its decimal digits would not (so the
 * place wants hex, not any string), say so.
 */
function decimalHint(validate: Validator, root: unknown, path: string): string {
  const keys = path === '' ? [] : path.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  let value: unknown = root;
  for (const key of keys) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  const decimal =
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? BigInt(value)
      : typeof value === 'string' && /^(0|[1-9][0-9]*)$/.test(value)
        ? BigInt(value)
        : undefined;
  if (decimal === undefined) return '';
  const hex = \`0x\${decimal.toString(16)}\`;
  const acceptedAt = (replacement: string): boolean => {
    let fixed: unknown = replacement;
    if (keys.length > 0) {
      fixed = structuredClone(root);
      let parent = fixed as Record<string, unknown>;
      for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
      parent[keys[keys.length - 1]] = replacement;
    }
    return validate(fixed) || !(validate.errors ?? []).some((e) => e.instancePath === path);
  };
  const wantsHex = acceptedAt(hex) && !acceptedAt(decimal.toString());
  return wantsHex ? \`; \${JSON.stringify(value)} is decimal: quantities are 0x-prefixed hex, here "\${hex}"\` : '';
}

const at = (instancePath: string): string => (instancePath ? \`\${instancePath}: \` : '');

function describe(error: ValidationError): string {
  const params = error.params;
  switch (error.keyword) {
    case 'pattern':
      return \`must match \${String(params.pattern)}\`;
    case 'type':
      return \`must be \${String(params.type)}\`;
    case 'enum':
      return \`must be one of \${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}\`;
    case 'const':
      return \`must be \${JSON.stringify(params.allowedValue)}\`;
    case 'required':
      return \`must have property \${String(params.missingProperty)}\`;
    case 'additionalProperties':
      return \`must not have property \${String(params.additionalProperty)}\`;
    default:
      return error.message ?? \`fails \${error.keyword}\`;
  }
}

export const methods: { readonly [K in MethodName]: MethodSpec } = {
${model.methods.map((m) => methodEntry(m, model)).join('\n')}
};

// A Map, not the object: a lookup must never find inherited keys such as \`toString\` or \`__proto__\`.
const methodsByName: ReadonlyMap<string, MethodSpec> = new Map(Object.entries(methods));

export function findMethod(name: string): MethodSpec | undefined {
  return methodsByName.get(name);
}
`;
}

function methodEntry(method: MethodModel, model: Model): string {
  const lines = [
    `  ${propertyKey(method.name)}: {`,
    `    name: ${quote(method.name)},`,
    `    namespace: ${quote(method.namespace)},`,
  ];
  if (method.params.length === 0) lines.push('    params: [],');
  else {
    lines.push('    params: [');
    for (const param of method.params) {
      lines.push('      {');
      lines.push(`        name: ${quote(param.name)},`);
      lines.push(`        required: ${param.required},`);
      lines.push(`        expects: ${quote(expectsText(param, model))},`);
      lines.push(`        check: checker(validators.${param.validator}),`);
      lines.push('      },');
    }
    lines.push('    ],');
  }
  lines.push(`    requiredParams: ${method.requiredParams},`);
  lines.push(`    checkResult: checker(validators.${method.result.validator}),`);
  if (method.unavailable !== undefined) lines.push(`    unavailable: ${quote(method.unavailable)},`);
  lines.push(`    transport: ${quote(method.transport)},`);
  lines.push('  },');
  return lines.join('\n');
}
