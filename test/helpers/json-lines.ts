/** The node logs one JSON object per line on stdout; this hands each line to `onLine`, parsed when it is JSON. */
import type { Readable } from 'node:stream';

export function onJsonLines(
  stream: Readable,
  onLine: (entry: Record<string, unknown> | undefined, line: string) => void,
): void {
  let buffered = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      let entry: Record<string, unknown> | undefined;
      try {
        const parsed: unknown = JSON.parse(line);
        entry = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
      } catch {
        entry = undefined;
      }
      onLine(entry, line);
    }
  });
}
