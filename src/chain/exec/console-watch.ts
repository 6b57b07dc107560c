/**
 * console.log on the dev chain: the calldata of every message to the console address (hardhat's console.sol,
 * 0x000000000000000000636F6e736F6c652e6c6f67) an EVM runs, decoded into lines (console-abi.ts).
 *
 * Only an EVM that was asked to watch pays anything: `watchConsole` gives that one EVM instance its own
 * `_executeCall` (the library's, or the lean one of call-frames.ts when it had it: install this after), which
 * compares each message's recipient with the console address before running the message as before. The console
 * address holds no code, so the message itself runs as any call to an empty account (gas and state are the
 * chain's own, as on Anvil and Hardhat). Not a precompile: a precompile is warm under EIP-2929, which would change
 * the gas of every call to it. Frames that revert keep their lines, as Anvil and Hardhat print them.
 */
import { decodeConsoleCall } from './console-abi.js';

/** The console address's 20 bytes ("console.log" in ASCII, right-aligned). */
const CONSOLE = Uint8Array.from(Buffer.from('000000000000000000636f6e736f6c652e6c6f67', 'hex'));

/**
 * Lines kept per run; a loop of console.log calls past it is counted, not kept (its gas bounds it, not its
 * lines: 30M gas buys some 10^5 calls to a warm empty account).
 */
export const MAX_CONSOLE_LINES = 1000;

type Message = { readonly to?: { readonly bytes: Uint8Array }; readonly data: Uint8Array };
type Watched = {
  _executeCall(message: Message): Promise<unknown>;
  _svcConsole?: Uint8Array[];
  _svcConsoleDropped?: number;
};

function isConsole(to: Uint8Array): boolean {
  // The last byte first: almost every other address is told apart by it.
  if (to[19] !== 0x67) return false;
  for (let i = 0; i < 19; i++) if (to[i] !== CONSOLE[i]) return false;
  return true;
}

/** Makes `evm` keep the calldata of its messages to the console address from now on (once per EVM). */
export function watchConsole(evm: object): void {
  const target = evm as Watched;
  if (target._svcConsole !== undefined) return;
  const payloads: Uint8Array[] = [];
  target._svcConsole = payloads;
  const run = target._executeCall;
  target._executeCall = function (this: Watched, message: Message) {
    const to = message.to?.bytes;
    if (to !== undefined && isConsole(to)) {
      if (payloads.length < MAX_CONSOLE_LINES) payloads.push(message.data.slice());
      else this._svcConsoleDropped = (this._svcConsoleDropped ?? 0) + 1;
    }
    return run.call(this, message);
  };
}

/** Whether `watchConsole` was called on `evm`. */
export function watchesConsole(evm: object): boolean {
  return (evm as Watched)._svcConsole !== undefined;
}

/** Forgets what `evm` kept (a run that is not reported: a rejected transaction). */
export function dropConsole(evm: object): void {
  const target = evm as Watched;
  if (target._svcConsole !== undefined) target._svcConsole.length = 0;
  target._svcConsoleDropped = undefined;
}

/** The lines of the messages `evm` kept since the last take, in order; undefined when there were none. */
export function takeConsole(evm: object): string[] | undefined {
  const target = evm as Watched;
  const kept = target._svcConsole;
  if (kept === undefined || kept.length === 0) return undefined;
  const lines: string[] = [];
  for (const data of kept) {
    // Calldata is the contract's to choose: whatever it holds, the transaction's outcome never depends on it.
    let line: string | undefined;
    try {
      line = decodeConsoleCall(data);
    } catch {
      line = undefined;
    }
    if (line !== undefined) lines.push(line);
  }
  const dropped = target._svcConsoleDropped;
  if (dropped !== undefined) lines.push(`(${dropped} more console.log calls not shown)`);
  dropConsole(evm);
  return lines.length > 0 ? lines : undefined;
}
