/**
 * The storage a struct-log entry shows: geth gives every SLOAD and SSTORE entry the slots its contract has touched so
 * far in the transaction. Shared by both struct loggers (the object one, the reference, and the JSON-text one), so
 * the two cannot differ in which slots they record.
 */
import { Address, bytesToUnprefixedHex } from '@ethereumjs/util';
import { wordBytes } from './hooks.js';
import { bytesToWord } from './json.js';
import type { StepInfo } from './types.js';

const SLOAD = 0x54;
const SSTORE = 0x55;

/** A slot key or value as geth writes it: 64 hex digits without 0x. */
const word64 = (v: bigint): string => v.toString(16).padStart(64, '0');

/**
 * Records the slot an SLOAD (its value read from the state) or SSTORE (the value it writes) touches in `storage`
 * (by address hex) and hands that contract's slots to `keep`; other steps are left alone. A promise when the value
 * must be read.
 */
export function touchSlots(
  s: StepInfo,
  storage: Map<string, Record<string, string>>,
  keep: (slots: Record<string, string>) => void,
): Promise<void> | undefined {
  if ((s.op !== SLOAD && s.op !== SSTORE) || s.stack.length < 1) return undefined;
  const top = s.stack.length - 1;
  const key = bytesToUnprefixedHex(s.address);
  let slots = storage.get(key);
  if (slots === undefined) storage.set(key, (slots = {}));
  const slot = s.stack[top]!;
  if (s.op === SSTORE) {
    if (s.stack.length < 2) return undefined;
    slots[word64(slot)] = word64(s.stack[top - 1]!);
    keep(slots);
    return undefined;
  }
  const frameSlots = slots;
  return s.state.getStorage(new Address(s.address), wordBytes(slot)).then((value) => {
    frameSlots[word64(slot)] = word64(bytesToWord(value));
    keep(frameSlots);
  });
}
