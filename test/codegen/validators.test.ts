import { describe, expect, it } from 'vitest';
import { findMethod, methods } from '../../src/generated/registry.js';
import * as validators from '../../src/generated/validators.js';

const ADDRESS = '0x407d73d8a49eeb85d32cf465507dd71d507100c1';
const getBalance = findMethod('eth_getBalance')!;
const [address, block] = getBalance.params;

describe('generated validators', () => {
  it('accept good params', () => {
    expect(address.check(ADDRESS)).toBeUndefined();
    expect(address.check('0x407D73d8a49eeb85D32Cf465507dd71d507100c1')).toBeUndefined(); // checksum case
    for (const good of ['latest', 'earliest', 'pending', '0x0', '0x1b4'])
      expect(block.check(good), good).toBeUndefined();
  });

  it('reject a wrong pattern with the pattern as the reason', () => {
    expect(address.check('0x1234')).toBe('must match ^0x[0-9a-fA-F]{40}$');
    expect(address.check(ADDRESS.slice(2))).toBe('must match ^0x[0-9a-fA-F]{40}$');
  });

  it('reject a wrong type', () => {
    expect(address.check(42)).toBe('must be string');
    expect(address.check(null)).toBe('must be string');
  });

  it('name every alternative of a oneOf', () => {
    const byNumber = findMethod('eth_getBlockByNumber')!.params[0];
    expect(byNumber.check('0x01')).toMatch(
      /^must match \^0x\(0\|\[1-9a-f\]\[0-9a-f\]\*\)\$ or must be one of "earliest", "finalized", "safe", "latest", "pending"$/,
    );
    expect(byNumber.check('final')).toContain('must be one of "earliest", "finalized", "safe", "latest", "pending"');
    expect(block.check('final')).toMatch(/must be one of .* or must match .* or must be object/);
  });

  it('say when a decimal number stands where a hex quantity belongs, and only then', () => {
    const call = findMethod('eth_call')!.params[0];
    expect(call.check({ to: ADDRESS, gas: 21000 })).toBe(
      '/gas: must be string; 21000 is decimal: quantities are 0x-prefixed hex, here "0x5208"',
    );
    expect(call.check({ to: ADDRESS, gas: '21000' })).toBe(
      '/gas: must match ^0x(0|[1-9a-f][0-9a-f]*)$; "21000" is decimal: quantities are 0x-prefixed hex, here "0x5208"',
    );
    expect(findMethod('eth_getBlockByNumber')!.params[0].check(1)).toMatch(
      /; 1 is decimal: quantities are 0x-prefixed hex, here "0x1"$/,
    );
    // Not where hex would not do either: a passphrase, a 32-byte hash, a negative or fractional number.
    expect(findMethod('personal_newAccount')!.params[0].check(61)).toBe('must be string');
    expect(findMethod('eth_getBlockByHash')!.params[0].check(61)).toBe('must be string');
    expect(call.check({ to: ADDRESS, gas: -1 })).toBe('/gas: must be string');
    expect(call.check({ to: ADDRESS, gas: 1.5 })).toBe('/gas: must be string');
  });

  it('locate the failure inside an object', () => {
    const call = findMethod('eth_call')!.params[0];
    expect(call.check({ to: ADDRESS, data: '0x' })).toBeUndefined();
    expect(call.check({ to: ADDRESS, value: '0x01' })).toBe('/value: must match ^0x(0|[1-9a-f][0-9a-f]*)$');
    expect(call.check({ to: ADDRESS, bogus: 1 })).toBe('must not have property bogus');
    expect(call.check('0x')).toBe('must be object');
  });

  it('check results too', () => {
    expect(findMethod('eth_chainId')!.checkResult('0x3d')).toBeUndefined();
    expect(findMethod('eth_chainId')!.checkResult(61)).toBe(
      'must be string; 61 is decimal: quantities are 0x-prefixed hex, here "0x3d"',
    );
  });

  it('are plain functions with ajv-style errors (no ajv at runtime)', () => {
    const validate = validators.validateEthGetBalanceAddressParam;
    expect(validate(ADDRESS)).toBe(true);
    expect(validate('nope')).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'pattern', instancePath: '' });
  });
});

describe('registry', () => {
  it('findMethod finds every method and nothing inherited', () => {
    for (const name of Object.keys(methods)) expect(findMethod(name)?.name).toBe(name);
    for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'eth_nope', ''])
      expect(findMethod(name), name).toBeUndefined();
  });

  it('describes params for humans and counts the leading required ones', () => {
    expect(address.expects).toMatch(/20-byte/);
    expect(getBalance.requiredParams).toBe(getBalance.params.filter((p) => p.required).length);
    expect(findMethod('tools/list')!.namespace).toBe('mcp');
    expect(findMethod('rpc.discover')!.namespace).toBe('rpc');
    expect(findMethod('eth_subscribe')!.transport).toBe('ws');
    expect(findMethod('eth_chainId')!.transport).toBe('any');
  });
});
