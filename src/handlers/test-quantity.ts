/**
 * TestQuantity params (the test_* and debug_* methods): the schema admits any non-negative integer in three
 * encodings, but the chain's parser also refuses JSON numbers past 2^53 and values that must fit a JS number.
 * Such a value is the caller's mistake, so it is answered -32602 naming the param, not a -32603 fault (found by
 * the fuzzer: debug_accountRange with maxResults 0x8000000000000000).
 */
import { TestQuantityError, testQuantity, testQuantityNumber } from '../chain/index.js';
import { invalidParams } from '../rpc/errors.js';

type Quantity = number | string | bigint;

function asParam<T>(method: string, param: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof TestQuantityError) throw invalidParams(`invalid params for ${method}: ${param}: ${err.message}`);
    throw err;
  }
}

/** Any non-negative integer (block numbers, timestamps). */
export const quantityParam = (value: Quantity, method: string, param: string): bigint =>
  asParam(method, param, () => testQuantity(value));

/** One that must fit a JS number (counts, page sizes). */
export const quantityNumberParam = (value: Quantity, method: string, param: string): number =>
  asParam(method, param, () => testQuantityNumber(value, 'the value'));
