import { createEVM } from '@ethereumjs/evm';
import { describe, expect, it } from 'vitest';
import { leanJournal } from './call-journal.js';

type Journal = {
  alwaysWarmJournal: Map<string, Set<string>>;
  accessList?: Map<string, Set<string>>;
  startReportingAccessList(): void;
  addAlwaysWarmAddress(address: unknown, addToAccessList?: boolean): void;
  addAlwaysWarmSlot(address: string, slot: string, addToAccessList?: boolean): void;
};

const journalOf = async () => (await createEVM()).journal as unknown as Journal;

/** What a journal holds after the calls, as plain data. */
function contents(j: Journal): unknown {
  const plain = (m: Map<string, Set<string>> | undefined) =>
    m === undefined ? m : [...m].map(([k, v]) => [k, [...v]]);
  return { warm: plain(j.alwaysWarmJournal), accessList: plain(j.accessList) };
}

describe('leanJournal: addAlwaysWarmAddress', () => {
  // runTx's three kinds (precompile keys, `Address.toString()`, unprefixed hex), and text the library's hex test
  // refuses (kept with its prefix) or accepts only once prefixed.
  const inputs = [
    '0000000000000000000000000000000000000001',
    '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    'f39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    '0x',
    '',
    '0xzz',
    '0Xab',
    'x0ab',
    '0x0000000000000000000000000000000000000001',
  ];

  it('leaves the sets the library leaves, with and without access-list reporting', async () => {
    for (const reporting of [false, true]) {
      const library = await journalOf();
      const lean = await journalOf();
      expect(leanJournal(lean)).toBe(true);
      if (reporting) {
        library.startReportingAccessList();
        lean.startReportingAccessList();
      }
      inputs.forEach((address, i) => {
        for (const j of [library, lean]) j.addAlwaysWarmAddress(address, i % 2 === 0);
      });
      for (const j of [library, lean]) j.addAlwaysWarmSlot('0xabcdef', '0x01', true);
      expect(contents(lean)).toEqual(contents(library));
    }
  });

  it('throws the library error for a value that is not text', async () => {
    const library = await journalOf();
    const lean = await journalOf();
    leanJournal(lean);
    expect(() => lean.addAlwaysWarmAddress(42)).toThrow();
    expect(() => library.addAlwaysWarmAddress(42)).toThrow();
  });

  it('is replaced on the journal', async () => {
    const lean = await journalOf();
    const before = lean.addAlwaysWarmAddress;
    leanJournal(lean);
    expect(lean.addAlwaysWarmAddress).not.toBe(before);
  });
});
