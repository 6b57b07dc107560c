/**
 * A method's result already written as JSON (a struct-logger trace, written entry by entry by the engine): the
 * dispatcher sends it as it is instead of stringifying an object graph of ~1,000 entries. Given as UTF-8 bytes (in
 * pieces), it stays bytes to the socket: the HTTP answer is written as those pieces, with no string of it made,
 * measured and encoded again, and no copy. The pieces may live in a buffer their writer reuses: `release` hands it
 * back once they are written (a fresh buffer of ~100 KB per answer cost more in page faults than all the copies it
 * saved). Validation in development parses it; anything else that serialises it gets the same JSON through `toJSON`.
 */
export class RawJson {
  private released = false;

  constructor(
    private readonly json: string | readonly Uint8Array[],
    private readonly release?: () => void,
  ) {}

  get text(): string {
    return typeof this.json === 'string' ? this.json : Buffer.concat(this.pieces()).toString('utf8');
  }

  /** The UTF-8 pieces, in order (one for a text result); not to be read once released. */
  pieces(): readonly Uint8Array[] {
    if (this.released) throw new Error('a raw JSON result read after its bytes were released');
    return typeof this.json === 'string' ? [Buffer.from(this.json, 'utf8')] : this.json;
  }

  get isText(): boolean {
    return typeof this.json === 'string';
  }

  /** The pieces are written (or copied): their buffer may be reused. */
  done(): void {
    if (this.released) return;
    this.released = true;
    this.release?.();
  }

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** An answer's JSON as UTF-8 pieces written in order, `length` bytes in all; `done` once they are written. */
export class JsonChunks {
  constructor(
    readonly chunks: readonly Uint8Array[],
    readonly length: number,
    readonly done: () => void,
  ) {}

  /** The pieces copied into one buffer, released. */
  toBuffer(): Buffer {
    const out = Buffer.concat(this.chunks, this.length);
    this.done();
    return out;
  }
}

type Response = { readonly jsonrpc: '2.0'; readonly id?: unknown; readonly result?: unknown };

/** The response's JSON: JSON.stringify's, with a raw result spliced in as it is (pieces when it came as bytes). */
export function responseBody(response: Response): string | JsonChunks {
  const { result } = response;
  if (!(result instanceof RawJson)) return JSON.stringify(response);
  // The dispatcher builds a success as { jsonrpc, id, result }: the same keys in the same order.
  const head = `{"jsonrpc":"2.0",${response.id === undefined ? '' : `"id":${JSON.stringify(response.id)},`}"result":`;
  if (result.isText) return `${head}${result.text}}`;
  const chunks = [Buffer.from(head, 'utf8'), ...result.pieces(), CLOSE];
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  return new JsonChunks(chunks, length, () => result.done());
}

const CLOSE = Buffer.from('}');

/** The response's JSON as text. */
export function responseText(response: Response): string {
  const body = responseBody(response);
  return typeof body === 'string' ? body : body.toBuffer().toString('utf8');
}

/** A batch's JSON: its responses' bodies in an array, one buffer as soon as one of them is bytes. */
export function batchBody(bodies: readonly (string | JsonChunks)[]): string | Buffer {
  if (bodies.every((b) => typeof b === 'string')) return `[${bodies.join(',')}]`;
  const parts: Buffer[] = [OPEN_BRACKET];
  for (let i = 0; i < bodies.length; i++) {
    if (i > 0) parts.push(COMMA);
    const body = bodies[i]!;
    parts.push(typeof body === 'string' ? Buffer.from(body, 'utf8') : body.toBuffer());
  }
  parts.push(CLOSE_BRACKET);
  return Buffer.concat(parts);
}

const OPEN_BRACKET = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE_BRACKET = Buffer.from(']');
