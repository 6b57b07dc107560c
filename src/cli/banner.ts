/**
 * What a person at a terminal reads once the node accepts requests: where to reach it, which chain it runs and
 * where it keeps its data. The same facts travel in the `listening` log line for programs; this is only the
 * human layout of them, printed when stdout is a terminal.
 */

export interface BannerFacts {
  readonly version: string;
  readonly network: string;
  readonly chainId: bigint;
  readonly url: string;
  readonly wsUrl?: string;
  readonly metricsUrl?: string;
  readonly docsUrl: string;
  readonly head: { readonly number: bigint; readonly hash: string };
  readonly datadir: string;
  readonly enode?: string;
}

export function startBanner(facts: BannerFacts): string {
  const rows: Array<[string, string | undefined]> = [
    ['JSON-RPC', facts.url],
    ['WebSocket', facts.wsUrl],
    ['Metrics', facts.metricsUrl],
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
    '',
  ].join('\n');
}
