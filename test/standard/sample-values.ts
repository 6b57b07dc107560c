/**
 * Sample values from a JSON Schema, for the input audit: what a client following ethereum/execution-apis may send.
 *
 * Not a general generator: it knows the keywords and the regular-expression subset the standard's param schemas
 * use, and throws on anything else, so a new construct in a newer published standard fails loudly instead of being
 * sampled wrongly. It proposes values; the caller keeps only those the standard's own schema accepts (checked
 * with ajv), which settles `oneOf` overlaps and `not`.
 *
 * Choice of samples: boundaries rather than bulk. Strings come from their pattern with every repetition count at
 * its minimum, just above it, in the middle, just below and at its maximum (40 more for unbounded ones), built
 * from the first character of each class alone (`0x00…`), and cycled through every class edge (`0x09af…`,
 * mixed case where the class allows it); alternatives each contribute. Objects are sampled one declared property
 * at a time on top of the required ones, plus one with every property; keys an object does not declare are not
 * sampled. Arrays: empty, one item per item sample, and five items (past any small limit a client might hit).
 */

export type Schema = { readonly [key: string]: unknown };

// ---------------------------------------------------------------- regular expressions

type Node =
  | { readonly kind: 'chars'; readonly chars: readonly string[] }
  | { readonly kind: 'seq'; readonly parts: readonly Node[] }
  | { readonly kind: 'alt'; readonly options: readonly Node[] }
  | { readonly kind: 'repeat'; readonly node: Node; readonly min: number; readonly max: number | undefined };

/** Added to the minimum of an unbounded repetition for its longest sample (e.g. 40 hex digits: an address). */
const UNBOUNDED_EXTRA = 40;

/** Samples of an anchored pattern (`^…$`), every one a full match. */
export function samplesOfPattern(pattern: string): string[] {
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) {
    throw new Error(`pattern ${pattern}: only anchored patterns (^…$) are sampled`);
  }
  const parser = new PatternParser(pattern.slice(1, -1), pattern);
  const tree = parser.parseAlternatives();
  parser.expectEnd();
  const samples = [...new Set(generate(tree))];
  const re = new RegExp(pattern, 'u');
  const wrong = samples.find((s) => !re.test(s));
  if (wrong !== undefined)
    throw new Error(`pattern ${pattern}: sampler produced ${JSON.stringify(wrong)}, which does not match`);
  return samples;
}

class PatternParser {
  private at = 0;

  constructor(
    private readonly src: string,
    private readonly whole: string,
  ) {}

  private fail(what: string): never {
    throw new Error(`pattern ${this.whole}: ${what} at offset ${this.at + 1} is not supported by the sampler`);
  }

  expectEnd(): void {
    if (this.at !== this.src.length) this.fail(`unexpected ${JSON.stringify(this.src[this.at])}`);
  }

  parseAlternatives(): Node {
    const options = [this.parseSequence()];
    while (this.src[this.at] === '|') {
      this.at++;
      options.push(this.parseSequence());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  private parseSequence(): Node {
    const parts: Node[] = [];
    while (this.at < this.src.length && this.src[this.at] !== '|' && this.src[this.at] !== ')') {
      parts.push(this.parseQuantified(this.parseAtom()));
    }
    return { kind: 'seq', parts };
  }

  private parseAtom(): Node {
    const c = this.src[this.at]!;
    if (c === '(') {
      this.at++;
      if (this.src.startsWith('?:', this.at)) this.at += 2;
      else if (this.src[this.at] === '?') this.fail('a group extension');
      const inner = this.parseAlternatives();
      if (this.src[this.at] !== ')') this.fail('an unclosed group');
      this.at++;
      return inner;
    }
    if (c === '[') return this.parseClass();
    if (c === '\\') {
      const next = this.src[this.at + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) this.fail(`the escape \\${next ?? ''}`);
      this.at += 2;
      return { kind: 'chars', chars: [next] };
    }
    if ('.^$*+?{}'.includes(c)) this.fail(`the metacharacter ${c}`);
    this.at++;
    return { kind: 'chars', chars: [c] };
  }

  /** A class of literal characters and ranges: each range contributes its first, middle and last character. */
  private parseClass(): Node {
    this.at++;
    if (this.src[this.at] === '^') this.fail('a negated class');
    const chars: string[] = [];
    while (this.src[this.at] !== ']') {
      if (this.at >= this.src.length) this.fail('an unclosed class');
      let first = this.src[this.at]!;
      if (first === '\\') {
        const next = this.src[this.at + 1];
        if (next === undefined || /[A-Za-z0-9]/.test(next)) this.fail(`the escape \\${next ?? ''} in a class`);
        first = next;
        this.at++;
      }
      this.at++;
      if (this.src[this.at] === '-' && this.src[this.at + 1] !== ']') {
        const last = this.src[this.at + 1]!;
        this.at += 2;
        const [a, b] = [first.codePointAt(0)!, last.codePointAt(0)!];
        if (b < a) this.fail('a reversed range');
        chars.push(first, String.fromCodePoint(a + Math.floor((b - a) / 2)), last);
      } else chars.push(first);
    }
    this.at++;
    return { kind: 'chars', chars: [...new Set(chars)] };
  }

  private parseQuantified(node: Node): Node {
    const c = this.src[this.at];
    if (c === '*' || c === '+' || c === '?') {
      this.at++;
      if (this.src[this.at] === '?' || this.src[this.at] === '+') this.fail('a lazy or possessive quantifier');
      return { kind: 'repeat', node, min: c === '+' ? 1 : 0, max: c === '?' ? 1 : undefined };
    }
    if (c !== '{') return node;
    const close = this.src.indexOf('}', this.at);
    const m = close === -1 ? null : /^\{(\d+)(,(\d*))?\}$/.exec(this.src.slice(this.at, close + 1));
    if (m === null) this.fail('a malformed {…} quantifier');
    this.at = close + 1;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? undefined : Number(m[3]);
    if (max !== undefined && max < min) this.fail('a {min,max} quantifier with max < min');
    return { kind: 'repeat', node, min, max };
  }
}

function generate(node: Node): string[] {
  switch (node.kind) {
    case 'chars':
      return [...node.chars];
    case 'alt':
      return node.options.flatMap(generate);
    case 'seq': {
      // Zip, cycling the shorter lists: every option of every part appears, without a cartesian product.
      const lists = node.parts.map(generate);
      const n = Math.max(1, ...lists.map((l) => l.length));
      return Array.from({ length: n }, (_, i) => lists.map((l) => l[i % l.length]).join(''));
    }
    case 'repeat': {
      const items = generate(node.node);
      const max = node.max ?? node.min + UNBOUNDED_EXTRA;
      const counts = [node.min, node.min + 1, node.min + 2, Math.floor((node.min + max) / 2), max - 1, max].filter(
        (k) => k >= node.min && k <= max,
      );
      const out: string[] = [];
      for (const count of new Set(counts)) {
        out.push(items[0]!.repeat(count));
        for (const offset of [0, Math.floor(items.length / 2)]) {
          out.push(Array.from({ length: count }, (_, k) => items[(k + offset) % items.length]).join(''));
        }
      }
      return out;
    }
  }
}

// ---------------------------------------------------------------- schemas

export interface SampleOptions {
  /** Resolves a `$ref` (e.g. `#/components/schemas/uint`) to its schema. */
  readonly resolve: (ref: string) => Schema;
  /** Nesting limit (a guard against recursive schemas); default 8. */
  readonly maxDepth?: number;
}

const ARRAY_LONG = 5;
const MAX_ITEM_SAMPLES = 24;

/** Candidate values for `schema`; the caller filters them with the schema itself. */
export function samplesOf(schema: Schema, opts: SampleOptions, depth = 0): unknown[] {
  if (depth > (opts.maxDepth ?? 8)) return [];
  const known = new Set([
    '$ref',
    'oneOf',
    'anyOf',
    'not',
    'enum',
    'const',
    'type',
    'pattern',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'minItems',
    'maxItems',
    'minimum',
    'maximum',
    'title',
    'description',
  ]);
  const unknown = Object.keys(schema).filter((k) => !known.has(k));
  if (unknown.length > 0)
    throw new Error(`schema ${JSON.stringify(schema)}: keyword ${unknown.join(', ')} is not sampled`);

  const next = (s: unknown) => samplesOf(s as Schema, opts, depth + 1);
  if (typeof schema.$ref === 'string') return next(opts.resolve(schema.$ref));
  const branches = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (branches !== undefined) return branches.flatMap(next);
  if (Array.isArray(schema.enum)) return [...schema.enum];
  if ('const' in schema) return [schema.const];

  const types =
    schema.type === undefined
      ? inferTypes(schema)
      : Array.isArray(schema.type)
        ? (schema.type as string[])
        : [schema.type as string];
  return types.flatMap((type): unknown[] => {
    switch (type) {
      case 'null':
        return [null];
      case 'boolean':
        return [true, false];
      case 'string':
        return typeof schema.pattern === 'string' ? samplesOfPattern(schema.pattern) : ['', 'a', 'some text'];
      case 'integer':
      case 'number':
        return numberSamples(schema, type === 'integer');
      case 'array':
        return arraySamples(schema, next);
      case 'object':
        return objectSamples(schema, next);
      default:
        throw new Error(`schema ${JSON.stringify(schema)}: type ${type} is not sampled`);
    }
  });
}

function inferTypes(schema: Schema): string[] {
  if (schema.properties !== undefined || schema.required !== undefined) return ['object'];
  if (schema.items !== undefined) return ['array'];
  if (schema.pattern !== undefined) return ['string'];
  // `{}` or only `not`: anything; a few plain values stand for it.
  return ['null', 'boolean', 'string', 'number'];
}

function numberSamples(schema: Schema, integer: boolean): number[] {
  const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
  const max = typeof schema.maximum === 'number' ? schema.maximum : min + 1_000_000;
  const mid = integer ? Math.floor((min + max) / 2) : (min + max) / 2;
  return [...new Set([min, mid, max, ...(integer ? [] : [min + (max - min) / 3])])];
}

function arraySamples(schema: Schema, next: (s: unknown) => unknown[]): unknown[] {
  const items = schema.items === undefined ? [null, 'a', 1] : next(schema.items).slice(0, MAX_ITEM_SAMPLES);
  const out: unknown[][] = [[]];
  if (items.length > 0) {
    for (const item of items) out.push([item]);
    out.push(Array.from({ length: ARRAY_LONG }, (_, k) => items[k % items.length]));
  }
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  if (min > 1 && items.length > 0) out.push(Array.from({ length: min }, (_, k) => items[k % items.length]));
  return out;
}

function objectSamples(schema: Schema, next: (s: unknown) => unknown[]): unknown[] {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as string[];
  const samplesByKey = new Map(Object.entries(properties).map(([key, s]) => [key, next(s)]));
  const base: Record<string, unknown> = {};
  for (const key of required) {
    const first = samplesByKey.get(key)?.[0];
    if (first === undefined) return []; // a required key without samples: nothing valid to propose
    base[key] = first;
  }
  const out: Record<string, unknown>[] = [base];
  for (const [key, values] of samplesByKey) for (const value of values) out.push({ ...base, [key]: value });
  const every: Record<string, unknown> = { ...base };
  for (const [key, values] of samplesByKey) if (values.length > 0) every[key] = values[0];
  out.push(every);
  return out;
}
