/**
 * Which values of a method's first example are facts of the chain it was recorded on (a transaction hash, a block
 * hash, a block number, a log range), so "Try it" can replace them with ones from the chain the portal's node runs.
 * Found from the parameter and field names the spec uses, so no method needs its own annotation.
 */
import type { MethodView } from './model.js';

export type LiveKind = 'transaction' | 'block-hash' | 'block-number' | 'range-from' | 'range-to';

export interface LiveValue {
  /** Where in `params`: the parameter's index, then object keys. */
  readonly path: readonly (number | string)[];
  readonly kind: LiveKind;
}

const HASH32 = /^0x[0-9a-fA-F]{64}$/;
const HEX_NUMBER = /^0x[0-9a-fA-F]+$/;
const isNumberValue = (v: unknown): boolean =>
  (typeof v === 'string' && HEX_NUMBER.test(v) && v.length <= 18) || (typeof v === 'number' && Number.isInteger(v));

function kindOf(name: string, value: unknown): LiveKind | undefined {
  if (typeof value === 'string' && HASH32.test(value)) {
    if (name === 'txHash' || name === 'transactionHash') return 'transaction';
    if (name === 'blockHash') return 'block-hash';
    return undefined;
  }
  if (!isNumberValue(value)) return undefined;
  if (name === 'block' || name === 'blockNumber' || name === 'number') return 'block-number';
  return undefined;
}

export function liveValues(method: MethodView): LiveValue[] {
  const params = method.examples[0]?.params ?? [];
  const found: LiveValue[] = [];
  params.forEach((value, index) => {
    const name = method.params[index]?.name ?? '';
    const kind = kindOf(name, value);
    if (kind) found.push({ path: [index], kind });
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    // A filter object: its block hash, and a log range that is always moved to the chain's recent blocks.
    const fields = value as Record<string, unknown>;
    if (typeof fields.blockHash === 'string' && HASH32.test(fields.blockHash))
      found.push({ path: [index, 'blockHash'], kind: 'block-hash' });
    if (isNumberValue(fields.fromBlock)) found.push({ path: [index, 'fromBlock'], kind: 'range-from' });
    if (isNumberValue(fields.toBlock)) found.push({ path: [index, 'toBlock'], kind: 'range-to' });
  });
  return found;
}
