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

  it('reject a wrong pattern or type with the words of the schema, never the pattern', () => {
    const wanted = 'a 20-byte account address: 0x and 40 hex digits (checksum case allowed)';
    expect(address.check('0x1234')).toEqual({ path: '', keyword: 'pattern', expects: wanted, value: '0x1234' });
    expect(address.check(ADDRESS.slice(2))).toMatchObject({ keyword: 'pattern', expects: wanted });
    expect(address.check(42)).toMatchObject({ keyword: 'type', expects: wanted, value: 42 });
    expect(address.check(null)).toMatchObject({ keyword: 'type', expects: wanted, value: null });
  });

  it('explain a failed oneOf by the whole param, and a bound of the one alternative that was meant', () => {
    const byNumber = findMethod('eth_getBlockByNumber')!.params[0];
    expect(byNumber.check('0x01')).toEqual({
      path: '',
      keyword: 'oneOf',
      expects: 'a block number as a hex quantity (0x1b4) or a block tag: earliest, latest, pending, safe or finalized',
      value: '0x01',
      unpadded: '0x1',
    });
    expect(block.check('final')).toMatchObject({ keyword: 'oneOf', expects: expect.stringMatching(/^a block number/) });
    const topics = findMethod('eth_getLogs')!.params[0].check({ topics: [null, null, null, null, null] });
    expect(topics).toMatchObject({ path: '/topics', keyword: 'maxItems', limit: 4 });
    expect(findMethod('qa_mineBlocks')!.params[0].check(0)).toMatchObject({ keyword: 'minimum', limit: 1 });
  });

  it('give the hex form when a decimal number stands where a hex quantity belongs, and only then', () => {
    const call = findMethod('eth_call')!.params[0];
    expect(call.check({ to: ADDRESS, gas: 21000 })).toMatchObject({ path: '/gas', value: 21000, hex: '0x5208' });
    expect(call.check({ to: ADDRESS, gas: '21000' })).toMatchObject({ path: '/gas', hex: '0x5208' });
    expect(findMethod('eth_getBlockByNumber')!.params[0].check(1)).toMatchObject({ hex: '0x1' });
    // Not where hex would not do either: a passphrase, a 32-byte hash, a negative or fractional number.
    expect(findMethod('personal_newAccount')!.params[0].check(61)?.hex).toBeUndefined();
    expect(findMethod('eth_getBlockByHash')!.params[0].check(61)?.hex).toBeUndefined();
    expect(call.check({ to: ADDRESS, gas: -1 })).toMatchObject({ path: '/gas', keyword: 'type' });
    expect(call.check({ to: ADDRESS, gas: -1 })?.hex).toBeUndefined();
    expect(call.check({ to: ADDRESS, gas: 1.5 })?.hex).toBeUndefined();
  });

  it("locate the failure inside an object and word it from the field's own schema", () => {
    const call = findMethod('eth_call')!.params[0];
    expect(call.check({ to: ADDRESS, data: '0x' })).toBeUndefined();
    expect(call.check({ to: ADDRESS, value: '0x01' })).toMatchObject({
      path: '/value',
      expects: expect.stringMatching(/^a quantity: lowercase hex with no leading zeros/),
    });
    const unknown = call.check({ to: ADDRESS, bogus: 1 });
    expect(unknown).toMatchObject({ keyword: 'additionalProperties', field: 'bogus' });
    expect(unknown?.knownFields).toEqual(expect.arrayContaining(['from', 'to', 'gas', 'data']));
    expect(call.check('0x')).toMatchObject({
      path: '',
      keyword: 'type',
      expects: expect.stringMatching(/message call/),
    });
    const entry = call.check({ to: ADDRESS, accessList: [{ address: '0x1', storageKeys: [] }] });
    expect(entry).toMatchObject({ path: '/accessList/0/address', expects: expect.stringMatching(/^a 20-byte/) });
    expect(findMethod('eth_sendTransaction')!.params[0].check({ to: ADDRESS })).toMatchObject({
      keyword: 'required',
      field: 'from',
    });
  });

  it('have phrases that read inside a sentence: lower-case start, no final full stop, no regex', () => {
    for (const spec of Object.values(methods)) {
      for (const param of spec.params) {
        expect(param.expects, `${spec.name} ${param.name}`).toMatch(/^(?:[a-z0-9]|[A-Z]{2,}|EIP)/);
        expect(param.expects, `${spec.name} ${param.name}`).not.toMatch(/\.$|\^0x|\$$/);
      }
    }
  });

  it('check results too', () => {
    expect(findMethod('eth_chainId')!.checkResult('0x3d')).toBeUndefined();
    expect(findMethod('eth_chainId')!.checkResult(61)).toBe('(root): must be string');
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
