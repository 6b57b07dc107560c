import { Interface } from 'ethers';
import { describe, expect, it } from 'vitest';
import { MAX_CONSOLE_LINES, dropConsole, takeConsole, watchConsole, watchesConsole } from './console-watch.js';

const CONSOLE = Uint8Array.from(Buffer.from('000000000000000000636f6e736f6c652e6c6f67', 'hex'));
const OTHER = Uint8Array.from(Buffer.from('000000000000000000636f6e736f6c652e6c6f68', 'hex'));
const logString = (text: string) =>
  Uint8Array.from(
    Buffer.from(new Interface(['function log(string)']).encodeFunctionData('log', [text]).slice(2), 'hex'),
  );

/** The EVM's one member the watch touches: the frame it wraps, recording what it ran. */
function fakeEvm() {
  const ran: Uint8Array[] = [];
  const evm = {
    async _executeCall(message: { to?: { bytes: Uint8Array }; data: Uint8Array }) {
      ran.push(message.data);
      return 'ran';
    },
  };
  const send = (to: Uint8Array, data: Uint8Array) => evm._executeCall({ to: { bytes: to }, data });
  return { evm, ran, send };
}

describe('the console.log watch', () => {
  it('keeps the calls to the console address, runs every message as before, and leaves other EVMs alone', async () => {
    const { evm, ran, send } = fakeEvm();
    expect(watchesConsole(evm)).toBe(false);
    watchConsole(evm);
    watchConsole(evm); // once per EVM
    expect(await send(CONSOLE, logString('one'))).toBe('ran');
    await send(OTHER, logString('not a console call'));
    await evm._executeCall({ data: logString('a creation') } as never);
    await send(CONSOLE, logString('two'));
    expect(ran).toHaveLength(4);
    expect(takeConsole(evm)).toEqual(['one', 'two']);
    expect(takeConsole(evm)).toBeUndefined();
    await send(CONSOLE, logString('dropped'));
    dropConsole(evm);
    expect(takeConsole(evm)).toBeUndefined();
  });

  it('skips calldata no signature makes, and counts the calls past its bound', async () => {
    const { evm, send } = fakeEvm();
    watchConsole(evm);
    await send(CONSOLE, Uint8Array.from([0x41, 0x30, 0x4f, 0xac, 0xff]));
    expect(takeConsole(evm)).toBeUndefined();
    for (let i = 0; i < MAX_CONSOLE_LINES + 5; i++) await send(CONSOLE, logString(`line ${i}`));
    const lines = takeConsole(evm)!;
    expect(lines).toHaveLength(MAX_CONSOLE_LINES + 1);
    expect(lines.at(-1)).toBe('(5 more console.log calls not shown)');
  });
});
