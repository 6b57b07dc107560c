/**
 * The configuration guide's reference of every setting is generated from the settings tables: it must be what the
 * generator gives today (a setting added, renamed or given another default without
 * `npx tsx scripts/settings-reference.ts --write` fails here), and it must name every setting.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envNameOf, settings } from '../../src/node/settings/index.js';
import { BEGIN, END, GUIDE, settingsReference } from '../../scripts/settings-reference.js';

/** Table rows without their padding: the formatter (biome) aligns the columns the generator leaves ragged. */
const unpadded = (markdown: string): string =>
  markdown
    .split('\n')
    .map((line) =>
      line.startsWith('|')
        ? line
            .split(/(?<!\\)\|/)
            .map((cell) => cell.trim().replace(/^-{3,}$/, '---'))
            .join('|')
        : line,
    )
    .join('\n');

describe('configuration guide: settings reference', () => {
  const guide = readFileSync(GUIDE, 'utf8');
  const committed = guide.slice(guide.indexOf(BEGIN), guide.indexOf(END) + END.length);

  it('is what the settings tables give (run npx tsx scripts/settings-reference.ts --write)', () => {
    expect(unpadded(committed)).toBe(unpadded(settingsReference()));
  });

  it('names every setting with its key, flag and environment variable', () => {
    for (const s of settings) {
      expect(unpadded(committed), s.key).toContain(`|\`${s.key}\`|`);
      expect(committed, s.key).toContain(`\`${envNameOf(s.key)}\``);
      if (s.flag !== undefined) expect(committed, s.key).toContain(`\`--${s.flag}\``);
    }
  });
});
