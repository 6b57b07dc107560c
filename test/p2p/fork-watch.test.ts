/**
 * The fork-id re-check on every new head (src/p2p/fork-watch.ts): a peer's STATUS fork id is kept while our chain
 * accepts it and the peer is dropped once our head reaches the block where the schedules part; a compatible peer's
 * id, however stale, is never dropped (EIP-2124 rules 2 and 3 accept every fork state of our own schedule).
 */
import { describe, expect, it } from 'vitest';
import { withForkOverrides, dev, mordor } from '../../src/chain/networks/index.js';
import type { EthSession } from '../../src/p2p/eth/session.js';
import { ForkIdTable, forkBlocksOf } from '../../src/p2p/fork-id.js';
import { dropDivergedPeers } from '../../src/p2p/fork-watch.js';

const GENESIS = new Uint8Array(32).fill(7);

function fakeSession(forkId: { hash: Uint8Array; next: bigint }) {
  const failed: string[] = [];
  const session = {
    remoteStatus: { forkId },
    ready: true,
    link: { remoteId: new Uint8Array(64).fill(1) },
    fail: (err: Error) => failed.push(err.message),
  };
  return { session: session as unknown as EthSession, failed };
}

const quietLog = { info() {}, warn() {}, debug() {} } as never;

describe('dropDivergedPeers', () => {
  const plain = new ForkIdTable(GENESIS, forkBlocksOf(dev));
  const moved = new ForkIdTable(GENESIS, forkBlocksOf(withForkOverrides(dev, { spiral: 20n })));

  it('announces the moved fork as next, keeps the peer below it and drops it at it, on both sides', () => {
    expect(moved.at(5n).next).toBe(20n);
    const theirsMoved = fakeSession(moved.at(5n));
    const theirsPlain = fakeSession(plain.at(5n));
    for (let head = 0n; head < 20n; head++) {
      dropDivergedPeers([theirsMoved.session], plain, head, quietLog);
      dropDivergedPeers([theirsPlain.session], moved, head, quietLog);
    }
    expect(theirsMoved.failed).toEqual([]);
    expect(theirsPlain.failed).toEqual([]);
    dropDivergedPeers([theirsMoved.session], plain, 20n, quietLog);
    dropDivergedPeers([theirsPlain.session], moved, 20n, quietLog);
    expect(theirsMoved.failed).toEqual([
      expect.stringMatching(/^fork id: local incompatible .* expects a fork at block 20/),
    ]);
    expect(theirsPlain.failed).toEqual([expect.stringMatching(/^fork id: remote needs update/)]);
  });

  it('never drops a compatible peer, whatever head its STATUS was sent at and ours is now', () => {
    const table = new ForkIdTable(GENESIS, forkBlocksOf(mordor));
    const heads = [0n, ...table.forks.flatMap((f) => [f - 1n, f, f + 1n]), 20_000_000n];
    for (const theirHead of heads) {
      const peer = fakeSession(table.at(theirHead));
      for (const ourHead of heads) dropDivergedPeers([peer.session], table, ourHead, quietLog);
      expect(peer.failed).toEqual([]);
    }
  });
});
