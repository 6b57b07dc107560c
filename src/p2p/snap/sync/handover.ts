/**
 * The end of a snap sync: the pivot's state is complete, so the pivot becomes the head. Its body and those of the
 * few blocks below it (which the next imports' uncle checks read) are fetched and checked against their headers
 * first; the engine then writes them, the head pointer and the snap base in one batch.
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { ChainPort, SnapStatePort } from '../../chain-port.js';
import { BadAnswer, NotHeld, type SnapPeers } from './peers.js';

/** Bodies fetched below the pivot: the uncle rule looks 7 generations back. */
const TOP_BODIES = 8;
const BODIES_KEY = new Uint8Array(32).fill(0xbb);

export async function adoptPivot(
  chain: ChainPort,
  state: SnapStatePort,
  peers: SnapPeers,
  pivot: BlockHeader,
): Promise<void> {
  const headers: BlockHeader[] = [];
  for (let n = pivot.number; n > 0n && headers.length < TOP_BODIES; n--) {
    const hash = n === pivot.number ? pivot.hash() : await chain.getCanonicalHash(n);
    const header = hash === undefined ? undefined : await chain.getHeader(hash);
    if (header === undefined) break;
    headers.push(header);
  }
  const blocks = await peers.run(BODIES_KEY, async (peer) => {
    const bodies = await peer.getBlockBodies(headers.map((h) => h.hash()));
    if (bodies.length < headers.length) throw new NotHeld('not every body of the top blocks');
    const out: Block[] = [];
    for (let i = 0; i < headers.length; i++) {
      const body = bodies[i]!;
      let block: Block;
      try {
        block = chain.decodeBlockValues(headers[i]!.raw(), body.txs, body.uncles);
      } catch (err) {
        throw new BadAnswer(`sent an undecodable body for block ${headers[i]!.number}: ${(err as Error).message}`);
      }
      if (!(await block.transactionsTrieIsValid()) || !block.uncleHashIsValid())
        throw new BadAnswer(`sent a body that does not match header ${headers[i]!.number}`);
      out.push(block);
    }
    return out;
  });
  await state.adoptPivot(blocks, blocks[0]!);
}
