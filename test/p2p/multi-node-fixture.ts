/**
 * Shared pieces of the multi-node tests (cluster, reorg): JSON-RPC calls that fail loudly, polling with a deadline
 * whose timeout message carries the nodes' own p2p/sync log lines (so a failure shows what the nodes saw, not only
 * what the test waited for), and the static-nodes.json a node reads at start.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

export { call };

export const blockNumberOf = async (node: NodeProcess): Promise<number> =>
  Number(await call<string>(node.url, 'eth_blockNumber'));
export const peerCountOf = async (node: NodeProcess): Promise<number> =>
  Number(await call<string>(node.url, 'net_peerCount'));
export const blockAt = (node: NodeProcess, tag: number | 'latest') =>
  call<{ hash: string; number: string; miner: string; timestamp: string; totalDifficulty: string } | null>(
    node.url,
    'eth_getBlockByNumber',
    [typeof tag === 'number' ? `0x${tag.toString(16)}` : tag, false],
  );

/** The 128-hex-digit node id of an enode URL. */
export function nodeIdOfEnode(enode: string): string {
  const match = /^enode:\/\/([0-9a-f]{128})@/i.exec(enode);
  if (!match) throw new Error(`not an enode URL: ${enode}`);
  return match[1].toLowerCase();
}

/** A fresh datadir whose static-nodes.json lists `enodes` (the node dials them at start and keeps redialling). */
export function datadirWithStaticPeers(enodes: readonly string[]): string {
  const datadir = mkdtempSync(join(tmpdir(), 'svc-node-p2p-'));
  writeFileSync(join(datadir, 'static-nodes.json'), JSON.stringify(enodes));
  return datadir;
}

/** The node's log lines about peering and sync (msg starting "p2p" or "sync"), as JSON text, newest last. */
export function peeringLog(node: NodeProcess, last = 40): string[] {
  return node.logs
    .filter((entry) => typeof entry.msg === 'string' && /^(p2p|sync)/.test(entry.msg))
    .slice(-last)
    .map((entry) => JSON.stringify(entry));
}

/**
 * Polls `condition` every 100 ms until it holds; after `timeoutMs` throws an Error with `what`, the last value
 * `describe` gives of the state, and the peering log of every named node.
 */
export async function waitFor(
  condition: () => Promise<boolean>,
  what: string,
  nodes: Record<string, NodeProcess>,
  timeoutMs = 20_000,
  describe?: () => Promise<string>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let held = false;
    try {
      held = await condition();
    } catch {
      // A node restarting or busy: keep polling until the deadline.
    }
    if (held) return;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const state = describe ? await describe().catch((err: Error) => `(could not read state: ${err.message})`) : '';
  const logs = Object.entries(nodes).map(
    ([name, node]) => `--- ${name} p2p/sync log:\n${peeringLog(node).join('\n') || '(none)'}`,
  );
  throw new Error([`timed out after ${timeoutMs} ms waiting for ${what}`, state, ...logs].filter(Boolean).join('\n'));
}
