/**
 * The -32602 sentences: a refused param is named by its OpenRPC name and 1-based position, the place inside it
 * that failed as a field path, what belongs there in the schema's own words, and a short copy of what was given.
 * No regexes and no schema paths: a person has to be able to act on the message alone. `error.data` keeps the
 * machine-readable parts.
 */
import type { MethodSpec, ParamProblem, ParamSpec } from '../generated/registry.js';
import { ErrorCode, RpcError } from './errors.js';

/** How much of a given value the message repeats. */
const MAX_VALUE_TEXT = 48;

/**
 * A short JSON copy of what the client sent ("nothing" for a missing value). Written piece by piece and stopped at
 * the length the message keeps: JSON.stringify of a hostile value (arrays nested 100,000 deep) overflows the stack,
 * and so does String() of it, which once took the whole node down.
 */
export function givenText(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = jsonPrefix(value, MAX_VALUE_TEXT + 1);
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT - 1)}…` : text;
}

/** At most about `limit` characters of `value` as JSON, without recursion deeper than the limit itself. */
function jsonPrefix(value: unknown, limit: number): string {
  let out = '';
  const write = (v: unknown, depth: number): void => {
    if (out.length >= limit) return;
    if (depth > limit) {
      out += '…';
      return;
    }
    if (Array.isArray(v)) {
      out += '[';
      for (let i = 0; i < v.length && out.length < limit; i++) {
        if (i > 0) out += ',';
        write(v[i], depth + 1);
      }
      out += ']';
    } else if (v !== null && typeof v === 'object') {
      out += '{';
      let first = true;
      for (const [key, item] of Object.entries(v)) {
        if (out.length >= limit) break;
        out += `${first ? '' : ','}${JSON.stringify(key)}:`;
        first = false;
        write(item, depth + 1);
      }
      out += '}';
    } else {
      out += typeof v === 'bigint' ? v.toString() : (JSON.stringify(v) ?? String(v));
    }
  };
  write(value, 0);
  return out;
}

/** ajv's instancePath as a person writes it: `/accessList/0/address` → `accessList[0].address`. */
export function fieldPath(path: string): string {
  let out = '';
  for (const raw of path.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^[0-9]+$/.test(key) ? `[${key}]` : out === '' ? key : `.${key}`;
  }
  return out;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The sentence after "invalid params: " for one refused param (`index` is 0-based). */
export function paramProblemText(name: string, index: number, problem: ParamProblem): string {
  const field = fieldPath(problem.path);
  const inside = field === '' ? '' : field.startsWith('[') ? ` item ${field}` : ` field ${field}`;
  const where = `${name} (param ${index + 1})${inside}`;
  const { value, limit } = problem;
  switch (problem.keyword) {
    case 'required':
      return `${where} is missing the required field "${problem.field}"`;
    case 'additionalProperties': {
      const known = problem.knownFields ?? [];
      const list = known.length > 0 ? `; the fields it takes are ${known.join(', ')}` : '';
      return `${where} has an unknown field "${problem.field}"${list}`;
    }
    case 'maxItems':
    case 'minItems': {
      const count = Array.isArray(value) ? value.length : 0;
      const bound = problem.keyword === 'maxItems' ? 'at most' : 'at least';
      return `${where} must have ${bound} ${plural(limit ?? 0, 'item')}; got ${count}`;
    }
    case 'maxLength':
    case 'minLength': {
      const bound = problem.keyword === 'maxLength' ? 'at most' : 'at least';
      return `${where} must be ${bound} ${plural(limit ?? 0, 'character')} long; got ${givenText(value)}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const bound = { minimum: 'at least', maximum: 'at most', exclusiveMinimum: 'above', exclusiveMaximum: 'below' }[
        problem.keyword
      ];
      return `${where} must be ${bound} ${limit}; got ${givenText(value)}`;
    }
    default: {
      const got = givenText(value);
      const hint =
        problem.hex !== undefined
          ? `, which is decimal: quantities are 0x-prefixed hex, here "${problem.hex}"`
          : problem.unpadded !== undefined
            ? `, which has leading zeros: quantities are written without them, here "${problem.unpadded}"`
            : '';
      return `${where} must be ${problem.expects}; got ${got}${hint}`;
    }
  }
}

const countText = (n: number) => (n === 0 ? 'no parameters' : plural(n, 'parameter'));

/** Too few or too many params: which one is missing, or how many the method takes and under which names. */
export function arityError(spec: MethodSpec, given: number): RpcError {
  const max = spec.params.length;
  const min = spec.requiredParams;
  const takes = min === max ? countText(max) : `${min} to ${countText(max)}`;
  const names = max === 0 ? '' : ` (${spec.params.map((p) => p.name).join(', ')})`;
  const data = { expected: { min, max }, actual: given };
  if (given < min) {
    const missing = spec.params[given]!;
    return new RpcError(
      ErrorCode.InvalidParams,
      `invalid params: ${missing.name} (param ${given + 1}) is missing: ` +
        `${spec.name} takes ${takes}${names}, got ${given}`,
      { ...data, missing: missing.name },
    );
  }
  return new RpcError(
    ErrorCode.InvalidParams,
    `invalid params: ${spec.name} takes ${takes}${names}, got ${given}`,
    data,
  );
}

/** The -32602 for one refused param; `data` names it and the failing keyword for clients that branch on it. */
export function paramError(param: ParamSpec, index: number, problem: ParamProblem): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `invalid params: ${paramProblemText(param.name, index, problem)}`, {
    index,
    param: param.name,
    ...(problem.path === '' ? {} : { field: fieldPath(problem.path) }),
    keyword: problem.keyword,
    expected: problem.expects,
  });
}
