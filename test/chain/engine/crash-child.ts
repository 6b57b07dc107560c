/** Child process of the crash test: mines blocks of transfers forever, reporting each stored head. */
import { randomBytes } from 'node:crypto';
import { mine, openDevChain, signedTx } from './fixtures.js';

const chain = await openDevChain(process.argv[2]);
let nonce = await (await chain.stateAt('latest'))!.getNonce((await import('./fixtures.js')).addresses[0]);
for (;;) {
  const txs = Array.from({ length: 200 }, () =>
    signedTx(chain, { from: 0, nonce: nonce++, to: randomBytes(20), value: 1n }),
  );
  const { block } = await mine(chain, txs);
  process.stdout.write(`stored ${block.header.number}\n`);
}
