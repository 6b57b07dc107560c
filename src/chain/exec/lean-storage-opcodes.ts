/**
 * SLOAD and SSTORE as whole steps of the lean frame loop's lane (sync-step.ts `laneLoop`), without an await where
 * the state already holds the slot.
 *
 * Both opcodes have dynamic gas and async handlers, so each went through the library's `runStep`: an awaited gas
 * handler, an awaited handler, and inside them a key turned into bytes as `setLengthLeft(bigIntToBytes(word), 32)`
 * (the word printed as hex, parsed back, then padded by spreading two arrays into a third) up to three times, the
 * value likewise, and the current and original values padded the same way only to be compared. Sealing 1,000
 * ERC-20 transfers spent ~10 % of its samples in those conversions (bench/seal-burst.ts CPUPROF).
 *
 * Here a step runs in the library's order (gas: the static check, the slot's current then original value, EIP-2200
 * with EIP-2929's adjustments, then EIP-2929's access cost; `useGas`; the program counter; the handler's read or
 * write), with words compared as numbers: the library compares the values padded to 32 bytes or emptied when zero,
 * which are equal exactly when the numbers are. A state with `knownStorage` (the flat state, flat-state.ts) answers a
 * slot it holds without a promise, and its original-value cache likewise (`known`), and writes a slot it holds the
 * same way (`putKnownStorage`); anything else is awaited as the library awaits it. Steps the library would do
 * differently are left to it (`libraryStep`): too few stack words, a static frame (its trap), an EIP-2200 sentry
 * failure (it reads the slot, then traps), a pending EIP-7928 call failure. Rules with other SSTORE pricing (before Istanbul, Constantinople, EIP-8038) or extra per-slot work
 * (EIP-6800, 7864, 7928, 8037) get no lean steps. `test/chain/engine/lean-storage.test.ts` runs random storage
 * programs through both and through the untouched library in a worker.
 */
import type { Address } from '@ethereumjs/util';
import { bytesWord, wordBytes } from './evm-words.js';

/** Rules under which SLOAD or SSTORE does more (or prices differently) than the steps here. */
const STORAGE_EIPS = [6800, 7864, 7928, 8037, 8038];

// The library's members used here (its names; typed loosely, as sync-step.ts does).
interface OpcodeInfo {
  readonly feeBigInt: bigint;
  readonly name: string;
}
interface Entry {
  readonly opcodeInfo: OpcodeInfo;
}
interface OriginalCache {
  get(address: Address, key: Uint8Array): Promise<Uint8Array>;
  /** The flat state's cache (flat-state.ts): the value `get` would answer, when it needs no await; else undefined. */
  known?(address: Address, key: Uint8Array): Uint8Array | undefined;
}
interface StateReader {
  getStorage(address: Address, key: Uint8Array): Promise<Uint8Array>;
  readonly originalStorageCache: OriginalCache;
  /** The flat state (flat-state.ts): the value `getStorage` would answer, when it needs no await; else undefined. */
  knownStorage?(address: Address, key: Uint8Array): Uint8Array | undefined;
  /** The flat state: `putStorage` done without an await, or false (nothing done) where it would need one. */
  putKnownStorage?(address: Address, key: Uint8Array, value: Uint8Array): boolean;
  /** The flat state: `getAccount`'s answer, when it needs no await. */
  knownAccount?(address: Address): unknown;
}
interface Interpreter {
  readonly _runState: {
    readonly stack: { readonly _store: bigint[]; _len: number; push(value: bigint): void };
    programCounter: number;
    gasLeft: bigint;
    eip7928PostTargetCallOog?: unknown;
  };
  readonly _env: { readonly address: Address; contract: unknown };
  readonly _stateManager: StateReader;
  readonly journal: {
    isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean;
    addWarmedStorage(address: Uint8Array, slot: Uint8Array): void;
  };
  isStatic(): boolean;
  useGas(amount: bigint, context: OpcodeInfo): void;
  refundGas(amount: bigint, context?: string): void;
  subRefund(amount: bigint, context?: string): void;
  storageStore(key: Uint8Array, value: Uint8Array): Promise<void>;
}
interface Common {
  param(name: string): bigint;
  isActivatedEIP(eip: number): boolean;
  hardfork(): string;
  gteHardfork(hardfork: string): boolean;
}
const counts = { sync: 0, awaited: 0, library: 0 };

/** Lane storage steps since start, by how their slot was read: held already, awaited, or left to the library. */
export function laneStorageSteps(): { readonly sync: number; readonly awaited: number; readonly library: number } {
  return { ...counts };
}

type LibraryStep = (this: unknown, entry: unknown) => Promise<void> | undefined;

/**
 * A lane step: runs the whole step and returns its promise (or undefined when it needed none), or false when it
 * leaves the step to the library (nothing done yet).
 */
export type LaneStep = (interpreter: unknown, entry: unknown, libraryStep: LibraryStep) => Promise<void> | undefined;

/** The lane steps of SLOAD and SSTORE under `common`'s rules (none where the rules differ from the steps here). */
export function storageLaneSteps(common: Common): Record<number, LaneStep> {
  if (STORAGE_EIPS.some((eip) => common.isActivatedEIP(eip))) return {};
  const eip2929 = common.isActivatedEIP(2929);
  const steps: Record<number, LaneStep> = { 0x54: sload(common, eip2929) };
  if (common.hardfork() !== 'constantinople' && common.gteHardfork('istanbul')) steps[0x55] = sstore(common, eip2929);
  return steps;
}

function sload(common: Common, eip2929: boolean): LaneStep {
  const cold = eip2929 ? common.param('coldsloadGas') : 0n;
  const warm = eip2929 ? common.param('warmstoragereadGas') : 0n;
  return (it, op, libraryStep) => {
    const interpreter = it as Interpreter;
    const entry = op as Entry;
    const runState = interpreter._runState;
    const stack = runState.stack;
    if (stack._len < 1 || runState.eip7928PostTargetCallOog !== undefined) {
      counts.library++;
      return libraryStep.call(it, op);
    }
    // A fresh key: the warm set and the state may keep it.
    const key = wordBytes(stack._store[stack._len - 1]!).slice();
    const address = interpreter._env.address;
    let gas = entry.opcodeInfo.feeBigInt;
    if (eip2929) {
      if (interpreter.journal.isWarmedStorage(address.bytes, key)) gas += warm;
      else {
        interpreter.journal.addWarmedStorage(address.bytes, key);
        gas += cold;
      }
    }
    interpreter.useGas(gas, entry.opcodeInfo);
    runState.programCounter++;
    stack._len--;
    const sm = interpreter._stateManager;
    const known = sm.knownStorage?.(address, key);
    if (known !== undefined) {
      counts.sync++;
      stack.push(wordOf(known));
      return undefined;
    }
    counts.awaited++;
    return sm.getStorage(address, key).then((value) => stack.push(wordOf(value)));
  };
}

function sstore(common: Common, eip2929: boolean): LaneStep {
  const p = (name: string) => common.param(name);
  const sentry = p('sstoreSentryEIP2200Gas');
  const noop = p('sstoreNoopEIP2200Gas');
  const init = p('sstoreInitEIP2200Gas');
  const clean = p('sstoreCleanEIP2200Gas');
  const dirty = p('sstoreDirtyEIP2200Gas');
  const clearRefund = p('sstoreClearRefundEIP2200Gas');
  const initRefund = p('sstoreInitRefundEIP2200Gas');
  const cleanRefund = p('sstoreCleanRefundEIP2200Gas');
  const cold = eip2929 ? p('coldsloadGas') : 0n;
  const warmRead = eip2929 ? p('warmstoragereadGas') : 0n;
  // EIP-2929's adjustments of EIP-2200 for a slot already warm (the library's adjustSstoreGasEIP2929).
  const warmInitRefund = eip2929 ? init - warmRead : 0n;
  const warmCleanRefund = eip2929 ? p('sstoreResetGas') - cold - warmRead : 0n;

  /** The step once the slot's current and original values are in hand. */
  const finish = (
    interpreter: Interpreter,
    entry: Entry,
    key: Uint8Array,
    value: bigint,
    current: bigint,
    original: bigint,
  ): Promise<void> | undefined => {
    const runState = interpreter._runState;
    const address = interpreter._env.address;
    // Warmth is read before EIP-2200's adjustments and changed only after them, as the library orders it.
    const warm = eip2929 && interpreter.journal.isWarmedStorage(address.bytes, key);
    let gas = entry.opcodeInfo.feeBigInt;
    if (current === value) gas += warm ? warmRead : noop;
    else if (original === current) {
      if (original === 0n) gas += init;
      else {
        if (value === 0n) interpreter.refundGas(clearRefund, 'EIP-2200 -> sstoreClearRefundEIP2200');
        gas += clean;
      }
    } else {
      if (original !== 0n) {
        if (current === 0n) interpreter.subRefund(clearRefund, 'EIP-2200 -> sstoreClearRefundEIP2200');
        else if (value === 0n) interpreter.refundGas(clearRefund, 'EIP-2200 -> sstoreClearRefundEIP2200');
      }
      if (original === value) {
        if (original === 0n) interpreter.refundGas(warm ? warmInitRefund : initRefund, 'EIP-2200 -> initRefund');
        else interpreter.refundGas(warm ? warmCleanRefund : cleanRefund, 'EIP-2200 -> cleanRefund');
      }
      gas += dirty;
    }
    if (eip2929 && !warm) {
      interpreter.journal.addWarmedStorage(address.bytes, key);
      gas += cold;
    }
    interpreter.useGas(gas, entry.opcodeInfo);
    runState.programCounter++;
    runState.stack._len -= 2;
    // The value as the library stores it: its shortest bytes, none for zero (a fresh array: the state keeps it).
    const bytes = value === 0n ? new Uint8Array(0) : shortestBytes(value);
    const sm = interpreter._stateManager;
    if (sm.putKnownStorage?.(address, key, bytes) !== true) return interpreter.storageStore(key, bytes);
    // The rest of the library's storageStore: the frame's account read again after the write.
    const account = sm.knownAccount?.(address);
    if (account === undefined) throw new Error('could not read account while persisting memory');
    interpreter._env.contract = account;
    return undefined;
  };

  return (it, op, libraryStep) => {
    const interpreter = it as Interpreter;
    const entry = op as Entry;
    const runState = interpreter._runState;
    const stack = runState.stack;
    const len = stack._len;
    // The sentry fails whatever the slot holds: the library's step reads it, then traps.
    if (
      len < 2 ||
      runState.eip7928PostTargetCallOog !== undefined ||
      interpreter.isStatic() ||
      runState.gasLeft <= sentry
    ) {
      counts.library++;
      return libraryStep.call(it, op);
    }
    const key = wordBytes(stack._store[len - 1]!).slice();
    const value = stack._store[len - 2]!;
    const address = interpreter._env.address;
    const sm = interpreter._stateManager;
    const current = sm.knownStorage?.(address, key);
    const original = current === undefined ? undefined : sm.originalStorageCache.known?.(address, key);
    if (current !== undefined && original !== undefined) {
      counts.sync++;
      return finish(interpreter, entry, key, value, wordOf(current), wordOf(original));
    }
    counts.awaited++;
    return (async () => {
      const now = current ?? (await sm.getStorage(address, key));
      const before = await sm.originalStorageCache.get(address, key);
      await finish(interpreter, entry, key, value, wordOf(now), wordOf(before));
    })();
  };
}

/** A stored value (at most 32 bytes, possibly unpadded or zero-filled) as its number. */
function wordOf(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : bytesWord(bytes);
}

/** `word` (> 0) as its shortest big-endian bytes, the library's `bigIntToBytes`. */
function shortestBytes(word: bigint): Uint8Array {
  const bytes = wordBytes(word);
  let first = 0;
  while (bytes[first] === 0) first++;
  return bytes.slice(first);
}
