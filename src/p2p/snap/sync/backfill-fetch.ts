/**
 * One peer's share of the history backfill: the bodies and receipts of a run of blocks whose headers are stored,
 * each checked against its header before anything is kept (a body against transactionsRoot and ommersHash, a
 * receipt list against receiptsRoot and gasUsed). A peer may skip blocks it lacks (serving nodes do, ours too),
 * so answers are matched to the requested headers in order, skipping; an answer that matches none of the headers
 * still open is a wrong one, and the peer is dropped for it.
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt } from '@ethereumjs/util';
import { type BackfilledBlock, type ConsensusReceipt, receiptsOfBlock } from '../../../chain/index.js';
import type { ChainPort } from '../../chain-port.js';
import type { RawBody, RawReceipt } from '../../eth/messages.js';
import type { EthSession } from '../../eth/session.js';
import { BadAnswer } from './peers.js';

/** What the fetch needs of the chain: decoding a peer's body against a stored header, and each height's rules. */
export type HistoryChain = Pick<ChainPort, 'decodeBlockValues'>;

/** The blocks of `headers` this peer served correctly (possibly none: it holds none of them), by hash hex. */
export async function fetchHistory(
  peer: EthSession,
  chain: HistoryChain,
  headers: readonly BlockHeader[],
): Promise<BackfilledBlock[]> {
  const bodies = await peer.getBlockBodies(headers.map((h) => h.hash()));
  const blocks = await matchBodies(chain, headers, bodies);
  if (blocks.length === 0) return [];
  const lists = await peer.getReceipts(blocks.map((b) => b.hash()));
  return matchReceipts(blocks, lists);
}

async function matchBodies(
  chain: HistoryChain,
  headers: readonly BlockHeader[],
  bodies: readonly RawBody[],
): Promise<Block[]> {
  const out: Block[] = [];
  let next = 0;
  for (const [i, body] of bodies.entries()) {
    let matched: Block | undefined;
    while (matched === undefined && next < headers.length) {
      matched = await bodyOf(chain, headers[next]!, body);
      next++;
    }
    if (matched === undefined) throw new BadAnswer(`sent body ${i} that matches none of the headers asked for`);
    out.push(matched);
  }
  return out;
}

/** The block when `body` belongs under `header` (its transactions and uncles are the ones the header commits to). */
async function bodyOf(chain: HistoryChain, header: BlockHeader, body: RawBody): Promise<Block | undefined> {
  let block: Block;
  try {
    block = chain.decodeBlockValues(header.raw(), body.txs, body.uncles);
  } catch {
    return undefined;
  }
  return (await block.transactionsTrieIsValid()) && block.uncleHashIsValid() ? block : undefined;
}

function matchReceipts(blocks: readonly Block[], lists: readonly RawReceipt[][]): BackfilledBlock[] {
  const out: BackfilledBlock[] = [];
  let next = 0;
  for (const [i, list] of lists.entries()) {
    let decoded: ConsensusReceipt[];
    try {
      decoded = list.map(consensusReceiptOf);
    } catch (err) {
      throw new BadAnswer(`sent undecodable receipts (list ${i}): ${(err as Error).message}`);
    }
    let matched: BackfilledBlock | undefined;
    // Why the list is not the block in its place (the one it was most likely sent for), if it is not.
    let reason: string | undefined;
    while (matched === undefined && next < blocks.length) {
      const block = blocks[next++]!;
      const result = receiptsOfBlock(block, decoded, block.common);
      if ('receipts' in result) matched = { block, receipts: result.receipts };
      else reason ??= result.wrong;
    }
    if (matched === undefined)
      throw new BadAnswer(`sent receipts that match none of the blocks asked for (${reason ?? 'none was left'})`);
    out.push(matched);
  }
  return out;
}

type LogFields = [Uint8Array, Uint8Array[], Uint8Array];

/** A wire receipt (legacy: its field list; typed: type byte ++ RLP of the fields) as its consensus fields. */
function consensusReceiptOf(raw: RawReceipt): ConsensusReceipt {
  const typed = raw instanceof Uint8Array;
  const fields = (typed ? RLP.decode(raw.subarray(1)) : raw) as [Uint8Array, Uint8Array, Uint8Array, LogFields[]];
  const [statusOrRoot, cumulative, , logs] = fields;
  return {
    type: typed ? raw[0]! : 0,
    statusOrRoot,
    cumulativeGasUsed: bytesToBigInt(cumulative),
    logs: logs.map(([address, topics, data]) => ({ address, topics, data })),
  };
}
