/**
 * A test's TypeScript child script (one a test spawns and kills), made runnable by plain `node`: esbuild bundles the
 * script with the test helpers it imports, and every module of src/ it reaches is left to its compiled twin in dist/
 * (which the global setup brings up to date with src/). The same code as `node --import tsx <script>`, without the
 * transform: tsx cost each child start ~2 s of CPU over the fixtures and src/chain, and the crash tests start several.
 * One bundle per script and content, kept in test/.tmp/children/ (git-ignored), where Node finds the repo's
 * node_modules for the packages the bundle leaves as imports. That folder is two below test/, as test/chain/engine/
 * is: a helper there that finds a file from its import.meta.url (fixtures.ts's ../../fixtures/contracts/) finds the
 * same file from the bundle.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { repoRoot } from './node-process.js';

const srcDir = join(repoRoot, 'src') + sep;
const distDir = join(repoRoot, 'dist') + sep;
const outDir = join(repoRoot, 'test/.tmp/children');

/** src/x/y.js (or .ts) → dist/x/y.js, as an external import: the child runs the compiled module. */
const srcToDist: Plugin = {
  name: 'src-to-dist',
  setup(b) {
    b.onResolve({ filter: /^\.{1,2}\// }, (args) => {
      const path = join(args.resolveDir, args.path);
      if (!path.startsWith(srcDir)) return undefined;
      const compiled = join(distDir, path.slice(srcDir.length)).replace(/\.ts$/, '.js');
      return { path: pathToFileURL(compiled).href, external: true };
    });
  },
};

const built = new Map<string, Promise<string>>();

/** The path of the runnable bundle of `script` (a file: URL of a .ts file under test/). */
export function compiledChild(script: URL): Promise<string> {
  const entry = fileURLToPath(script);
  let made = built.get(entry);
  if (made === undefined) {
    made = (async () => {
      mkdirSync(outDir, { recursive: true });
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        plugins: [srcToDist],
        write: false,
        logLevel: 'silent',
      });
      const code = result.outputFiles[0]!.contents;
      const name = `${entry.slice(repoRoot.length).replaceAll(sep, '_').replace(/\.ts$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 12)}.mjs`;
      const out = join(outDir, name);
      if (!existsSync(out)) {
        // Written whole, then renamed: files running side by side may bundle the same script.
        const partial = `${out}.${process.pid}.partial`;
        writeFileSync(partial, code);
        renameSync(partial, out);
      }
      return out;
    })();
    built.set(entry, made);
  }
  return made;
}
