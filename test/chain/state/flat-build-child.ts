/**
 * Child process of the flat build's kill test: opens a dev chain (its flat table being built in the background),
 * reports the build's cursor as it moves, and mines blocks of transfers meanwhile (head moves during the build).
 */
import { randomBytes } from 'node:crypto';
import { addresses, mine, openDevChain, signedTx } from '../engine/fixtures.js';
import { BIG, flatOf, slotKey } from './flat-check.js';

const chain = await openDevChain(process.argv[2]);
const flat = flatOf(chain);
// Slices of 1 ms: many cursor moves to be killed between.
flat.sliceMs = 1;
let nonce = await (await chain.stateAt('latest'))!.getNonce(addresses[1]);
let last = '';
const report = setInterval(() => {
  // '+': the cursor is inside an account's storage.
  const inside = flat.cursor?.length === 64 ? '+' : '';
  const at = flat.mode === 'ready' ? 'ready' : flat.cursor === undefined ? flat.mode : `${flat.cursor[0]}${inside}`;
  if (at !== last) process.stdout.write(`cursor ${at}\n`);
  last = at;
}, 1);
report.unref();
for (;;) {
  const txs = Array.from({ length: 5 }, () =>
    signedTx(chain, { from: 1, nonce: nonce++, to: randomBytes(20), value: 1n }),
  );
  await mine(chain, txs);
  // Slots of the large contract set and removed during the build, below and above the cursor.
  await chain.editHeadState(async (state) => {
    for (let i = 0; i < 20; i++) {
      const slot = Math.floor(Math.random() * 4000);
      await state.putStorage(BIG, slotKey(slot), Math.random() < 0.3 ? new Uint8Array(0) : randomBytes(4));
    }
  });
  await new Promise((r) => setTimeout(r, 5));
}
