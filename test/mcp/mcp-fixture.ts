/**
 * Shared pieces of the MCP tests: JSON-RPC calls that fail loudly, polling with a deadline, and validators for
 * the Mcp* shapes compiled straight from openrpc.json (not through the code under test).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { repoRoot } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

export { call };

/** A JSON-RPC batch over HTTP; answers in request order (the ids are the indexes). */
export async function batch(url: string, calls: ReadonlyArray<readonly [string, unknown[]?]>): Promise<any[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params: params ?? [] }))),
  });
  const answers = (await res.json()) as Array<{ id: number }>;
  return [...answers].sort((a, b) => a.id - b.id);
}

export async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const document = JSON.parse(readFileSync(join(repoRoot, 'openrpc.json'), 'utf8')) as { components: unknown };
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'openrpc', components: document.components });
const compiled = new Map<string, ValidateFunction>();

/** Checks `value` against the openrpc.json component `name`; throws with ajv's errors when it does not match. */
export function expectShape(name: string, value: unknown): void {
  let validate = compiled.get(name);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: `openrpc#/components/schemas/${name}` });
    compiled.set(name, validate);
  }
  if (!validate(value)) throw new Error(`not a ${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value)}`);
}

/** The label: value lines of a tool's text report, as a map. */
export function reportLines(text: string): Map<string, string> {
  const lines = new Map<string, string>();
  for (const line of text.split('\n').slice(1)) {
    const match = /^ {2}([^:]+): (.*)$/.exec(line);
    if (match) lines.set(match[1]!, match[2]!);
  }
  return lines;
}
