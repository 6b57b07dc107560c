/**
 * The same call three ways (curl, the TypeScript client, Foundry's `cast`), written from a method's first example so a
 * reader can paste whichever tool they use. The URL is the dev node's default.
 */
import { clientMethodName } from '../naming.js';
import { liveValues } from './live-params.js';
import type { ExampleView, MethodView } from './model.js';

export const DEV_URL = 'http://127.0.0.1:8546';

export interface CallExample {
  readonly tool: 'curl' | 'TypeScript' | 'cast';
  readonly language: 'sh' | 'ts';
  readonly code: string;
}

/** A POSIX shell single-quoted word: nothing inside is expanded. */
const shellQuote = (text: string): string =>
  /^[A-Za-z0-9_./:@=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;

/** A JavaScript identifier to hold the result: the result's name when it is one, else `result`. */
function resultVariable(method: MethodView): string {
  const name = method.result?.name ?? 'result';
  return /^[a-z][A-Za-z0-9]*$/.test(name) && !['delete', 'new', 'this', 'default'].includes(name) ? name : 'result';
}

/** The example's params, with a log range moved to `latest` so the command works on a chain of any length. */
function portableParams(method: MethodView, example: ExampleView | undefined): unknown[] {
  const params = structuredClone([...(example?.params ?? [])]) as unknown[];
  if (example !== method.examples[0]) return params;
  for (const { path, kind } of liveValues(method)) {
    if (kind !== 'range-from' && kind !== 'range-to') continue;
    let target = params as unknown as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
    target[path[path.length - 1]] = 'latest';
  }
  return params;
}

export function callExamples(method: MethodView, example: ExampleView | undefined): CallExample[] {
  const params = portableParams(method, example);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: method.name, params });
  const curl = `curl -s ${DEV_URL} -H 'content-type: application/json' \\\n  -d ${shellQuote(body)}`;

  const args = params.map((p) => JSON.stringify(p)).join(', ');
  const typescript = [
    "import { createClient, httpTransport } from 'svc-node-client';",
    '',
    `const client = createClient(httpTransport('${DEV_URL}'));`,
    `const ${resultVariable(method)} = await client.${clientMethodName(method.name)}(${args});`,
  ].join('\n');

  // cast reads each plain argument as JSON when it parses, else as a string; objects and arrays go as one raw array.
  const plain = params.every((p) => typeof p === 'string' || typeof p === 'number' || typeof p === 'boolean');
  const castArgs = plain
    ? params.map((p) => shellQuote(String(p))).join(' ')
    : `--raw ${shellQuote(JSON.stringify(params))}`;
  const cast = `cast rpc --rpc-url ${DEV_URL} ${method.name}${castArgs ? ` ${castArgs}` : ''}`;

  return [
    { tool: 'curl', language: 'sh', code: curl },
    { tool: 'TypeScript', language: 'ts', code: typescript },
    { tool: 'cast', language: 'sh', code: cast },
  ];
}
