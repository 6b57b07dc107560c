import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const configOf = (network: string, flags: Record<string, unknown> = {}) =>
  loadConfig({ flags: { 'blockchains.network': network, ...flags }, env: {} }).devOutput;

describe('dev.* output settings', () => {
  it('decode console.log on dev unless --quiet-console, and never on mordor or etc', () => {
    expect(configOf('dev')).toEqual({ console: true, printTraces: false });
    expect(configOf('dev', { 'dev.quiet-console': true }).console).toBe(false);
    expect(configOf('mordor').console).toBe(false);
    // Asking mordor for quiet is asking for what it already is: accepted.
    expect(configOf('mordor', { 'dev.quiet-console': true }).console).toBe(false);
    expect(configOf('etc').console).toBe(false);
  });

  it('take --print-traces on dev and refuse it elsewhere, naming the setting', () => {
    expect(configOf('dev', { 'dev.print-traces': true }).printTraces).toBe(true);
    expect(() => configOf('etc', { 'dev.print-traces': true })).toThrow(
      /dev\.print-traces \(--print-traces\) is for the dev network only/,
    );
  });
});
