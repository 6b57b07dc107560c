import { describe, expect, it } from 'vitest';
import { didYouMean, suggestMethods, withinOneEdit } from './method-suggestion.js';

const SERVED = ['eth_getBalance', 'eth_getBlockByHash', 'eth_getBlockByNumber', 'eth_getCode', 'eth_getLogs'];

describe('did you mean', () => {
  it('finds one insertion, deletion, substitution or transposition, and nothing further', () => {
    expect(withinOneEdit('abcd', 'abcd')).toBe(true);
    expect(withinOneEdit('abcd', 'abxcd')).toBe(true);
    expect(withinOneEdit('abcd', 'abd')).toBe(true);
    expect(withinOneEdit('abcd', 'abxd')).toBe(true);
    expect(withinOneEdit('abcd', 'abdc')).toBe(true);
    expect(withinOneEdit('abcd', 'bacd')).toBe(true);
    expect(withinOneEdit('abcd', 'abcde')).toBe(true);
    expect(withinOneEdit('abcd', 'axcx')).toBe(false);
    expect(withinOneEdit('abcd', 'badc')).toBe(false);
    expect(withinOneEdit('abcd', 'ab')).toBe(false);
    expect(withinOneEdit('abcd', 'acbx')).toBe(false);
  });

  it('prefers a case-only difference, and suggests nothing for a served name', () => {
    expect(suggestMethods('eth_getbalance', SERVED)).toEqual(['eth_getBalance']);
    expect(suggestMethods('ETH_GETCODE', SERVED)).toEqual(['eth_getCode']);
    expect(suggestMethods('eth_getBalanse', SERVED)).toEqual(['eth_getBalance']);
    expect(suggestMethods('eth_getLog', SERVED)).toEqual(['eth_getLogs']);
    expect(suggestMethods('eth_getBalance', SERVED)).toEqual([]);
    expect(suggestMethods('eth_getBlock', SERVED)).toEqual([]);
    expect(suggestMethods('x'.repeat(100_000), SERVED)).toEqual([]);
  });

  it('words the hint', () => {
    expect(didYouMean([])).toBe('');
    expect(didYouMean(['a', 'b'])).toBe('; did you mean a or b?');
  });
});
