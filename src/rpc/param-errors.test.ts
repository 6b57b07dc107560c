import { describe, expect, it } from 'vitest';
import { findMethod } from '../generated/registry.js';
import { checkParams } from './dispatch.js';
import { fieldPath, givenText, paramProblemText } from './param-errors.js';

const ADDRESS = '0x407d73d8a49eeb85d32cf465507dd71d507100c1';
const messageOf = (method: string, params: unknown[]) => checkParams(findMethod(method)!, params)?.message;

describe('invalid-params sentences', () => {
  it('name the param and its position, say what belongs there in words and show what was given', () => {
    expect(messageOf('eth_getBalance', ['0x12'])).toBe(
      'invalid params: address (param 1) must be a 20-byte account address: 0x and 40 hex digits ' +
        '(checksum case allowed); got "0x12"',
    );
    expect(messageOf('eth_getBlockByHash', [`0x${'a'.repeat(64)}`, 'yes'])).toBe(
      'invalid params: fullTransactions (param 2) must be a boolean ' +
        '(true for full transaction objects, false for transaction hashes only); got "yes"',
    );
  });

  it('read as plain words for every kind of schema: no regex, no schema path, no ".;", lower-case start', () => {
    const samples: [string, unknown[]][] = [
      ['eth_getBalance', [42]],
      ['eth_getBalance', [ADDRESS, 'final']],
      ['eth_getBlockByNumber', ['0x01', true]],
      ['eth_getTransactionByHash', ['0x1234']],
      ['eth_call', [{ to: ADDRESS, gas: 21000 }]],
      ['eth_call', [{ to: ADDRESS, bogus: 1 }]],
      ['eth_sendTransaction', [{ to: ADDRESS }]],
      ['eth_getLogs', [{ address: ['0x12'] }]],
      ['eth_getLogs', [{ topics: [null, null, null, null, null] }]],
      ['eth_getProof', [ADDRESS, ['0xzz'], 'latest']],
      ['eth_subscribe', ['blocks']],
      ['qa_mineBlocks', [0]],
      ['eth_getBalance', []],
      ['eth_chainId', [1]],
    ];
    for (const [method, params] of samples) {
      const message = messageOf(method, params);
      expect(message, method).toMatch(/^invalid params: [a-z]/);
      expect(message, method).not.toMatch(/\^|\[0-9|\{40\}|#\/|\.;|must match|argument \d/);
    }
  });

  it('locate a failure inside an object or array as a field path', () => {
    expect(messageOf('eth_call', [{ to: ADDRESS, accessList: [{ address: '0x1', storageKeys: [] }] }])).toMatch(
      /^invalid params: transaction \(param 1\) field accessList\[0\]\.address must be a 20-byte account address/,
    );
    expect(messageOf('eth_getProof', [ADDRESS, ['0xzz'], 'latest'])).toMatch(
      /^invalid params: storageKeys \(param 2\) item \[0\] must be 0 to 32 bytes as hex/,
    );
    expect(messageOf('eth_getLogs', [{ topics: [null, null, null, null, null] }])).toBe(
      'invalid params: filter (param 1) field topics must have at most 4 items; got 5',
    );
  });

  it('name missing and unknown fields, and the hex form of a decimal quantity', () => {
    expect(messageOf('eth_sendTransaction', [{ to: ADDRESS }])).toBe(
      'invalid params: transaction (param 1) is missing the required field "from"',
    );
    expect(messageOf('eth_call', [{ to: ADDRESS, bogus: 1 }])).toMatch(
      /^invalid params: transaction \(param 1\) has an unknown field "bogus"; the fields it takes are from, to, gas,/,
    );
    expect(messageOf('eth_getBlockByNumber', ['0x01', false])).toMatch(
      /; got "0x01", which has leading zeros: quantities are written without them, here "0x1"$/,
    );
    expect(messageOf('eth_getBlockByHash', [`0x0${'a'.repeat(63)}`.slice(0, 40), false])).not.toContain('leading');
    expect(messageOf('eth_call', [{ to: ADDRESS, gas: 21000 }])).toMatch(
      /field gas must be a quantity: .*; got 21000, which is decimal: quantities are 0x-prefixed hex, here "0x5208"$/,
    );
  });

  it('say which param is missing, or how many the method takes', () => {
    expect(messageOf('eth_getBalance', [])).toBe(
      'invalid params: address (param 1) is missing: eth_getBalance takes 1 to 2 parameters (address, block), got 0',
    );
    expect(messageOf('eth_getBalance', [ADDRESS, 'latest', 1])).toBe(
      'invalid params: eth_getBalance takes 1 to 2 parameters (address, block), got 3',
    );
    expect(messageOf('eth_chainId', [1, 2])).toBe('invalid params: eth_chainId takes no parameters, got 2');
  });

  it('keep the machine-readable parts in error.data', () => {
    const error = checkParams(findMethod('eth_call')!, [{ to: ADDRESS, gas: 21000 }]);
    expect(error?.data).toMatchObject({ index: 0, param: 'transaction', field: 'gas', keyword: 'type' });
  });

  it('shorten long values and write paths as people do', () => {
    expect(givenText('0x'.padEnd(200, 'a'))).toHaveLength(48);
    expect(givenText('0x'.padEnd(200, 'a')).endsWith('…')).toBe(true);
    expect(givenText(undefined)).toBe('nothing');
    // A value nested far deeper than the stack allows for JSON.stringify or String().
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(givenText(deep)).toBe(`${'['.repeat(47)}…`);
    expect(givenText({ a: [1, 2n], b: null })).toBe('{"a":[1,2],"b":null}');
    expect(fieldPath('/accessList/0/storageKeys/2')).toBe('accessList[0].storageKeys[2]');
    expect(fieldPath('/0')).toBe('[0]');
    expect(fieldPath('')).toBe('');
    expect(paramProblemText('x', 0, { path: '/a~1b', keyword: 'type', expects: 'a string', value: 1 })).toBe(
      'x (param 1) field a/b must be a string; got 1',
    );
  });
});
