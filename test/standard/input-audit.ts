/**
 * The input audit: for every method of the standard (the execution-apis methods published in the npm package
 * @metamask/api-specs that openrpc.json also defines, see published-standard.ts), sample each param schema, keep
 * the samples the standard itself accepts, and ask this node's compiled param validators (the ones the server
 * runs, src/generated/registry.ts) whether they accept them too. Arity counts as well: a param the standard lets
 * a client leave out must be optional here.
 *
 * Sampling rather than comparing patterns as text: two different regular expressions can accept the same strings
 * (ours allow checksum case where the standard writes lowercase), and what matters is the verdict of the code
 * that answers clients. See sample-values.ts for which values are tried.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { MethodSpec } from '../../src/generated/registry.js';
import { paramProblemText } from '../../src/rpc/param-errors.js';
import { samplesOf, type Schema } from './sample-values.js';

export interface StandardParam {
  readonly name: string;
  readonly required: boolean;
  readonly schema: Schema;
}

/** The standard's params of the methods it shares with openrpc.json, and the component schemas they reach. */
export interface StandardSpec {
  readonly source: { readonly package: string; readonly version: string; readonly file: string };
  readonly methods: { readonly [method: string]: { readonly params: readonly StandardParam[] } };
  readonly schemas: { readonly [key: string]: Schema };
}

export type DifferenceKind =
  /** A value the standard accepts for this param that our validator rejects. */
  | 'rejects-value'
  /** The standard lets a client omit this param; ours requires it. */
  | 'requires-param'
  /** Ours takes a param the standard does not define (harmless when optional, but documented). */
  | 'extra-param'
  /** The standard defines the method; this node does not. */
  | 'missing-method';

export interface Difference {
  readonly method: string;
  readonly kind: DifferenceKind;
  /** Position of the param (absent for missing-method). */
  readonly index?: number;
  /** Our param name, or the standard's when we have none at that position. */
  readonly param?: string;
  /** The rejected value (rejects-value). */
  readonly value?: unknown;
  /** Our validator's reason, or what is different. */
  readonly reason: string;
}

export interface AuditResult {
  readonly differences: readonly Difference[];
  /** Samples tried per method (after the standard's own filter). */
  readonly sampled: ReadonlyMap<string, number>;
}

export type MethodLookup = (name: string) => MethodSpec | undefined;

export function auditInputs(standard: StandardSpec, findOurs: MethodLookup): AuditResult {
  const { schemas } = standard;
  const resolve = (ref: string): Schema => {
    const key = ref.replace('#/components/schemas/', '');
    const schema = schemas[key];
    if (schema === undefined) throw new Error(`the standard has no schema for ${ref}`);
    return schema;
  };
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  const standardValidator = (schema: Schema): ValidateFunction => ajv.compile({ ...schema, components: { schemas } });

  const differences: Difference[] = [];
  const sampled = new Map<string, number>();
  for (const [method, theirs] of Object.entries(standard.methods)) {
    const ours = findOurs(method);
    if (ours === undefined) {
      differences.push({
        method,
        kind: 'missing-method',
        reason: 'the standard defines this method; openrpc.json does not',
      });
      continue;
    }
    let tried = 0;
    theirs.params.forEach((stdParam, index) => {
      const ourParam = ours.params[index];
      if (ourParam === undefined) {
        differences.push({
          method,
          kind: 'rejects-value',
          index,
          param: stdParam.name,
          reason: `ours takes ${ours.params.length} params; the standard defines "${stdParam.name}" at position ${index}`,
        });
        return;
      }
      if (!stdParam.required && index < ours.requiredParams) {
        differences.push({
          method,
          kind: 'requires-param',
          index,
          param: ourParam.name,
          reason: `the standard makes "${stdParam.name}" optional; ours requires "${ourParam.name}"`,
        });
      }
      const accepts = standardValidator(stdParam.schema);
      for (const value of uniqueValues(samplesOf(stdParam.schema, { resolve }))) {
        if (!accepts(value)) continue;
        tried++;
        const problem = ourParam.check(value);
        const reason = problem === undefined ? undefined : paramProblemText(ourParam.name, index, problem);
        if (reason !== undefined)
          differences.push({ method, kind: 'rejects-value', index, param: ourParam.name, value, reason });
      }
    });
    for (let index = theirs.params.length; index < ours.params.length; index++) {
      const extra = ours.params[index]!;
      const kind: DifferenceKind = extra.required ? 'requires-param' : 'extra-param';
      differences.push({
        method,
        kind,
        index,
        param: extra.name,
        reason: `ours takes "${extra.name}" at position ${index}; the standard defines no param there`,
      });
    }
    sampled.set(method, tried);
  }
  return { differences, sampled };
}

function uniqueValues(values: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One line per difference, for a failing assertion's message. */
export const describeDifference = (d: Difference): string =>
  `${d.method}${d.index !== undefined ? ` param ${d.index} (${d.param})` : ''} [${d.kind}]` +
  `${'value' in d ? ` ${JSON.stringify(d.value)}` : ''}: ${d.reason}`;
