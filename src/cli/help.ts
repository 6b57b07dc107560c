/**
 * `--help`: examples first, then the flags by group, wrapped at 100 columns; `--help all` adds every setting with
 * its config key, environment name, default and accepted range. Groups come from the settings tables
 * (src/node/settings/index.ts), so a new setting shows up in its table's group without a change here.
 */
import { packageVersion } from '../node/node.js';
import { rangeText } from '../node/settings/coerce.js';
import { defaultText, envNameOf, settingGroups, settings, type KeyedSetting } from '../node/settings/index.js';

export const HELP_WIDTH = 100;
const FLAG_COLUMN = 30;

/** Words of `text` in lines of at most `width - indent` characters, each line indented. */
export function wrap(text: string, indent: number, width = HELP_WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  // A comma list without spaces (a default list) is broken after its commas where it would not fit; `joined`
  // marks such a piece, which follows the previous one without a space when they share a line.
  const words = text
    .split(/\s+/)
    .filter((w) => w !== '')
    .flatMap((w) =>
      indent + w.length > width
        ? w.split(/(?<=,)/).map((piece, i) => ({ piece, joined: i > 0 }))
        : [{ piece: w, joined: false }],
    );
  for (const { piece, joined } of words) {
    const glue = line === '' || joined ? '' : ' ';
    if (line !== '' && indent + line.length + glue.length + piece.length > width) {
      lines.push(line);
      line = piece;
    } else line = `${line}${glue}${piece}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => ' '.repeat(indent) + l);
}

/** A flag and its text: on one line where the flag fits its column, else the text starts on the next line. */
function row(flag: string, text: string): string[] {
  const body = wrap(text, FLAG_COLUMN + 2);
  const head = `  ${flag}`;
  if (head.length <= FLAG_COLUMN) return [head.padEnd(FLAG_COLUMN + 2) + body[0]!.trimStart(), ...body.slice(1)];
  return [head, ...body];
}

const placeholder: Record<string, string> = {
  int: '<n>',
  duration: '<duration>',
  path: '<path>',
  address: '<address>',
  list: '<list>',
  origins: '<origins>',
  string: '<value>',
  block: '<block|never>',
};

function flagOf(s: KeyedSetting): string {
  if (s.kind === 'bool') return `--${s.flag}, --no-${s.flag}`;
  const value =
    s.placeholder ?? (s.values ? `<${s.values.join('|')}>` : s.max === 65535 ? '<port>' : placeholder[s.kind]!);
  return [s.flag!, ...(s.aliases ?? [])].map((name) => `--${name}`).join(', ') + ` ${value}`;
}

const examples: ReadonlyArray<readonly [string, readonly string[]]> = [
  [
    'A dev chain on http://127.0.0.1:8546 (chain id 1337, funded test accounts, a block per transaction):',
    ['svc-node'],
  ],
  [
    'Follow the Mordor testnet, with Prometheus metrics at http://127.0.0.1:8546/metrics:',
    ['svc-node --network mordor --metrics'],
  ],
  [
    'A private proof-of-work chain of two nodes: the first mines; the second dials it (the enode URL is on the ' +
      'first node\'s "listening" log line) and follows:',
    [
      'svc-node --seal ethash --datadir ./node-a --p2p.port 30311',
      'svc-node --seal ethash --datadir ./node-b --http.port 8547 --p2p.port 30312 --no-mine \\',
      '    --bootnodes enode://<node id of node-a>@127.0.0.1:30311',
    ],
  ],
  [
    'Import ETC history from era1 files (every seal, header, body and state root checked), then serve it:',
    ['svc-node --network etc import mainnet-00000-5ec1ffb8.era1 mainnet-00001-*.era1'],
  ],
];

export function helpText(all = false): string {
  const lines = [
    ...wrap(
      `svc-node ${packageVersion()}: an Ethereum Classic node whose JSON-RPC API is defined by one OpenRPC document`,
      0,
    ),
    '',
    'Usage: svc-node [options]        (from the repo: npm start -- [options])',
    '       svc-node [options] import <file>…         history from era1 files or RLP streams (.gz too)',
    '       svc-node [options] export <file> [a] [b]  blocks a..b as an RLP stream (.gz: gzipped)',
    "       svc-node [options] db stats [--json]      the datadir's size by table (offline)",
    '       svc-node [options] fork-cache [clear]     the fork cache by chain id and block; empty it',
    '',
    'Examples:',
    ...examples.flatMap(([what, commands]) => [...wrap(what, 2), ...commands.map((c) => `    ${c}`)]),
    '',
    'Options:',
    ...row('--config <file>', 'TOML configuration file (env SVC_NODE_CONFIG)'),
    ...row('--help, -h', 'print this help; --help all also lists every setting'),
    ...row('--version', 'print the version'),
  ];
  for (const group of settingGroups) {
    const flagged = settings.filter((s) => s.group === group && s.flag !== undefined);
    if (flagged.length === 0) continue;
    lines.push('', `${group}:`);
    for (const s of flagged) lines.push(...row(flagOf(s), `${s.description} (default: ${defaultText(s)})`));
  }
  lines.push(
    '',
    ...wrap(
      'Every setting can be given in the config file (TOML, keys as sections: [network.rpc.http] port = 8546), ' +
        'by environment variable, or by flag; flags beat the environment, which beats the file. ' +
        (all ? '' : 'svc-node --help all lists every setting, with or without a flag.'),
      0,
    ),
  );
  if (all) lines.push(...reference());
  lines.push('');
  return lines.join('\n');
}

/** Every setting: config key and flag, then environment name, default and range, then what it does. */
function reference(): string[] {
  const lines = ['', 'Settings (config key, flag; environment variable, default, accepted values):'];
  for (const group of settingGroups) {
    lines.push('', `${group}:`);
    for (const s of settings.filter((x) => x.group === group)) {
      const accepts = s.kind === 'int' || s.kind === 'duration' ? `; ${rangeText(s)}` : '';
      lines.push(
        `  ${s.key}${s.flag !== undefined ? `  (${[s.flag, ...(s.aliases ?? [])].map((f) => `--${f}`).join(', ')})` : ''}`,
        ...wrap(`${envNameOf(s.key)}; default ${defaultText(s)}${accepts}`, 6),
        ...wrap(s.description, 6),
      );
    }
  }
  return lines;
}
