import { describe, expect, it } from 'vitest';
import { logsBloomOf } from '../../../src/chain/codec/receipts.js';
import { bloomMayMatch, compileCriteria, matchesLog } from '../../../src/chain/logs/match.js';
import type { LogCriteria } from '../../../src/chain/logs/types.js';
import { addr, log, topic } from './synthetic-chain.js';

const matches = (criteria: LogCriteria, l = log(1, [10, 20, 30])) => matchesLog(compileCriteria(criteria), l);

describe('address criteria', () => {
  it('matches one address, any of several, and anything when absent or empty', () => {
    expect(matches({ addresses: [addr(1)] })).toBe(true);
    expect(matches({ addresses: [addr(2)] })).toBe(false);
    expect(matches({ addresses: [addr(2), addr(1)] })).toBe(true);
    expect(matches({})).toBe(true);
    expect(matches({ addresses: [] })).toBe(true);
  });
});

describe('positional topic criteria', () => {
  it('matches a topic only at its own position', () => {
    expect(matches({ topics: [topic(10)] })).toBe(true);
    expect(matches({ topics: [topic(20)] })).toBe(false);
    expect(matches({ topics: [null, topic(20)] })).toBe(true);
    expect(matches({ topics: [null, null, topic(10)] })).toBe(false);
  });

  it('treats null and an empty array as wildcards and an array as OR', () => {
    expect(matches({ topics: [null, null, null] })).toBe(true);
    expect(matches({ topics: [[], [topic(99), topic(20)]] })).toBe(true);
    expect(matches({ topics: [[topic(11), topic(12)]] })).toBe(false);
    expect(matches({ topics: [[topic(11), topic(10)], null, [topic(30)]] })).toBe(true);
  });

  it('requires the log to have at least as many topics as the filter, even for trailing wildcards', () => {
    expect(matches({ topics: [null, null, null, null] })).toBe(false);
    expect(matches({ topics: [topic(10), null, null, null] })).toBe(false);
    expect(matches({ topics: [null] }, log(1, []))).toBe(false);
    expect(matches({ topics: [] }, log(1, []))).toBe(true);
  });

  it('combines address and topics with AND', () => {
    expect(matches({ addresses: [addr(1)], topics: [topic(10)] })).toBe(true);
    expect(matches({ addresses: [addr(2)], topics: [topic(10)] })).toBe(false);
    expect(matches({ addresses: [addr(1)], topics: [topic(11)] })).toBe(false);
  });
});

describe('bloom pre-check', () => {
  const bloom = logsBloomOf([log(1, [10, 20]), log(2, [30])]);

  it('agrees with the engine bloom: every value of a log may match', () => {
    expect(bloomMayMatch(compileCriteria({ addresses: [addr(1)], topics: [topic(10), topic(20)] }), bloom)).toBe(true);
    expect(bloomMayMatch(compileCriteria({ addresses: [addr(2)], topics: [topic(30)] }), bloom)).toBe(true);
    expect(bloomMayMatch(compileCriteria({}), bloom)).toBe(true);
  });

  it('rules out a value that is not in the bloom, and accepts an OR-set with one present value', () => {
    expect(bloomMayMatch(compileCriteria({ addresses: [addr(7)] }), bloom)).toBe(false);
    expect(bloomMayMatch(compileCriteria({ topics: [topic(77)] }), bloom)).toBe(false);
    expect(bloomMayMatch(compileCriteria({ addresses: [addr(7), addr(2)] }), bloom)).toBe(true);
    expect(bloomMayMatch(compileCriteria({ addresses: [addr(1)] }), new Uint8Array(256))).toBe(false);
  });
});
