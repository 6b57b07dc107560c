/** Turns a raw value (TOML-typed, or a string from the environment or a flag) into its setting's type. */
import { ConfigError } from '../config-error.js';
import { mayListenOn, notLocalMessage } from './address.js';
import { formatDuration, parseDuration } from './duration.js';
import type { Setting } from './setting.js';

/** A value as a source gave it, and where it came from, for error messages. */
export interface Raw {
  readonly value: unknown;
  readonly source: string;
}

export type Value = string | number | boolean | readonly string[];

/** Node's timers hold at most 2^31 - 1 ms; a longer delay silently becomes 1 ms, so no duration may exceed it. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** "an integer from 0 to 65535", "an integer of at least 1", … as the messages state a range. */
export function rangeText(setting: Setting): string {
  const { min = 0, max } = setting;
  if (setting.kind === 'duration') {
    const upper = formatDuration(Math.min(max ?? MAX_DURATION_MS, MAX_DURATION_MS));
    const bare = setting.bareSeconds === true ? 'seconds' : 'ms';
    return `a duration from ${formatDuration(min)} to ${upper} (${bare}, or "100ms", "10s", "30m", "2h")`;
  }
  if (max !== undefined) return `an integer from ${min} to ${max}`;
  return min === 0 ? 'a non-negative integer' : `an integer of at least ${min}`;
}

const BLOCK = 'a block number (0 or more) or "never"';

export function coerce(key: string, setting: Setting, { value, source }: Raw): Value {
  const fail = (expected: string): never => {
    throw new ConfigError(`${key} (${source}) must be ${expected}; got ${JSON.stringify(value)}`);
  };
  switch (setting.kind) {
    case 'string':
    case 'path':
      return typeof value === 'string' && value !== '' ? value : fail('a non-empty string');
    case 'enum':
      return typeof value === 'string' && setting.values!.includes(value)
        ? value
        : fail(`one of ${setting.values!.join(', ')}`);
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === '1') return true;
      if (value === 'false' || value === '0') return false;
      return fail('true or false');
    case 'address': {
      if (typeof value !== 'string' || value === '') return fail('an IP address or host name');
      if (mayListenOn(value.trim())) return value.trim();
      throw new ConfigError(notLocalMessage(key, source, value));
    }
    case 'int': {
      const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      return typeof n === 'number' && Number.isSafeInteger(n) && inBounds(setting, n) ? n : fail(withHint(setting));
    }
    case 'block': {
      if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : fail(BLOCK);
      const t = typeof value === 'string' ? value.trim().replaceAll('_', '') : '';
      if (t === 'never' || t === 'none') return 'never';
      return /^\d+$/.test(t) ? BigInt(t).toString() : fail(BLOCK);
    }
    case 'duration': {
      // A bare number from the environment or a flag is milliseconds, as it is in the config file (seconds where
      // the setting copies a flag that counts them).
      const bare = setting.bareSeconds === true ? 1000 : 1;
      const ms =
        typeof value === 'number'
          ? value * bare
          : typeof value === 'string'
            ? /^\s*\d+(\.\d+)?\s*$/.test(value)
              ? Math.round(Number(value) * bare)
              : parseDuration(value)
            : undefined;
      return ms !== undefined && Number.isFinite(ms) && inBounds(setting, ms) ? ms : fail(withHint(setting));
    }
    case 'list': {
      const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : fail('a comma list');
      return list.map((v) => (typeof v === 'string' ? v.trim() : fail('a list of strings'))).filter((v) => v !== '');
    }
    case 'origins': {
      if (value === '*') return '*';
      const list = Array.isArray(value)
        ? value
        : typeof value === 'string'
          ? value.split(',')
          : fail('"*" or a list of origins');
      const origins = list
        .map((v) => (typeof v === 'string' ? v.trim() : fail('"*" or a list of origins')))
        .filter((v) => v !== '');
      return origins.includes('*') ? '*' : origins;
    }
  }
}

function inBounds(setting: Setting, n: number): boolean {
  const max = setting.kind === 'duration' ? Math.min(setting.max ?? MAX_DURATION_MS, MAX_DURATION_MS) : setting.max;
  return n >= (setting.min ?? 0) && (max === undefined || n <= max);
}

const withHint = (setting: Setting): string =>
  setting.hint !== undefined ? `${rangeText(setting)} (${setting.hint})` : rangeText(setting);
