// File helpers shared by bin/build.js and bin/bundle.js (a module of its own: build.js's command imports bundle.js,
// so bundle.js cannot import build.js back while that command is still running).
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * bin/build.js's stamp: source (relative to the package, `/`-separated) → hash of the content its output was compiled
 * from. bin/bundle.js keys the bundle on it.
 */
export const buildStampFile = fileURLToPath(new URL('../dist/.build-stamp.json', import.meta.url));

/**
 * Whether the build writes source maps: only when asked, with `SVC_NODE_SOURCE_MAPS=1` in the environment of the
 * build (`node bin/build.js`, `npm pack`, `npm install` of a checkout). Nothing loads them at run time (the node does
 * not start with --enable-source-maps), and in a tarball they were most of its size (issue 44: 642 maps, 16 MB of
 * the 37 MB unpacked). Part of both stamps, so switching it rebuilds dist/ and the bundle.
 */
export const sourceMapsWanted = () => /^(1|true|yes|on)$/i.test(process.env.SVC_NODE_SOURCE_MAPS ?? '');

/** A file's modification time in ms; -1 when it does not exist. */
export const mtimeOf = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};

/** Written aside and renamed: a reader (another node starting) never sees a half-written file. */
export function writeAtomically(path, text) {
  const aside = `${path}.${process.pid}.tmp`;
  writeFileSync(aside, text);
  renameSync(aside, path);
}
