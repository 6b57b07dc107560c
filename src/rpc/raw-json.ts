/**
 * A method's result already written as JSON text (a struct-logger trace, written entry by entry by the engine):
 * the dispatcher sends the text as it is instead of stringifying an object graph of ~1,000 entries. Validation in
 * development parses it; anything else that serialises it gets the same JSON through `toJSON`.
 */
export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** The response's JSON: JSON.stringify's bytes, with a raw result spliced in as its text. */
export function responseText(response: {
  readonly jsonrpc: '2.0';
  readonly id?: unknown;
  readonly result?: unknown;
}): string {
  const { result } = response;
  if (!(result instanceof RawJson)) return JSON.stringify(response);
  // The dispatcher builds a success as { jsonrpc, id, result }: the same keys in the same order.
  const id = response.id === undefined ? '' : `"id":${JSON.stringify(response.id)},`;
  return `{"jsonrpc":"2.0",${id}"result":${result.text}}`;
}
