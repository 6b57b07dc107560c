/**
 * Mistakes on the command line, in one style: one line, "what is wrong; what to do", alone on stderr, exit code 2
 * (issue 44). Node's parseArgs words its refusals for its own syntax ("To specify a positional argument starting with
 * a '-', place it at the end of the command after '--'…"), so the flags are checked here first, from its tokens.
 */
import { parseArgs } from 'node:util';
import { editDistance } from '../chain/index.js';
import { parseOptions } from './flags.js';

/** The exit code of every command-line mistake. */
export const USAGE_EXIT_CODE = 2;

const options = parseOptions ?? {};
const longNames = Object.keys(options);

/** The known word a mistyped one most likely meant: a few letters away, never most of the word. */
export function nearest(word: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(word, name);
    if (distance <= Math.min(3, Math.floor(name.length / 2)) && (best === undefined || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
}

function unknownFlag(rawName: string, name: string): string {
  const meant = rawName.startsWith('--') ? nearest(name, longNames) : undefined;
  if (meant !== undefined) return `unknown flag ${rawName}; did you mean --${meant}?`;
  if (name.startsWith('override.')) {
    const forks = longNames.filter((n) => n.startsWith('override.')).map((n) => n.slice('override.'.length));
    return `unknown flag ${rawName}; the forks are ${forks.join(', ')}`;
  }
  return `unknown flag ${rawName}; svc-node --help lists the flags`;
}

/** The first flag in `args` that is unknown or lacks (or wrongly has) a value; undefined when all are well-formed. */
export function flagMistake(args: readonly string[]): string | undefined {
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const { name, rawName } = token;
    const option = options[name];
    if (option === undefined) return unknownFlag(rawName, name);
    // Without strict checks parseArgs takes the next word as the value even when it is a flag (`--http.port --mine`).
    const missing = token.value === undefined || (!token.inlineValue && token.value.startsWith('-'));
    if (option.type === 'string' && missing) return `missing value for ${rawName}; write ${rawName} <value>`;
    if (option.type === 'boolean' && token.value !== undefined) {
      const negated = `no-${name}` in options ? ` or --no-${name}` : '';
      return `${rawName} takes no value; write ${rawName}${negated}`;
    }
  }
  return undefined;
}

/** A word where a command goes that is none: the one it most likely meant. */
export function unknownCommand(word: string, commands: readonly string[], what = 'command'): string {
  const meant = nearest(word, commands);
  return meant !== undefined
    ? `unknown ${what} ${word}; did you mean ${meant}?`
    : `unknown ${what} ${word}; the ${what}s are ${commands.join(', ')}`;
}

/**
 * A bad value given by a flag on this command line (`--http.port eighty`, `--apis bogus`), as the settings word it:
 * `network.rpc.http.port (--http.port) must be …; got "eighty"`. Not the refusals of a combination of settings
 * (`--print-traces` off the dev chain): those are the configuration's, as from a config file.
 */
export function isFlagValueError(message: string, args: readonly string[]): boolean {
  const flag = /^[\w.-]+ \((--[\w.-]+)\) must .*; got /.exec(message)?.[1];
  return flag !== undefined && args.some((a) => a === flag || a.startsWith(`${flag}=`));
}
