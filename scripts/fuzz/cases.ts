/**
 * Fuzz cases derived from openrpc.json: for every method, its examples (valid seeds) and the shapes of bad input
 * a hostile or buggy client sends. Each case is a pure function of (seed, index), so a failure is replayed with
 * `--seed S --from I --count 1`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from './rng.js';

export type CaseKind =
  | 'example'
  | 'arity'
  | 'wrong-type'
  | 'hex-range'
  | 'over-long'
  | 'nulls'
  | 'deep-json'
  | 'batch'
  | 'huge-batch'
  | 'invalid-utf8'
  | 'truncated'
  | 'cut-connection'
  | 'content-type'
  | 'envelope'
  | 'mutation';

export interface FuzzCase {
  readonly index: number;
  readonly kind: CaseKind;
  /** The method the case was built from (for the report; the body may name another). */
  readonly method: string;
  readonly transport: 'http' | 'ws';
  readonly body: string | Buffer;
  /** HTTP only: the Content-Type header to send; null sends none. */
  readonly contentType: string | null;
}

export interface MethodInfo {
  readonly name: string;
  readonly paramCount: number;
  /** Params of each example, as the client would send them. */
  readonly examples: readonly unknown[][];
}

export function loadMethods(repoRoot: string): MethodInfo[] {
  const doc = JSON.parse(readFileSync(join(repoRoot, 'openrpc.json'), 'utf8')) as {
    methods: Array<{ name: string; params: unknown[]; examples?: Array<{ params: Array<{ value: unknown }> }> }>;
  };
  return doc.methods.map((m) => ({
    name: m.name,
    paramCount: m.params.length,
    examples: (m.examples ?? []).map((e) => e.params.map((p) => p.value)),
  }));
}

/**
 * Methods whose first param is a count of blocks to mine: a fuzzed huge count would keep the miner busy for the
 * rest of the run (an unbounded-work finding reported separately, see the run summary), so structured cases keep
 * it small. Text mutations can still reach them.
 */
const MINING_COUNT_METHODS = new Set(['qa_mineBlocks', 'test_mineBlocks', 'anvil_mine', 'hardhat_mine']);

const LONG = 'a'.repeat(100_000);

/** Values that are wrong for almost every param: wrong types, edge numbers, odd strings. */
function junk(rng: Rng): unknown {
  switch (rng.int(0, 27)) {
    case 0:
      return null;
    case 1:
      return true;
    case 2:
      return 0;
    case 3:
      return -1;
    case 4:
      return 1.5;
    case 5:
      return 1e308;
    case 6:
      return 2 ** 53 + 2;
    case 7:
      return '';
    case 8:
      return {};
    case 9:
      return [];
    case 10:
      return [[]];
    case 11:
      return { __proto__: null, constructor: 1, toString: 'x', hasOwnProperty: 2 };
    case 12:
      return 'latest';
    case 13:
      return rng.pick(['pending', 'earliest', 'safe', 'finalized', 'LATEST', 'latest ']);
    case 14:
      return '\u0000\ud800\uffff';
    case 15:
      return rng.int(-1e9, 1e9);
    case 16:
      return String(rng.int(0, 1e6));
    case 17:
      return { from: hexRange(rng), to: hexRange(rng), data: hexRange(rng) };
    case 18:
      return { blockHash: hexRange(rng), fromBlock: 'latest' };
    case 19:
      return [hexRange(rng), hexRange(rng)];
    case 20:
      return LONG.slice(0, rng.int(1, 5000));
    case 21:
      return -0;
    case 22:
      return '__proto__';
    case 23:
      return { '': [null] };
    default:
      return hexRange(rng);
  }
}

/** Hex strings out of range or malformed: too long, empty, bad digits, signs, leading zeros, upper-case prefix. */
function hexRange(rng: Rng): string {
  switch (rng.int(0, 14)) {
    case 0:
      return '0x';
    case 1:
      return '0x' + 'f'.repeat(rng.int(64, 70));
    case 2:
      return '0x1' + '0'.repeat(64);
    case 3:
      return '0x' + 'f'.repeat(rng.pick([16, 17, 40, 41, 63]));
    case 4:
      return '0xg1';
    case 5:
      return '-0x1';
    case 6:
      return '0x00' + rng.hex(rng.int(1, 6));
    case 7:
      return '0X' + rng.hex(4);
    case 8:
      return ' 0x1';
    case 9:
      return '0x' + rng.hex(rng.pick([1, 3, 39, 41, 63, 65, 129]));
    case 10:
      return rng.hex(40);
    case 11:
      return '0x' + 'ff'.repeat(rng.int(1, 33));
    case 12:
      return '0x8000000000000000';
    case 13:
      return '0x7fffffffffffffff';
    default:
      return '0x' + rng.hex(rng.int(0, 80));
  }
}

/** Large but under the default 5 MB body limit most of the time; sometimes over it (413 is the answer). */
function overLong(rng: Rng): unknown {
  const size = rng.pick([1_000, 100_000, 1_000_000, 2_400_000, 6_000_000]);
  switch (rng.int(0, 3)) {
    case 0:
      return '0x' + 'ab'.repeat(size / 2);
    case 1:
      return 'x'.repeat(size);
    case 2:
      return Array.from({ length: Math.min(size / 10, 100_000) }, (_, i) => '0x' + i.toString(16));
    default:
      return { data: '0x' + '00'.repeat(size / 2), input: '0x' + '01'.repeat(size / 4) };
  }
}

/** Nested arrays/objects `depth` deep, as text (building it as a value would recurse as deep). */
function deepText(rng: Rng, depth: number): string {
  const object = rng.chance(0.5);
  return object ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) : '['.repeat(depth) + '1' + ']'.repeat(depth);
}

function exampleParams(rng: Rng, m: MethodInfo): unknown[] {
  const params = m.examples.length > 0 ? structuredClone(rng.pick(m.examples)) : [];
  if (MINING_COUNT_METHODS.has(m.name) && params.length > 0) params[0] = rng.int(1, 2);
  return params;
}

function envelope(method: string, params: unknown, id: unknown = 1): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params: boundMiningCount(method, params) };
}

/** Keeps a mining count small (see MINING_COUNT_METHODS); anything that is not a plausible count is left as is. */
function boundMiningCount(method: string, params: unknown): unknown {
  if (!MINING_COUNT_METHODS.has(method) || !Array.isArray(params) || params.length === 0) return params;
  const count = params[0];
  let n: bigint | undefined;
  try {
    if (typeof count === 'number' && Number.isInteger(count)) n = BigInt(count);
    else if (typeof count === 'string' && /^0x[0-9a-fA-F]+$/.test(count)) n = BigInt(count);
  } catch {
    n = undefined;
  }
  if (n === undefined || n <= 4n || n > BigInt(Number.MAX_SAFE_INTEGER)) return params;
  return [2, ...params.slice(1)];
}

/** Random edits of a JSON value tree: replace, drop or add members, change the type of one node. */
function mutateValue(rng: Rng, value: unknown, depth = 0): unknown {
  if (depth > 6 || rng.chance(0.3)) return rng.chance(0.5) ? junk(rng) : hexRange(rng);
  if (Array.isArray(value)) {
    const out = [...value];
    const op = rng.int(0, 3);
    if (op === 0 || out.length === 0) out.push(junk(rng));
    else if (op === 1) out.splice(rng.int(0, out.length - 1), 1);
    else {
      const i = rng.int(0, out.length - 1);
      out[i] = mutateValue(rng, out[i], depth + 1);
    }
    return out;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    const keys = Object.keys(out);
    const op = rng.int(0, 3);
    if (op === 0 || keys.length === 0)
      out[
        rng.pick([
          'from',
          'to',
          'data',
          'input',
          'value',
          'gas',
          'gasPrice',
          'nonce',
          'topics',
          'address',
          'blockHash',
          'fromBlock',
          'toBlock',
          'x',
          '__proto__',
        ])
      ] = junk(rng);
    else if (op === 1) delete out[rng.pick(keys)];
    else {
      const k = rng.pick(keys);
      out[k] = mutateValue(rng, out[k], depth + 1);
    }
    return out;
  }
  if (typeof value === 'string' && value.startsWith('0x') && rng.chance(0.6)) return hexRange(rng);
  return junk(rng);
}

/** Byte-level edits of JSON text: delete, insert, swap and duplicate runs of characters. */
function mutateText(rng: Rng, text: string): string {
  let out = text;
  const edits = rng.int(1, 4);
  for (let e = 0; e < edits; e++) {
    const at = rng.int(0, out.length);
    switch (rng.int(0, 4)) {
      case 0:
        out = out.slice(0, at) + out.slice(at + rng.int(1, 8));
        break;
      case 1:
        out =
          out.slice(0, at) +
          rng.pick([
            '{',
            '}',
            '[',
            ']',
            '"',
            ',',
            ':',
            '\\',
            '0',
            'x',
            '-',
            'e',
            'null',
            '9999999999999999999999',
            '\\u0000',
            '\\ud800',
          ]) +
          out.slice(at);
        break;
      case 2:
        out = out.slice(0, at) + out.slice(at, at + rng.int(1, 30)).repeat(rng.int(2, 5)) + out.slice(at);
        break;
      case 3:
        out = out.slice(0, at) + String.fromCharCode(rng.int(0, 0xffff)) + out.slice(at + 1);
        break;
      default:
        out = out.slice(0, at) + rng.hex(rng.int(1, 10)) + out.slice(at);
    }
  }
  return out;
}

const BAD_UTF8 = [
  Buffer.from([0xff]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0x80]),
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json-rpc',
  'application/jsonrequest',
  'application/json;;',
  '*/*',
  'application/octet-stream',
  '',
];

/** The case at `index` of a run seeded with `seed`. */
export function makeCase(methods: readonly MethodInfo[], seed: number, index: number): FuzzCase {
  const rng = Rng.forCase(seed, index);
  const m = rng.pick(methods);
  const transport: 'http' | 'ws' = rng.chance(0.3) ? 'ws' : 'http';
  const base = (kind: CaseKind, body: string | Buffer, over: Partial<FuzzCase> = {}): FuzzCase => ({
    index,
    kind,
    method: m.name,
    transport,
    body,
    contentType: 'application/json',
    ...over,
  });
  const json = (value: unknown) => JSON.stringify(value);
  const roll = rng.int(0, 999);

  if (roll < 80) return base('example', json(envelope(m.name, exampleParams(rng, m), rng.int(0, 1e6))));
  if (roll < 160) {
    // Wrong arity: fewer or more params than the schema allows.
    const params = exampleParams(rng, m);
    const n = rng.chance(0.5) ? rng.int(0, Math.max(0, params.length - 1)) : m.paramCount + rng.int(1, 3);
    const out = params.slice(0, n);
    while (out.length < n) out.push(rng.chance(0.5) ? junk(rng) : (params[0] ?? null));
    return base('arity', json(envelope(m.name, out)));
  }
  if (roll < 280) {
    const params = exampleParams(rng, m);
    if (params.length === 0) params.push(junk(rng));
    params[rng.int(0, params.length - 1)] = junk(rng);
    return base('wrong-type', json(envelope(m.name, params)));
  }
  if (roll < 380) {
    const params = exampleParams(rng, m);
    if (params.length === 0) params.push(hexRange(rng));
    const i = rng.int(0, params.length - 1);
    params[i] = typeof params[i] === 'object' && params[i] !== null ? mutateValue(rng, params[i]) : hexRange(rng);
    return base('hex-range', json(envelope(m.name, params)));
  }
  if (roll < 400) {
    const params = exampleParams(rng, m);
    if (params.length === 0) params.push(null);
    params[rng.int(0, params.length - 1)] = overLong(rng);
    return base('over-long', json(envelope(m.name, params)));
  }
  if (roll < 460) {
    const params = exampleParams(rng, m);
    const variant = rng.int(0, 5);
    if (variant === 0) return base('nulls', json({ jsonrpc: '2.0', id: 1, method: m.name, params: null }));
    if (variant === 1) return base('nulls', json({ jsonrpc: '2.0', id: null, method: m.name, params }));
    if (variant === 2) return base('nulls', json({ jsonrpc: '2.0', id: 1, method: null, params }));
    if (variant === 3) return base('nulls', json({ jsonrpc: null, id: 1, method: m.name, params }));
    if (variant === 4) return base('nulls', rng.pick(['null', '[null]', '[null,null]', '{}', '[]', '""', '0', 'true']));
    return base(
      'nulls',
      json(
        envelope(
          m.name,
          params.map(() => null),
        ),
      ),
    );
  }
  if (roll < 490) {
    const depth = rng.pick([64, 500, 5_000, 50_000, 200_000]);
    const deep = deepText(rng, depth);
    const where = rng.int(0, 3);
    if (where === 0) return base('deep-json', deep);
    if (where === 1) return base('deep-json', `{"jsonrpc":"2.0","id":${deep},"method":"${m.name}","params":[]}`);
    if (where === 2) return base('deep-json', `{"jsonrpc":"2.0","id":1,"method":"${m.name}","params":[${deep}]}`);
    const params = exampleParams(rng, m).map((p) => json(p));
    params[params.length === 0 ? 0 : rng.int(0, params.length - 1)] = deep;
    return base('deep-json', `{"jsonrpc":"2.0","id":1,"method":"${m.name}","params":[${params.join(',')}]}`);
  }
  if (roll < 540) {
    const n = rng.int(2, 20);
    const items = Array.from({ length: n }, () => {
      const other = rng.pick(methods);
      return rng.chance(0.2)
        ? junk(rng)
        : envelope(
            other.name,
            rng.chance(0.5) ? exampleParams(rng, other) : mutateValue(rng, exampleParams(rng, other)),
            rng.chance(0.1) ? undefined : rng.int(0, 1e6),
          );
    });
    return base('batch', json(items));
  }
  if (roll < 543) {
    // Around the batch limit (1000 by default): cheap methods, so the case costs the node parsing, not work.
    const n = rng.pick([999, 1000, 1001, 5000]);
    const cheap = ['eth_chainId', 'eth_blockNumber', 'net_version', 'web3_clientVersion', 'eth_gasPrice', 'nope_nope'];
    return base('huge-batch', json(Array.from({ length: n }, (_, i) => envelope(cheap[i % cheap.length]!, [], i))));
  }
  if (roll < 600) {
    const text = json(envelope(m.name, exampleParams(rng, m), rng.int(0, 99)));
    const at = rng.int(1, text.length - 1);
    return base(
      'invalid-utf8',
      Buffer.concat([Buffer.from(text.slice(0, at)), rng.pick(BAD_UTF8), Buffer.from(text.slice(at))]),
    );
  }
  if (roll < 660) {
    const text = json(envelope(m.name, exampleParams(rng, m)));
    return base('truncated', text.slice(0, rng.int(0, text.length - 1)));
  }
  if (roll < 665) {
    // The client declares a body, sends part of it and goes away: no answer is expected, the node must not mind.
    return base('cut-connection', json(envelope(m.name, exampleParams(rng, m))), { transport: 'http' });
  }
  if (roll < 700) {
    const contentType = rng.chance(0.1) ? null : rng.pick(CONTENT_TYPES);
    return base('content-type', json(envelope(m.name, exampleParams(rng, m))), { transport: 'http', contentType });
  }
  if (roll < 780) {
    const params = exampleParams(rng, m);
    const variant = rng.int(0, 7);
    const req: Record<string, unknown> = envelope(m.name, params);
    if (variant === 0) req.jsonrpc = rng.pick(['1.0', 2, '2', '2.00', '', ['2.0']]);
    else if (variant === 1) delete req.jsonrpc;
    else if (variant === 2) req.id = junk(rng);
    else if (variant === 3)
      req.method = rng.pick([
        m.name.toUpperCase(),
        m.name + '_',
        ` ${m.name}`,
        m.name.replace('_', '.'),
        'rpc.',
        '__proto__',
        'constructor',
        'toString',
        'hasOwnProperty',
        1,
        [],
        {},
      ]);
    else if (variant === 4) req.params = rng.pick([{}, { a: 1 }, 'x', 1, true]);
    else if (variant === 5) delete req.id;
    else if (variant === 6) delete req.method;
    else req.extra = junk(rng);
    return base('envelope', json(req));
  }
  const req = envelope(m.name, mutateValue(rng, exampleParams(rng, m)), rng.int(0, 1e6));
  return base('mutation', rng.chance(0.5) ? json(req) : mutateText(rng, json(req)));
}
