/**
 * The command line's flags, made from the settings tables: a flag per setting that names one (booleans also come
 * negated), and `--help`, which lists the flags and then every setting with its environment name and default.
 */
import type { ParseArgsConfig } from 'node:util';
import { packageVersion } from '../node/node.js';
import { defaultText, envNameOf, settings } from '../node/settings/index.js';

const flagSettings = settings.filter((s) => s.flag !== undefined);

export const parseOptions: ParseArgsConfig['options'] = {
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  ...Object.fromEntries(
    flagSettings.map((s) => [s.flag!, { type: s.kind === 'bool' ? 'boolean' : 'string' }] as const),
  ),
  // Boolean flags also come negated (`--no-mine`), since a default of true must be switchable off from the command line.
  ...Object.fromEntries(
    flagSettings.filter((s) => s.kind === 'bool').map((s) => [`no-${s.flag!}`, { type: 'boolean' }] as const),
  ),
};

export function helpText(): string {
  const flagRows: Array<[string, string]> = [
    ['--config <file>', `TOML configuration file (env SVC_NODE_CONFIG)`],
    ...flagSettings.map((s): [string, string] => [
      `--${s.kind === 'bool' ? `${s.flag}, --no-${s.flag}` : s.flag}${s.kind === 'bool' ? '' : s.values ? ` <${s.values.join('|')}>` : ' <value>'}`,
      `${s.description} (default: ${defaultText(s)})`,
    ]),
    ['--help, -h', 'print this help'],
    ['--version', 'print the version'],
  ];
  const width = Math.max(...flagRows.map(([flag]) => flag.length)) + 2;
  const lines = [
    `svc-node ${packageVersion()}: an Ethereum Classic node whose JSON-RPC API is defined by one OpenRPC document`,
    '',
    'Usage: svc-node [options]        (from the repo: npm start -- [options])',
    '       svc-node [options] import <file>…                 history: era1 files or RLP block streams (.gz too)',
    '       svc-node [options] export <file> [first] [last]   canonical blocks as an RLP block stream (.gz: gzip)',
    '',
    'Options:',
    ...flagRows.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`),
    '',
    'Every setting can be given in the config file (TOML, keys as sections: [network.rpc.http] port = 8546),',
    'by environment variable, or by flag; flags beat the environment, which beats the file.',
    '',
    'Settings (config key, environment variable, default):',
    ...settings.map((s) => `  ${s.key}\n      ${envNameOf(s.key)}  (default: ${defaultText(s)})  ${s.description}`),
    '',
  ];
  return lines.join('\n');
}

/** Flag values keyed by setting key. */
export function flagsToSettings(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of flagSettings) {
    if (values[s.flag!] !== undefined) out[s.key] = values[s.flag!];
    else if (s.kind === 'bool' && values[`no-${s.flag!}`] === true) out[s.key] = false;
  }
  return out;
}
