import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-node-override-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function withFile(text: string) {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, text);
  return file;
}

describe('override.<fork> settings', () => {
  it('reads an [override] table, dotted keys, flags and the environment; never unschedules', () => {
    const table = loadConfig({ configFile: withFile('[override]\nspiral = 20\nmystique = "10"\n') });
    expect(table.forkOverrides).toEqual({ mystique: 10n, spiral: 20n });
    const dotted = loadConfig({
      configFile: withFile('override.spiral = "never"\n'),
      flags: { 'override.mystique': '5' },
    });
    expect(dotted.forkOverrides).toEqual({ mystique: 5n, spiral: null });
    const env = loadConfig({ env: { SVC_NODE_OVERRIDE_SPIRAL: '1_000' } });
    expect(env.forkOverrides).toEqual({ spiral: 1000n });
    expect(loadConfig({}).forkOverrides).toEqual({});
  });

  it('refuses a misspelt fork with the one it meant, a bad block, and a fork before one it builds on', () => {
    expect(() => loadConfig({ configFile: withFile('[override]\nspirl = 20\n') })).toThrow(
      /unknown setting "override.spirl".*did you mean override.spiral\?/,
    );
    expect(() => loadConfig({ flags: { 'override.spiral': '-3' } })).toThrow(/block number \(0 or more\) or "never"/);
    expect(() => loadConfig({ configFile: withFile('[override]\nspiral = -3\n') })).toThrow(/block number/);
    expect(() => loadConfig({ flags: { 'override.mystique': 'never' } })).toThrow(
      /spiral at 0 builds on mystique, which would come never/,
    );
    expect(() => loadConfig({ flags: { 'blockchains.network': 'mordor', 'override.spiral': '5000000' } })).toThrow(
      /spiral at 5000000 \(override\) builds on mystique, which would come after it \(mystique at 5520000\)/,
    );
  });
});
