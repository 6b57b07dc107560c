import { describe, expect, it } from 'vitest';
import { JsonChunks, RawJson, batchBody, responseBody, responseText } from './raw-json.js';

const value = {
  gas: 21000,
  failed: false,
  returnValue: '',
  structLogs: [{ pc: 0, op: 'STOP', error: 'a "quote" é ✓' }],
};
const json = Buffer.from(JSON.stringify(value), 'utf8');
/** The JSON in three pieces, cut inside a multi-byte character too. */
const pieces = (): Uint8Array[] => {
  const cut = json.indexOf('✓') + 1;
  return [json.subarray(0, 10), json.subarray(10, cut), json.subarray(cut)];
};

describe('a result written as JSON', () => {
  it('is sent as the bytes JSON.stringify gives for its value, whatever the id, as text or as pieces', () => {
    for (const id of [1, 'a"b', null, undefined, 0, 'ü']) {
      const expected = JSON.stringify({ jsonrpc: '2.0', id, result: value });
      expect(responseBody({ jsonrpc: '2.0', id, result: new RawJson(JSON.stringify(value)) })).toBe(expected);
      const body = responseBody({ jsonrpc: '2.0', id, result: new RawJson(pieces()) });
      expect(body).toBeInstanceOf(JsonChunks);
      const chunks = body as JsonChunks;
      expect(chunks.length).toBe(Buffer.byteLength(expected));
      expect(chunks.toBuffer()).toEqual(Buffer.from(expected, 'utf8'));
      expect(responseText({ jsonrpc: '2.0', id, result: new RawJson(pieces()) })).toBe(expected);
      // Any other writer gets the same JSON through toJSON.
      expect(JSON.stringify({ jsonrpc: '2.0', id, result: new RawJson(JSON.stringify(value)) })).toBe(expected);
      expect(JSON.stringify({ jsonrpc: '2.0', id, result: new RawJson(pieces()) })).toBe(expected);
    }
  });

  it('hands its bytes back once, when they are written, and is not read after', () => {
    let released = 0;
    const raw = new RawJson(pieces(), () => released++);
    const body = responseBody({ jsonrpc: '2.0', id: 1, result: raw }) as JsonChunks;
    expect(released).toBe(0);
    body.done();
    body.done();
    expect(released).toBe(1);
    expect(() => raw.text).toThrow(/released/);
  });

  it('leaves other responses to JSON.stringify', () => {
    const error = { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'x' } } as const;
    expect(responseBody(error)).toBe(JSON.stringify(error));
  });

  it('puts a batch with a result as pieces in one array of bytes, releasing them', () => {
    let released = 0;
    const error = { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'ü' } } as const;
    const ok = { jsonrpc: '2.0', id: 8, result: new RawJson(pieces(), () => released++) } as const;
    const expected = JSON.stringify([error, { jsonrpc: '2.0', id: 8, result: value }]);
    expect(batchBody([error, ok].map(responseBody))).toEqual(Buffer.from(expected, 'utf8'));
    expect(released).toBe(1);
    expect(batchBody([error, error].map(responseBody))).toBe(JSON.stringify([error, error]));
  });
});
