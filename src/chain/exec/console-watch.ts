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

type Message = { readonly to?: { readonly bytes: Uint8Array }; readonly data: Uint8Array };
type Watched = {
  _executeCall(message: Message): Promise<unknown>;
  _svcConsole?: Uint8Array[];
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
    if (to !== undefined && isConsole(to)) payloads.push(message.data.slice());
    return run.call(this, message);
  };
}

/** Whether `watchConsole` was called on `evm`. */
export function watchesConsole(evm: object): boolean {
  return (evm as Watched)._svcConsole !== undefined;
}

/** Forgets what `evm` kept (a run that is not reported: a rejected transaction). */
export function dropConsole(evm: object): void {
  const kept = (evm as Watched)._svcConsole;
  if (kept !== undefined) kept.length = 0;
}

/** The lines of the messages `evm` kept since the last take, in order; undefined when there were none. */
export function takeConsole(evm: object): string[] | undefined {
  const kept = (evm as Watched)._svcConsole;
  if (kept === undefined || kept.length === 0) return undefined;
  const lines: string[] = [];
  for (const data of kept) {
    const line = decodeConsoleCall(data);
    if (line !== undefined) lines.push(line);
  }
  kept.length = 0;
  return lines.length > 0 ? lines : undefined;
}
