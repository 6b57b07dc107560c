/**
 * Foundry's binaries for the issue-27 tests: Anvil (from @foundry-rs/anvil) started on a free loopback port with the
 * dev chain's id and the dev mnemonic (Anvil's default), and cast (from @foundry-rs/cast). Both come in per-platform
 * packages; `undefined` where this platform has none, so the tests can say why they skip.
 */
import { type AnvilNode, foundryBinary, startAnvil as startAnvilNode } from '../../helpers/anvil-node.js';

export const anvilPath = foundryBinary('anvil');
export const castPath = foundryBinary('cast');

export type AnvilProcess = AnvilNode;

/** Anvil on 127.0.0.1, chain id 1337; `args` adds flags (e.g. `--no-mining`). Resolves once it answers RPC. */
export function startAnvil(args: readonly string[] = []): Promise<AnvilProcess> {
  return startAnvilNode({ args });
}

/** One JSON-RPC call; the whole response (result or error). */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<{ result?: any; error?: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: any; error?: any };
}

/** The result, or a thrown error naming the JSON-RPC error. */
export async function ok(url: string, method: string, params: unknown[] = []): Promise<any> {
  const answer = await rpc(url, method, params);
  if (answer.error !== undefined) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}
