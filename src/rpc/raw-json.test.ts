import { describe, expect, it } from 'vitest';
import { RawJson, responseText } from './raw-json.js';

describe('a result written as JSON text', () => {
  const value = { gas: 21000, failed: false, returnValue: '', structLogs: [{ pc: 0, op: 'STOP', error: 'a "quote"' }] };
  const raw = new RawJson(JSON.stringify(value));

  it('is sent as the bytes JSON.stringify gives for its value, whatever the id', () => {
    for (const id of [1, 'a"b', null, undefined, 0]) {
      const expected = JSON.stringify({ jsonrpc: '2.0', id, result: value });
      expect(responseText({ jsonrpc: '2.0', id, result: raw })).toBe(expected);
      // Any other writer gets the same JSON through toJSON.
      expect(JSON.stringify({ jsonrpc: '2.0', id, result: raw })).toBe(expected);
    }
  });

  it('leaves other responses to JSON.stringify', () => {
    const error = { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'x' } } as const;
    expect(responseText(error)).toBe(JSON.stringify(error));
  });
});
