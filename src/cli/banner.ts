/**
 * What a person at a terminal reads once the node accepts requests: where to reach it, which chain it runs and
 * where it keeps its data, one command to try, and on the dev chain its prefunded accounts with their keys (as
 * Hardhat and Anvil print them). The same facts travel in the `listening` log line for programs; this is only the
 * human layout of them, printed at a terminal.
 */
import { DEV_MNEMONIC } from '../chain/index.js';

export interface BannerFacts {
  readonly version: string;
  readonly network: string;
  readonly chainId: bigint;
  readonly url: string;
  readonly wsUrl?: string;
  readonly metricsUrl?: string;
  readonly docsUrl: string;
  /** `/mcp`, when the mcp namespace is on. */
  readonly mcpUrl?: string;
  /** Only on the dev chain: its publicly known test accounts. Never given on a real network. */
  readonly devAccounts?: readonly { readonly address: string; readonly privateKey: string }[];
  /** The mnemonic they come from. */
  readonly mnemonic?: string;
  readonly head: { readonly number: bigint; readonly hash: string };
  readonly datadir: string;
  readonly enode?: string;
}

export function startBanner(facts: BannerFacts): string {
  const rows: Array<[string, string | undefined]> = [
    ['JSON-RPC', facts.url],
    ['WebSocket', facts.wsUrl],
    ['Metrics', facts.metricsUrl],
    ['MCP', facts.mcpUrl],
    ['Docs', facts.docsUrl],
    ['Head', `block ${facts.head.number} (${facts.head.hash})`],
    ['Datadir', facts.datadir],
    ['Enode', facts.enode],
  ];
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return [
    '',
    `  svc-node ${facts.version} · ${facts.network} (chain id ${facts.chainId})`,
    ...rows.filter(([, value]) => value !== undefined).map(([label, value]) => `    ${label.padEnd(width)}${value}`),
    '',
    `  Try it:  ${tryLine(facts.url)}`,
    ...(facts.devAccounts !== undefined ? accountRows(facts.devAccounts, facts.mnemonic ?? DEV_MNEMONIC) : []),
    '',
    '',
  ].join('\n');
}

/** One command that works as printed, pasted into a POSIX shell. */
function tryLine(url: string): string {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
  return `curl -s -H 'content-type: application/json' -d '${body}' ${url}`;
}

function accountRows(
  accounts: readonly { readonly address: string; readonly privateKey: string }[],
  mnemonic: string,
): string[] {
  const known = mnemonic === DEV_MNEMONIC;
  return [
    '',
    '  Accounts (prefunded, unlocked in this node)',
    `  Mnemonic: "${mnemonic}"`,
    '',
    ...accounts.flatMap((a, i) => [`    (${i}) ${a.address}`, `        key ${a.privateKey}`]),
    '',
    known
      ? '  WARNING: these private keys are publicly known (the same test keys as Hardhat and Anvil).'
      : '  WARNING: these private keys are printed here and held unlocked by this node: test keys only.',
    '  Any funds sent to them on a real network (ETC mainnet, Mordor) will be taken. Use them on this dev chain only.',
  ];
}
