/**
 * SIGKILL during the flat state's background build, at several moments, with blocks imported meanwhile: each
 * restart resumes from the stored cursor, and once the build is done the table equals the head's trie, reads at the
 * head answer from it, and 100 more blocks keep it equal.
 */
import { spawn } from 'node:child_process';
import { createAccount, Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { keccak256 } from '../../../src/chain/base/crypto.js';
import { WriteBatch } from '../../../src/chain/db/chain-db.js';
import { keys, Tag } from '../../../src/chain/db/keys.js';
import { compiledChild } from '../../helpers/compiled-child.js';
import { addresses, mine, openDevChain, signedTx, tempDir } from '../engine/fixtures.js';
import { BIG, dbOf, flatOf, flatReady, slotKey, tableEntries, trieEntries } from './flat-check.js';

const ACCOUNTS = 6000;
const BIG_SLOTS = 3000;

/** Runs the child until its build cursor's first byte reaches `atLeast`, then kills it; returns what it printed. */
async function runAndKill(dir: string, atLeast: number): Promise<string[]> {
  const child = spawn(process.execPath, [await compiledChild(new URL('./flat-build-child.ts', import.meta.url)), dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const seen: string[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`child exited early (${code}) after ${seen.join(',')}`)));
      child.stdout.on('data', (chunk: Buffer) => {
        for (const m of chunk.toString().matchAll(/cursor ([\w+]+)/g)) {
          seen.push(m[1]);
          const n = Number.parseInt(m[1], 10);
          if (m[1] === 'ready' || (Number.isInteger(n) && n >= atLeast)) {
            child.removeAllListeners('exit');
            child.on('exit', () => resolve());
            child.kill('SIGKILL');
          }
        }
      });
    });
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  return seen;
}

async function removeFlatTable(dir: string): Promise<void> {
  const chain = await openDevChain(dir);
  await flatReady(chain);
  const db = dbOf(chain);
  const batch = new WriteBatch().del(keys.meta('flatState'));
  for (const key of (await tableEntries(chain)).keys()) batch.del(Buffer.from(key, 'hex'));
  await db.write(batch);
  expect(Tag.flatAccount).toBe(0x61);
  await chain.close();
}

describe('flat state build', () => {
  it('resumes after SIGKILLs during the build and ends equal to the head trie', { timeout: 240_000 }, async () => {
    const dir = tempDir('flat-kill-');
    try {
      const setup = await openDevChain(dir.dir);
      await setup.editHeadState(async (state) => {
        for (let i = 0; i < ACCOUNTS; i++) {
          const address = new Address(Uint8Array.from(Buffer.from((i + 1).toString(16).padStart(40, '0'), 'hex')));
          await state.putAccount(address, createAccount({ balance: BigInt(i + 1), nonce: 1n }));
          if (i % 3 === 0) await state.putStorage(address, new Uint8Array(32).fill(1), Uint8Array.of((i % 250) + 1));
        }
        // A contract with a large storage: build slices end inside it.
        await state.putAccount(BIG, createAccount({ balance: 1n, nonce: 1n }));
        for (let s = 0; s < BIG_SLOTS; s++) await state.putStorage(BIG, slotKey(s), Uint8Array.of((s % 250) + 1));
      });
      await setup.close();
      await removeFlatTable(dir.dir);

      const moments = [40, 120, 200];
      const everySeen: string[] = [];
      for (const at of moments) {
        const seen = await runAndKill(dir.dir, at);
        // Killed mid-build, not after it: the build was still going.
        expect(seen.at(-1)).not.toBe('ready');
        // A resumed build starts from the stored cursor, not from the beginning.
        if (at !== moments[0]) expect(Number.parseInt(seen.find((s) => /^\d+\+?$/.test(s))!, 10)).toBeGreaterThan(0);
        everySeen.push(...seen);
      }
      // Some slices ended inside the large contract's storage (the cursor then names a slot too).
      expect(everySeen.some((s) => s.endsWith('+'))).toBe(true);

      const chain = await openDevChain(dir.dir);
      try {
        await flatReady(chain, 120_000);
        const flat = flatOf(chain);
        // The child's last state edit may be the head's post-state (state/edited-roots.ts).
        const view = (chain as unknown as { view: { stateRootAfter(h: unknown): Uint8Array } }).view;
        const root = view.stateRootAfter(chain.getHead().header);
        expect(flat.covers(root)).toBe(true);
        expect(await tableEntries(chain)).toEqual(trieEntries(chain, root));
        const probe = Buffer.from(addresses[1]);
        const state = (await chain.stateAt('latest'))!;
        expect(flat.account(root, keccak256(probe))).not.toBeNull();
        expect((await state.getNonce(addresses[1])) > 0n).toBe(true);
        let nonce = await state.getNonce(addresses[1]);
        for (let b = 0; b < 100; b++) {
          const to = Uint8Array.from(Buffer.from(((b % 50) + 1).toString(16).padStart(40, '0'), 'hex'));
          const { result } = await mine(chain, [signedTx(chain, { from: 1, nonce: nonce++, to, value: 3n })]);
          expect(result.status).toBe('head');
        }
        expect(await tableEntries(chain)).toEqual(trieEntries(chain, chain.getHead().header.stateRoot));
      } finally {
        await chain.close();
      }
    } finally {
      dir.remove();
    }
  });
});
