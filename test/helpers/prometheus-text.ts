/**
 * A strict parser of the Prometheus text exposition format 0.0.4, for tests of `GET /metrics`: it throws on
 * anything a Prometheus server would refuse or a careless exporter might emit (a sample before its TYPE, a
 * family declared twice, a duplicate series, a bad name or escape, a histogram whose buckets are not
 * cumulative or whose +Inf bucket differs from its count).
 */

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The sample's own name (for a histogram: `<family>_bucket`, `_sum` or `_count`). */
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface MetricFamily {
  readonly name: string;
  readonly type: MetricType;
  readonly help?: string;
  readonly samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES: ReadonlySet<string> = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export class ExpositionError extends Error {
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
  }
}

/**
 * A sample value as Prometheus reads it (Go's strconv.ParseFloat): decimal or exponent notation, and the special
 * values case-insensitively. The format documents "NaN", "+Inf", "-Inf"; prom-client writes NaN as "Nan", which
 * Prometheus accepts, so this parser does too.
 */
function parseValue(text: string, line: number): number {
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new ExpositionError(line, `not a number: "${text}"`);
  return Number(text);
}

/** `{a="x",b="y\"z"}` starting at `text[start] === '{'`; returns the labels and the index after `}`. */
function parseLabels(text: string, start: number, line: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    if (text[i] === '}') return { labels, end: i + 1 };
    const eq = text.indexOf('=', i);
    if (eq === -1) throw new ExpositionError(line, 'label without "="');
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new ExpositionError(line, `bad label name "${name}"`);
    if (name in labels) throw new ExpositionError(line, `label "${name}" given twice`);
    if (text[eq + 1] !== '"') throw new ExpositionError(line, `label "${name}" value is not quoted`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] !== '\\') {
        value += text[j];
        continue;
      }
      const next = text[++j];
      if (next === '\\' || next === '"') value += next;
      else if (next === 'n') value += '\n';
      else throw new ExpositionError(line, `bad escape "\\${next}" in label "${name}"`);
    }
    if (j >= text.length) throw new ExpositionError(line, `unterminated value of label "${name}"`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new ExpositionError(line, `expected "," or "}" after label "${name}"`);
  }
}

/** The family a sample name belongs to, given the declared families (histogram/summary suffixes). */
function familyOf(sampleName: string, families: ReadonlyMap<string, MetricFamily>): MetricFamily | undefined {
  const direct = families.get(sampleName);
  if (direct !== undefined) return direct;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!sampleName.endsWith(suffix)) continue;
    const family = families.get(sampleName.slice(0, -suffix.length));
    if (family === undefined) continue;
    if (family.type === 'histogram' || (family.type === 'summary' && suffix !== '_bucket')) return family;
  }
  return undefined;
}

export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const helps = new Map<string, string>();
  const seenSeries = new Set<string>();
  if (text.length > 0 && !text.endsWith('\n'))
    throw new ExpositionError(text.split('\n').length, 'the exposition must end with a newline');
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    if (raw.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(raw);
      if (m === null) return; // a plain comment
      const [, keyword, name, rest = ''] = m;
      if (!METRIC_NAME.test(name!)) throw new ExpositionError(line, `bad metric name "${name}"`);
      if (keyword === 'HELP') {
        if (helps.has(name!)) throw new ExpositionError(line, `HELP for ${name} given twice`);
        helps.set(name!, rest);
        const family = families.get(name!);
        if (family !== undefined) families.set(name!, { ...family, help: rest });
        return;
      }
      if (!TYPES.has(rest)) throw new ExpositionError(line, `unknown type "${rest}" for ${name}`);
      if (families.has(name!)) throw new ExpositionError(line, `TYPE for ${name} given twice`);
      families.set(name!, {
        name: name!,
        type: rest as MetricType,
        ...(helps.has(name!) ? { help: helps.get(name!)! } : {}),
        samples: [],
      });
      return;
    }
    const nameEnd = raw.search(/[{ ]/);
    if (nameEnd <= 0) throw new ExpositionError(line, `not a sample: "${raw}"`);
    const name = raw.slice(0, nameEnd);
    if (!METRIC_NAME.test(name)) throw new ExpositionError(line, `bad metric name "${name}"`);
    let labels: Record<string, string> = {};
    let rest = raw.slice(nameEnd);
    if (rest.startsWith('{')) {
      const parsed = parseLabels(raw, nameEnd, line);
      labels = parsed.labels;
      rest = raw.slice(parsed.end);
    }
    const fields = rest.trim().split(/ +/);
    if (!rest.startsWith(' ') || fields.length < 1 || fields.length > 2)
      throw new ExpositionError(line, `expected " <value> [timestamp]" after ${name}`);
    const value = parseValue(fields[0]!, line);
    if (fields.length === 2 && !/^-?\d+$/.test(fields[1]!))
      throw new ExpositionError(line, `bad timestamp "${fields[1]}"`);
    const family = familyOf(name, families);
    if (family === undefined) throw new ExpositionError(line, `sample ${name} has no TYPE line before it`);
    const series = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seenSeries.has(series)) throw new ExpositionError(line, `duplicate series ${name}${JSON.stringify(labels)}`);
    seenSeries.add(series);
    if (family.type === 'counter' && !(value >= 0)) throw new ExpositionError(line, `counter ${name} is ${value}`);
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** Per label set (without `le`): buckets cumulative in `le` order, a +Inf bucket equal to `_count`, a `_sum`. */
function checkHistogram(family: MetricFamily): void {
  const groups = new Map<string, { buckets: Array<[number, number]>; count?: number; sum?: number }>();
  for (const s of family.samples) {
    const { le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const group = groups.get(key) ?? { buckets: [] };
    groups.set(key, group);
    if (s.name === `${family.name}_bucket`) {
      if (le === undefined) throw new Error(`${family.name}: a bucket without "le"`);
      group.buckets.push([le === '+Inf' ? Infinity : Number(le), s.value]);
    } else if (s.name === `${family.name}_count`) group.count = s.value;
    else if (s.name === `${family.name}_sum`) group.sum = s.value;
  }
  for (const [key, group] of groups) {
    const where = `${family.name}${key}`;
    if (group.count === undefined || group.sum === undefined) throw new Error(`${where}: missing _count or _sum`);
    const sorted = [...group.buckets].sort((a, b) => a[0] - b[0]);
    if (sorted.at(-1)?.[0] !== Infinity) throw new Error(`${where}: no +Inf bucket`);
    sorted.forEach(([, v], i) => {
      if (i > 0 && v < sorted[i - 1]![1]) throw new Error(`${where}: buckets are not cumulative`);
    });
    if (sorted.at(-1)![1] !== group.count)
      throw new Error(`${where}: +Inf bucket ${sorted.at(-1)![1]} != count ${group.count}`);
  }
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(
  families: ReadonlyMap<string, MetricFamily>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const family of families.values()) {
    for (const s of family.samples) {
      if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) return s.value;
    }
  }
  return undefined;
}
