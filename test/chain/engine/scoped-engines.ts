/** Engines and datadirs a test file opens, closed and removed after each test (even when it fails). */
import { afterEach } from 'vitest';
import { ChainEngine } from '../../../src/chain/engine/engine.js';
import { tempDir } from './fixtures.js';

type EngineOptions = Parameters<typeof ChainEngine.open>[0];

export function scopedEngines(prefix: string) {
  const opened: ChainEngine[] = [];
  const dirs: Array<{ remove: () => void }> = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((e) => e.close()));
    for (const d of dirs.splice(0)) d.remove();
  });
  return {
    newDir(): string {
      const d = tempDir(prefix);
      dirs.push(d);
      return d.dir;
    },
    async open(options: EngineOptions): Promise<ChainEngine> {
      const engine = await ChainEngine.open(options);
      opened.push(engine);
      return engine;
    },
    /** An engine opened another way (a test's own opener), closed after the test like the others. */
    adopt(engine: ChainEngine): ChainEngine {
      opened.push(engine);
      return engine;
    },
    /** Closes one engine now (to reopen its datadir); the others stay for afterEach. */
    async close(engine: ChainEngine): Promise<void> {
      opened.splice(opened.indexOf(engine), 1);
      await engine.close();
    },
  };
}
