/** Turns a raw value (TOML-typed, or a string from the environment or a flag) into its setting's type. */
import { ConfigError } from '../config-error.js';
import { parseDuration } from './duration.js';
import type { Setting } from './setting.js';

/** A value as a source gave it, and where it came from, for error messages. */
export interface Raw {
  readonly value: unknown;
  readonly source: string;
}

export type Value = string | number | boolean | readonly string[];

export function coerce(key: string, setting: Setting, { value, source }: Raw): Value {
  const fail = (expected: string): never => {
    throw new ConfigError(`${key} (${source}) must be ${expected}, got ${JSON.stringify(value)}`);
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
    case 'int': {
      const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
      return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : fail('a non-negative integer');
    }
    case 'duration': {
      if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : fail('a duration');
      const ms = typeof value === 'string' ? parseDuration(value) : undefined;
      return ms !== undefined ? ms : fail('a duration such as 100, "100ms", "10s" or "30m"');
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
