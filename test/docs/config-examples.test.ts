/**
 * The configuration files the README and the guides show are what an operator copies first: each ```toml block
 * must load as it stands (an unknown key stops the node at start), and a list the text calls the default must be it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/node/config.js';
import { DEFAULT_PROTECTED } from '../../src/node/settings/auth.js';
import { repoRoot } from '../helpers/node-process.js';

interface TomlBlock {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

function tomlBlocks(file: string): TomlBlock[] {
  const lines = readFileSync(join(repoRoot, file), 'utf8').split('\n');
  const blocks: TomlBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```toml\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    while (i + 1 < lines.length && !/^```\s*$/.test(lines[i + 1]!)) i++;
    blocks.push({ file, line: start + 1, text: lines.slice(start, i + 1).join('\n') });
  }
  return blocks;
}

const guides = readdirSync(join(repoRoot, 'codegen/docs/guides')).filter((f) => f.endsWith('.md'));
const blocks = ['README.md', ...guides.map((g) => `codegen/docs/guides/${g}`)].flatMap(tomlBlocks);
const dir = mkdtempSync(join(tmpdir(), 'svc-node-config-examples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('configuration examples in the docs', () => {
  it('there are some (the configuration guide has the full one, the operating guide the auth one)', () => {
    expect(blocks.map((b) => b.file)).toEqual(
      expect.arrayContaining(['codegen/docs/guides/configuration.md', 'codegen/docs/guides/operating.md']),
    );
  });

  it.each(blocks.map((b) => [`${b.file}:${b.line}`, b] as const))('%s loads as written', (_where, block) => {
    const file = join(dir, `${block.file.replaceAll('/', '_')}-${block.line}.toml`);
    writeFileSync(file, block.text);
    // Only the file: the environment of the test run must not fill in or override what the example says.
    const config = loadConfig({ configFile: file, env: {}, cwd: dir });
    expect(config.datadir).not.toBe('');
  });

  it('a key in the wrong section is refused with the section it belongs to', () => {
    const file = join(dir, 'misplaced.toml');
    writeFileSync(file, '[mining]\ncheckpointing = true\n');
    expect(() => loadConfig({ configFile: file, env: {}, cwd: dir })).toThrow(
      `unknown setting "mining.checkpointing" in ${file}: did you mean blockchains.checkpointing? ` +
        '(svc-node --help all lists every setting and its section)',
    );
  });

  it('the operating guide\'s "default list" of protected methods is the default', () => {
    const block = blocks.find((b) => b.text.includes('This is the default list'));
    expect(block).toBeDefined();
    const toml = parse(block!.text) as { network: { rpc: { auth: { protected: string[] } } } };
    expect(toml.network.rpc.auth.protected).toEqual([...DEFAULT_PROTECTED]);
  });
});
