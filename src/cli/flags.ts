/**
 * The command line's flags, made from the settings tables: a flag per setting that names one (booleans also come
 * negated). `--help` is help.ts.
 */
import type { ParseArgsConfig } from 'node:util';
import { settings } from '../node/settings/index.js';

const flagSettings = settings.filter((s) => s.flag !== undefined);

export const parseOptions: ParseArgsConfig['options'] = {
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  // `svc-node db stats --json`: the answer as one JSON object.
  json: { type: 'boolean' },
  ...Object.fromEntries(
    flagSettings.map((s) => [s.flag!, { type: s.kind === 'bool' ? 'boolean' : 'string' }] as const),
  ),
  ...Object.fromEntries(
    flagSettings.flatMap((s) => (s.aliases ?? []).map((alias) => [alias, { type: 'string' }] as const)),
  ),
  // Boolean flags also come negated (`--no-mine`), since a default of true must be switchable off from the command line.
  ...Object.fromEntries(
    flagSettings.filter((s) => s.kind === 'bool').map((s) => [`no-${s.flag!}`, { type: 'boolean' }] as const),
  ),
};

/**
 * `--maxpeers -1` as `--maxpeers=-1`: parseArgs takes a value starting with a dash for a flag and refuses it, so
 * a negative number would be answered with a puzzle about option syntax instead of the setting's range.
 */
export function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const option = parseOptions?.[arg.replace(/^--/, '')];
    if (arg.startsWith('--') && option?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Flag values keyed by setting key. */
export function flagsToSettings(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of flagSettings) {
    const alias = s.aliases?.find((a) => values[a] !== undefined);
    if (values[s.flag!] !== undefined) out[s.key] = values[s.flag!];
    else if (alias !== undefined) out[s.key] = values[alias];
    else if (s.kind === 'bool' && values[`no-${s.flag!}`] === true) out[s.key] = false;
  }
  return out;
}
