/**
 * `npm run spec:merge [-- <ref> [<base>]]`: brings the openrpc.json changes of a branch that still edited
 * openrpc.json (made before the spec was split into openrpc/) into the parts. A three-way merge of the composed
 * document (what the parts give now, in openrpc.json's own format), <base>'s openrpc.json and <ref>'s (default: the
 * branch being merged, MERGE_HEAD, and its merge base with HEAD); a clean result is split into openrpc/ at once.
 *
 * After `git merge <branch>` stops on openrpc.json (deleted here, modified there):
 *   npm run spec:merge                 # the branch's edits land in openrpc/methods/<namespace>.json …
 *   git rm -q --cached openrpc.json src/generated … (the generated files the branch still committed)
 * For the merge that brings openrpc/ itself into a main whose openrpc.json others edited:
 *   npm run spec:merge -- HEAD $(git merge-base HEAD MERGE_HEAD)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { composeSpec } from './compose.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const git = (...args: string[]): { status: number | null; stdout: string; stderr: string } =>
  spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });

const ref = process.argv[2] ?? 'MERGE_HEAD';
const base = process.argv[3] ?? git('merge-base', 'HEAD', ref).stdout.trim();
if (!base) throw new Error(`no merge base of HEAD and ${ref}: give one as the second argument`);
const show = (rev: string): string => {
  const out = git('show', `${rev}:openrpc.json`);
  if (out.status !== 0) throw new Error(`${rev} has no openrpc.json: ${out.stderr.trim()}`);
  return out.stdout;
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spec-merge-'));
const files = {
  ours: path.join(tmp, 'parts.json'),
  base: path.join(tmp, 'base.json'),
  theirs: path.join(tmp, 'theirs.json'),
};
fs.writeFileSync(files.ours, composeSpec(root).text);
fs.writeFileSync(files.base, show(base));
fs.writeFileSync(files.theirs, show(ref));
const merged = git(
  'merge-file',
  '-p',
  '-L',
  'openrpc/ (the parts)',
  '-L',
  'base',
  '-L',
  ref,
  files.ours,
  files.base,
  files.theirs,
);
fs.rmSync(tmp, { recursive: true, force: true });
if (merged.status === null || merged.status < 0) throw new Error(`git merge-file failed: ${merged.stderr}`);
const openrpcFile = path.join(root, 'openrpc.json');
fs.writeFileSync(openrpcFile, merged.stdout);
if (merged.status > 0) {
  console.error(
    `${merged.status} conflict(s): resolve the markers in openrpc.json, then run npm run spec:split (it takes openrpc.json into openrpc/).`,
  );
  process.exit(1);
}
const split = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'codegen', 'split.ts')], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(split.status ?? 1);
