/**
 * The EVM's jump-destination analysis, remembered per contract code.
 *
 * Before the first JUMP/JUMPI of a frame, @ethereumjs/evm's interpreter scans the whole code for JUMPDESTs,
 * decodes every PUSH immediate and looks up every opcode (`_getValidJumpDestinations`); for a view call such
 * as an ERC-20 `balanceOf` that scan profiled at ~9% of the call, and it gives the same answer every time
 * for the same code under the same opcode table. The library has no option for it and does not export the
 * interpreter, so its module is loaded by file next to the package entry (the same module instance the EVM
 * uses) and the method is wrapped once. Answers are keyed by the EVM's opcode table (an EVM per set of rules)
 * and then by the code bytes object: code comes from the state manager's caches and the node store's LRU, so
 * the same contract keeps the same object while hot; a different object is simply analysed again. The
 * answers are only read by the interpreter (jump checks, PUSH values, opcode lookups), never written.
 *
 * If a future version moves or renames the method, nothing is installed and the EVM analyses as before.
 */
import { interpreterPrototype } from './evm-interpreter.js';

type Analysis = { jumps: Uint8Array; pushes: Record<number, bigint>; opcodesCached: unknown[] };
type InterpreterProto = { _getValidJumpDestinations(this: InterpreterLike, code: Uint8Array): Analysis };
type InterpreterLike = { _evm: { _opcodeMap: object } };

const byTable = new WeakMap<object, WeakMap<Uint8Array, Analysis>>();
const counts = { analysed: 0, reused: 0 };

/** How often the analysis ran and how often a remembered one served (tests and benches read it). */
export function jumpAnalysisCounts(): { readonly analysed: number; readonly reused: number } {
  return { ...counts };
}

async function install(): Promise<boolean> {
  const proto = await interpreterPrototype<InterpreterProto>();
  const original = proto?._getValidJumpDestinations;
  if (proto === undefined || typeof original !== 'function') return false;
  proto._getValidJumpDestinations = function (this: InterpreterLike, code: Uint8Array): Analysis {
    const table = this._evm?._opcodeMap;
    if (table === undefined) return original.call(this, code);
    let perCode = byTable.get(table);
    if (perCode === undefined) byTable.set(table, (perCode = new WeakMap()));
    const known = perCode.get(code);
    if (known !== undefined) {
      counts.reused++;
      return known;
    }
    const analysis = original.call(this, code);
    counts.analysed++;
    perCode.set(code, analysis);
    return analysis;
  };
  return true;
}

/** Resolves to whether the cache is in place; installs once, on first import. */
export const jumpAnalysisCacheInstalled: Promise<boolean> = install();
