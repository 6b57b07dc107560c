/**
 * An upstream answer read with a ceiling: bytes are counted as they arrive and the request is aborted the moment the
 * count passes `maxBytes`, so a hostile or broken upstream streaming an endless body costs the node at most that much
 * (the whole body is never held first). A declared Content-Length above the ceiling is refused before any byte is read.
 */

/** The answer passed the ceiling; not worth a retry (the same request gets the same answer). */
export class AnswerTooLargeError extends Error {
  constructor(
    readonly limit: number,
    readonly setting: string,
  ) {
    super(
      `its answer passed ${sizeText(limit)}, the cap ${setting} sets; the rest was not read (raise the setting if ` +
        'this upstream is trusted and its answers are that large)',
    );
    this.name = 'AnswerTooLargeError';
  }
}

/**
 * The body of `response` as text. `abort` stops the request (the socket is dropped, not drained) when the body is too
 * large; the caller's own abort signal (a timeout) ends the read as it ends the request.
 */
export async function readBoundedText(
  response: Response,
  maxBytes: number,
  setting: string,
  abort: () => void,
): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  // A compressed body's length says nothing of what it inflates to; only a plain one can be refused up front.
  if (response.headers.get('content-encoding') === null && declared > maxBytes) {
    abort();
    throw new AnswerTooLargeError(maxBytes, setting);
  }
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      abort();
      reader.cancel().catch(() => {});
      throw new AnswerTooLargeError(maxBytes, setting);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

function sizeText(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB (${bytes} bytes)` : `${bytes} bytes`;
}
