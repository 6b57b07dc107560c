/**
 * Before any test: brings dist/ and its bundle up to date with src/ (`node bin/build.js`: content hashes, so a run
 * with nothing changed costs ~0.1 s), because the node processes the tests start run the bundle, as `svc-node` does.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const built = spawnSync(process.execPath, ['bin/build.js'], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`node bin/build.js failed:\n${built.stdout}\n${built.stderr}`);
}
