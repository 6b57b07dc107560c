/**
 * Creating the data directory before anything opens it. Node's own errors (`EEXIST: file already exists, mkdir …`)
 * name no setting, and its recursive mkdir never returns on a path whose parent exists but refuses children with
 * ENOENT (under /proc, for one): it retries the parent for ever at full CPU. So the directories are made one level at
 * a time here, and a failure is one sentence that names --datadir.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileProblem } from '../chain/index.js';
import { ConfigError } from './config-error.js';

export function ensureDatadir(datadir: string): void {
  const refuse = (why: string) =>
    new ConfigError(`cannot use the datadir ${datadir}: ${why}; choose another with --datadir`);
  const make = (path: string): void => {
    const kind = kindOf(path);
    if (kind === 'directory') return;
    if (kind === 'file') throw refuse(path === datadir ? 'it is a file' : `${path} is a file, not a directory`);
    const parent = dirname(path);
    if (parent !== path) make(parent);
    try {
      mkdirSync(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST' && kindOf(path) === 'directory') return; // made meanwhile, by another start
      throw refuse(fileProblem(err, 'the file system does not allow a directory there'));
    }
  };
  make(datadir);
}

function kindOf(path: string): 'directory' | 'file' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing'; // or under a file: the walk up finds that file
  }
}
