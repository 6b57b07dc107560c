/**
 * KECCAK256 and LOG0…LOG4 for call VMs and the dev miner's assembly (installed with the other lean opcodes,
 * call-opcodes.ts), without the library's word conversions: its KECCAK256 copies the memory it hashes and turns the
 * hash into a word through a hex string; its LOG pops its operands into new arrays and pads each topic as
 * `setLengthLeft(bigIntToBytes(word), 32)` (hex and back, then two arrays spread into a third). An ERC-20 transfer
 * hashes twice (its balance slots) and logs once with three topics. Here the hash reads memory in place (the hash
 * function keeps nothing) and words go through the scratch buffer (evm-words.ts). A short stack, or a Common
 * without its own keccak, is left to the library's handler, called on the untouched stack, so errors are its own.
 * LOG's gas is computed without a promise (call-opcodes.ts `syncGas`), so the step runs inline (sync-step.ts).
 * `test/chain/engine/call-lean-path.test.ts` runs random bytecode with both against the library's handlers, and
 * test/chain/engine/lean-storage.test.ts runs blocks with logs through both.
 */
import { scratch, scratchWord, wordBytes } from './evm-words.js';

// The library's members used here (its names; typed loosely, as sync-step.ts does).
interface RunState {
  readonly stack: { readonly _store: bigint[]; _len: number; push(value: bigint): void };
  readonly memory: { read(offset: number, size: number, avoidCopy?: boolean): Uint8Array };
  readonly opCode: number;
  readonly interpreter: { log(data: Uint8Array, numberOfTopics: number, topics: Uint8Array[]): void };
}
type Handler = (runState: RunState, common?: unknown) => void;
interface CryptoCommon {
  readonly customCrypto?: { readonly keccak256?: (data: Uint8Array) => Uint8Array };
}

const NONE = new Uint8Array(0);

/** KECCAK256: the hash of memory at offset (top) and length (next). */
const keccak: (library: Handler) => Handler = (library) => (runState, common) => {
  const hash = (common as CryptoCommon | undefined)?.customCrypto?.keccak256;
  const stack = runState.stack;
  const len = stack._len;
  if (hash === undefined || len < 2) return library(runState, common);
  const store = stack._store;
  const offset = store[len - 1]!;
  const length = store[len - 2]!;
  stack._len = len - 2;
  const data = length === 0n ? NONE : runState.memory.read(Number(offset), Number(length), true);
  scratch.set(hash(data));
  stack.push(scratchWord());
};

/** LOGn: memory at offset (top) and length (next) with the n words below as topics, each 32 bytes. */
const log: (library: Handler) => Handler = (library) => (runState, common) => {
  const stack = runState.stack;
  const len = stack._len;
  const count = runState.opCode - 0xa0;
  if (len < 2 + count) return library(runState, common);
  const store = stack._store;
  const offset = store[len - 1]!;
  const length = store[len - 2]!;
  const topics: Uint8Array[] = new Array(count);
  for (let i = 0; i < count; i++) topics[i] = wordBytes(store[len - 3 - i]!).slice();
  stack._len = len - 2 - count;
  const data = length === 0n ? new Uint8Array(0) : runState.memory.read(Number(offset), Number(length));
  runState.interpreter.log(data, count, topics);
};

/** The lean handler of each opcode here, built around the library's (called where the lean one steps aside). */
export const hashLogHandlers: Record<number, (library: Handler) => Handler> = {
  0x20: keccak,
  0xa0: log,
  0xa1: log,
  0xa2: log,
  0xa3: log,
  0xa4: log,
};
