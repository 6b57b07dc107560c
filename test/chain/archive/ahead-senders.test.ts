/**
 * The read-ahead recovers transaction senders on the pool's recovery worker before the blocks execute: a dev
 * chain's blocks of transfers from several accounts, exported and imported into a fresh chain, reach the same head
 * (a wrong sender would change the state root and refuse the block), with every sender asked of the recovery ahead.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { exportHistory } from '../../../src/chain/archive/history-export.js';
import { importHistory } from '../../../src/chain/archive/history-import.js';
import { SenderRecovery } from '../../../src/chain/txpool/sender-recovery.js';
import { addresses, mine, openDevChain, signedTx, tempDir } from '../engine/fixtures.js';

const dirs = [tempDir('ahead-a-'), tempDir('ahead-b-')];
afterAll(() => {
  vi.restoreAllMocks();
  for (const d of dirs) d.remove();
});
const silent = { info: () => {} };

describe('history import: senders recovered ahead', () => {
  it('imports blocks of transfers with their senders recovered off the importing thread, to the same head', async () => {
    const source = await openDevChain(dirs[0].dir);
    let sent = 0;
    for (let b = 0; b < 4; b++) {
      const txs = [0, 1, 2, 3, 4].flatMap((from) =>
        [0n, 1n, 2n].map((i) =>
          signedTx(source, { from, nonce: BigInt(b) * 3n + i, to: addresses[(from + 1) % 5], value: 1000n + i }),
        ),
      );
      sent += txs.length;
      await mine(source, txs);
    }
    const file = join(dirs[0].dir, 'blocks.rlp');
    await exportHistory({ chain: source, path: file, log: silent });
    const head = source.getHead();
    await source.close();

    const recover = vi.spyOn(SenderRecovery.prototype, 'recover');
    const target = await openDevChain(dirs[1].dir);
    try {
      const outcome = await importHistory({ chain: target, files: [file], log: silent });
      expect(outcome.imported).toBe(4);
      expect(target.getHead().hash()).toEqual(head.hash());
      expect(target.getHead().header.stateRoot).toEqual(head.header.stateRoot);
      expect(recover).toHaveBeenCalledTimes(sent);
    } finally {
      await target.close();
    }
  }, 60_000);
});
