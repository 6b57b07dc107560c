/**
 * Tells the operator, while the node has no peer, that it is looking and how: once shortly after start, then at
 * a slow pace (never more than one line per period), and once more when the first peer arrives.
 */
import type { PeerLog } from './peer-manager.js';
import type { PeerSearch } from './types.js';
import { describeDialFailures } from './dial-failures.js';

/** "2 refused, 1 timed out", or '' when no dial failed. */
const failures = (s: PeerSearch): string => (s.dialFailures === undefined ? '' : describeDialFailures(s.dialFailures));

const FIRST_AFTER_MS = 10_000;
const THEN_EVERY_MS = 120_000;

export function startSearchLog(
  log: PeerLog,
  peerCount: () => number,
  search: () => PeerSearch,
  timing = { firstAfterMs: FIRST_AFTER_MS, everyMs: THEN_EVERY_MS },
): () => void {
  let lonely = false;
  let timer: NodeJS.Timeout;
  const report = (): void => {
    if (peerCount() > 0) {
      if (lonely) log.info('p2p found peers', { peers: peerCount() });
      lonely = false;
    } else {
      lonely = true;
      const s = search();
      log.info('p2p looking for peers', {
        discovery: s.discovery,
        bootnodes: s.bootnodes,
        dnsTrees: s.dnsTrees.map((t) => (t.error === null ? `${t.url} (${t.records} nodes)` : `${t.url} (${t.error})`)),
        dialsTried: s.dialsTried,
        ...(failures(s) !== '' ? { dialFailures: failures(s) } : {}),
        nodesKnown: s.tableSize + s.candidates,
      });
    }
    timer = setTimeout(report, lonely ? timing.everyMs : timing.firstAfterMs);
    timer.unref();
  };
  timer = setTimeout(report, timing.firstAfterMs);
  timer.unref();
  return () => clearTimeout(timer);
}

/** One line for /healthcheck and the MCP sync status: where the node looks for peers and how far it got. */
export function describeSearch(s: PeerSearch): string {
  const where: string[] = [];
  if (s.bootnodes.length > 0) where.push(`${s.bootnodes.length} bootnode(s) ${s.bootnodes.join(', ')}`);
  for (const t of s.dnsTrees) where.push(`DNS tree ${t.url} (${t.error ?? `${t.records} nodes`})`);
  if (s.discovery) where.push(`discv4 on UDP ${s.udpPort} (${s.tableSize} nodes in table)`);
  const through = where.length > 0 ? where.join('; ') : 'nothing: no bootnodes, no DNS trees, discovery off';
  const failed = failures(s) !== '' ? ` (failed: ${failures(s)})` : '';
  return `looking for peers through ${through}; ${s.dialsTried} dial(s) tried${failed}, ${s.candidates} node(s) waiting`;
}
