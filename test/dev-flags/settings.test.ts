import { describe, expect, it } from 'vitest';
import { flagsToSettings } from '../../src/cli/flags.js';
import { ConfigError, loadConfig } from '../../src/node/config.js';

const load = (flags: Record<string, unknown>, network = 'dev') =>
  loadConfig({ flags: { 'blockchains.network': network, ...flags }, env: {} });

describe("Anvil's dev flags", () => {
  it('take bare numbers of seconds, as Anvil does', () => {
    const { dev } = load(flagsToSettings({ 'block-time': '2', 'state-interval': '0.5', 'dump-state': '/tmp/x.json' }));
    expect(dev.blockTimeMs).toBe(2000);
    expect(dev.stateIntervalMs).toBe(500);
    expect(load(flagsToSettings({ 'block-time': '250ms' })).dev.blockTimeMs).toBe(250);
  });

  it('read --fork-block-number as --fork-block', () => {
    const flags = flagsToSettings({ 'fork-url': 'http://127.0.0.1:8545', 'fork-block-number': '12' });
    expect(flags).toEqual({ 'fork.url': 'http://127.0.0.1:8545', 'fork.block': '12' });
    expect(load(flags).fork?.block).toBe(12n);
  });

  it('read the balance in ether, decimals allowed, and refuse what is none', () => {
    expect(load({ 'dev.balance': '12.5' }).dev.balanceWei).toBe(12_500_000_000_000_000_000n);
    expect(() => load({ 'dev.balance': '-1' })).toThrow(/dev.balance \(--balance\) must be an amount of ether/);
  });

  it('give other test accounts a datadir of their own', () => {
    const standard = load({}).datadir;
    const other = load({ 'dev.accounts': 3 }).datadir;
    expect(other).not.toBe(standard);
    expect(other).toMatch(/dev-instant-accounts-[0-9a-f]{10}$/);
    expect(load({ 'dev.accounts': 10 }).datadir).toBe(standard);
    expect(load({ 'dev.accounts': 3 }).dev.customAccounts).toBe(true);
  });

  it('need a file for --state-interval, and the dev network', () => {
    expect(() => load({ 'dev.state-interval': '5' })).toThrow(/needs a file to write/);
    expect(() => load({ 'dev.state': '/tmp/s.json' }, 'mordor')).toThrow(ConfigError);
    expect(() => load({ 'dev.order': 'fifo' }, 'mordor')).toThrow(
      /--order: Anvil's dev flags serve the dev network only/,
    );
  });
});
