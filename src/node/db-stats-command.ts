/**
 * `svc-node db stats [--json]`: where the datadir's bytes go, offline. Each table of the chain database (headers,
 * bodies, receipts, trie nodes and code, flat state, indexes, metadata…) with its entries and key and value bytes
 * from a scan and LevelDB's estimate of its bytes on disk, and the bytes of the whole directory. Refused while a node
 * holds the datadir (the database's lock says so): a running node's numbers move under the scan anyway.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { chainDbTableStats, DatabaseLockedError, type TableStats } from '../chain/index.js';
import { lockedDatadirMessage } from './datadir-pid.js';

export interface DbCommandResult {
  readonly exitCode: number;
  readonly error?: string;
}

export interface DbStatsReport {
  readonly datadir: string;
  readonly network: string;
  readonly tables: readonly TableStats[];
  /** Every file under the datadir (the chain database, keys, the node key, logs…). */
  readonly datadirBytes: number;
  readonly chaindataBytes: number;
}

export interface DbStatsOptions {
  readonly datadir: string;
  readonly network: string;
  readonly json: boolean;
  readonly out: NodeJS.WritableStream;
  /** Where the scan's progress goes (stderr: stdout holds the answer). */
  readonly progress: NodeJS.WritableStream;
}

export async function runDbStats(args: readonly string[], opts: DbStatsOptions): Promise<DbCommandResult> {
  if (args.length > 0)
    return {
      exitCode: 2,
      error: `db stats takes no arguments (got ${args.join(' ')}); write svc-node db stats [--json]`,
    };
  const chaindata = join(opts.datadir, 'chaindata');
  if (!existsSync(join(chaindata, 'CURRENT')))
    return { exitCode: 1, error: `no chain database in ${opts.datadir} (expected ${chaindata})` };
  let tables: TableStats[];
  try {
    tables = await chainDbTableStats(chaindata, (n) => opts.progress.write(`svc-node: db stats: ${n} records read\n`));
  } catch (err) {
    if (err instanceof DatabaseLockedError) return { exitCode: 1, error: lockedDatadirMessage(opts.datadir) };
    throw err;
  }
  const report: DbStatsReport = {
    datadir: opts.datadir,
    network: opts.network,
    tables,
    datadirBytes: bytesUnder(opts.datadir),
    chaindataBytes: bytesUnder(chaindata),
  };
  opts.out.write(opts.json ? `${JSON.stringify(report)}\n` : textOf(report));
  return { exitCode: 0 };
}

/** Bytes of the files under `path` (symbolic links not followed). */
function bytesUnder(path: string): number {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return 0;
  if (!stat.isDirectory()) return stat.isFile() ? stat.size : 0;
  let total = 0;
  for (const name of readdirSync(path)) total += bytesUnder(join(path, name));
  return total;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function humanBytes(n: number): string {
  let v = n;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} B` : `${v.toFixed(1)} ${UNITS[u]}`;
}

function textOf(r: DbStatsReport): string {
  const rows: string[][] = [['table', '', 'entries', 'keys+values', 'on disk (LevelDB)']];
  for (const t of r.tables) {
    rows.push([t.tag, t.name, String(t.entries), humanBytes(t.keyBytes + t.valueBytes), humanBytes(t.diskBytes)]);
    for (const p of t.parts ?? [])
      rows.push(['', `  ${p.name}`, String(p.entries), humanBytes(p.keyBytes + p.valueBytes), '']);
  }
  const width = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i >= 2 ? cell.padStart(width[i]!) : cell.padEnd(width[i]!)))
      .join('  ')
      .trimEnd();
  const total = r.tables.reduce((sum, t) => sum + t.keyBytes + t.valueBytes, 0);
  return (
    `${r.network} chain database in ${r.datadir}\n` +
    `${rows.map(line).join('\n')}\n` +
    `keys+values ${humanBytes(total)}; chaindata ${humanBytes(r.chaindataBytes)} on disk; ` +
    `datadir ${humanBytes(r.datadirBytes)} in all\n`
  );
}
