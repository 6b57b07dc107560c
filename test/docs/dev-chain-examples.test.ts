/**
 * The examples of openrpc.json named "fresh dev chain…" are what a fresh dev node answers, byte for byte: the
 * portal shows them as the response and "Try it" sends the first one, so a new user sees the same value twice.
 * The one send example ("dev chain: …") must at least be accepted from a key the dev node holds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startNode, type NodeProcess } from '../helpers/node-process.js';

interface Example {
  readonly name: string;
  readonly params: ReadonlyArray<{ readonly value: unknown }>;
  readonly result?: { readonly value: unknown };
}
const doc = JSON.parse(readFileSync(join(repoRoot, 'openrpc.json'), 'utf8')) as {
  methods: Array<{ name: string; examples: Example[] }>;
};
const FIRST_DEV_ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

const devExamples = doc.methods.flatMap((m) =>
  m.examples.filter((e) => e.name.startsWith('fresh dev chain')).map((e) => ({ method: m.name, example: e })),
);

async function call(
  url: string,
  method: string,
  params: readonly unknown[],
): Promise<{ result?: unknown; error?: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: unknown };
}

describe('openrpc.json examples on a fresh dev chain', () => {
  let node: NodeProcess;
  beforeAll(async () => {
    node = await startNode();
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('covers the state-reading methods a new user tries first', () => {
    const methods = new Set(devExamples.map((e) => e.method));
    for (const name of [
      'eth_getBalance',
      'eth_accounts',
      'eth_getBlockByNumber',
      'eth_getTransactionCount',
      'net_version',
    ]) {
      expect(methods, name).toContain(name);
    }
    // Try it sends a method's first example: for these, that is the dev-chain one.
    for (const name of ['eth_getBalance', 'eth_accounts', 'eth_getBlockByNumber']) {
      expect(doc.methods.find((m) => m.name === name)!.examples[0].name, name).toMatch(/^fresh dev chain/);
    }
    const balance = devExamples.find((e) => e.method === 'eth_getBalance')!.example;
    expect(balance.params[0].value).toBe(FIRST_DEV_ACCOUNT);
  });

  it.each(devExamples.map((e) => [`${e.method}: ${e.example.name}`, e] as const))(
    '%s',
    async (_label, { method, example }) => {
      const answer = await call(
        node.url,
        method,
        example.params.map((p) => p.value),
      );
      expect(answer.error).toBeUndefined();
      expect(answer.result).toEqual(example.result!.value);
    },
  );

  it('the first eth_sendTransaction example is sent from a dev account and mined', async () => {
    const send = doc.methods.find((m) => m.name === 'eth_sendTransaction')!.examples[0];
    const tx = send.params[0].value as { from: string };
    expect(tx.from).toBe(FIRST_DEV_ACCOUNT);
    const answer = await call(
      node.url,
      'eth_sendTransaction',
      send.params.map((p) => p.value),
    );
    expect(answer.error).toBeUndefined();
    const receipt = await call(node.url, 'eth_getTransactionReceipt', [answer.result]);
    expect((receipt.result as { status: string }).status).toBe('0x1');
  });
});
