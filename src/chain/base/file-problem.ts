/**
 * A file system error in words an operator acts on: Node's messages (`EACCES: permission denied, open …`) lead with
 * a code and repeat the path the caller's sentence already names. `missing` words ENOENT for the caller's case (a
 * file read, a directory to write into, a directory to make).
 */
const PROBLEMS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
};

export function fileProblem(err: unknown, missing = 'no such file'): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return missing;
  return (code !== undefined ? PROBLEMS[code] : undefined) ?? (err instanceof Error ? err.message : String(err));
}
