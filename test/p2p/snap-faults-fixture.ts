/**
 * Serving-side pieces of the snap sync fault tests: one contract whose storage is bigger than one StorageRanges
 * answer may carry (built through the node's own block production: calls to a contract that writes a run of
 * slots), how to read every one of its slots back from a node, and the node's snap sync status from eth_syncing.
 *
 * The servers answer at most SERVED_ANSWER_BYTES (`--snap.response-bytes`): a storage trie of a few hundred slots
 * then spans several answers, where the client's own 512 KiB storage request needed ~10,000 slots built through
 * blocks on three nodes (~30 CPU s of the file).
 */
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { keccak256 } from '../../src/chain/base/crypto.js';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { decodeStorageRanges, encodeGetStorageRanges, SnapCode } from '../../src/p2p/snap/messages.js';
import { STORAGE_LOOKUP_SLACK } from '../../src/p2p/snap/serve-storage.js';
import { REQUEST_BYTES } from '../../src/p2p/snap/sync/fetch.js';
import type { NodeProcess } from '../helpers/node-process.js';
import { callBatch } from '../helpers/rpc.js';
import { TestPeer } from '../helpers/test-peer.js';
import { call } from './multi-node-fixture.js';

/**
 * Runtime code of the writer: SSTORE(i, ~i) for i in [start, start + count), start and count being the two
 * calldata words. `~i` keeps every value 32 bytes long, so each slot costs the most bytes in a range answer.
 */
const WRITER_RUNTIME = [
  '600035', // CALLDATALOAD(0)                     [start]
  '602035', // CALLDATALOAD(32)                    [count, start]
  '8101', // DUP2 ADD                              [end, i]
  '5b', // JUMPDEST (offset 8)
  '81198255', // DUP2 NOT DUP3 SSTORE              SSTORE(i, ~i)   [end, i]
  '9060010190', // SWAP1 PUSH1 1 ADD SWAP1         [end, i+1]
  '818111', // DUP2 DUP2 GT                        [end > i+1, end, i+1]
  '61000857', // PUSH2 8 JUMPI
  '00', // STOP
].join('');
/** Init code: CODECOPY the runtime (which follows these 11 bytes) to memory and RETURN it. */
const WRITER_INIT = `0x601a80600b6000396000f3${WRITER_RUNTIME}`;
/** Slots one call writes: ~22,150 gas each (a new slot), under the dev block's 30 M. */
const SLOTS_PER_CALL = 1_250;
/** A slot in a StorageRanges answer: its 32-byte hash and the RLP of a 32-byte value. */
const SLOT_BYTES = 32 + 33;

/** The servers' answer limit, and their flag for it. */
export const SERVED_ANSWER_BYTES = 16 * 1024;
export const SERVED_ANSWER_ARGS = ['--snap.response-bytes', String(SERVED_ANSWER_BYTES)];
/**
 * The most slots one StorageRanges answer can carry: a range runs 10% past the limit before it is cut, the slot
 * that crosses that included.
 */
export const ONE_ANSWER_SLOTS = Math.ceil(
  Math.floor(Math.min(REQUEST_BYTES, SERVED_ANSWER_BYTES) * (1 + STORAGE_LOOKUP_SLACK)) / SLOT_BYTES,
);
/** Enough slots that one answer cannot carry them all, even with part of them healed after a pivot move. */
export const BIG_STORAGE_SLOTS = ONE_ANSWER_SLOTS * 2;

const word = (n: number) => n.toString(16).padStart(64, '0');

export interface BigStorage {
  readonly address: string;
  readonly slots: number;
  /** The block of the last write: a pivot below it holds only part of the storage. */
  readonly block: number;
}

/** Deploys the writer on `node` (a dev miner) and has it write `slots` slots, one block per call. */
export async function deployBigStorage(node: NodeProcess, slots = BIG_STORAGE_SLOTS): Promise<BigStorage> {
  const from = DEV_ACCOUNTS[0]!.address;
  const deployed = await mined(
    node,
    await call<string>(node.url, 'eth_sendTransaction', [{ from, data: WRITER_INIT }]),
  );
  const address = deployed.contractAddress;
  let block = Number(deployed.blockNumber);
  for (let start = 0; start < slots; start += SLOTS_PER_CALL) {
    const count = Math.min(SLOTS_PER_CALL, slots - start);
    const data = `0x${word(start)}${word(count)}`;
    const hash = await call<string>(node.url, 'eth_sendTransaction', [{ from, to: address, data, gas: '0x1c9c380' }]);
    block = Number((await mined(node, hash)).blockNumber);
  }
  return { address, slots, block };
}

interface Mined {
  readonly status: string;
  readonly contractAddress: string;
  readonly blockNumber: string;
}

async function mined(node: NodeProcess, hash: string): Promise<Mined> {
  for (let i = 0; i < 600; i++) {
    const r = await call<Mined | null>(node.url, 'eth_getTransactionReceipt', [hash]);
    if (r !== null) {
      if (r.status !== '0x1') throw new Error(`transaction ${hash} failed`);
      return r;
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`no receipt for ${hash}`);
}

/**
 * The storage hash of `big` at `block` and every one of its slots (eth_getStorageAt, in JSON-RPC batches): two
 * nodes with the same storage give the same list.
 */
export async function bigStorageAt(node: NodeProcess, big: BigStorage, block: string): Promise<unknown[]> {
  const { storageHash } = await call<{ storageHash: string }>(node.url, 'eth_getProof', [big.address, [], block]);
  const reads = Array.from(
    { length: big.slots },
    (_, i) => ['eth_getStorageAt', [big.address, `0x${i.toString(16)}`, block]] as const,
  );
  return [storageHash, ...(await callBatch(node.url, reads, 1000))];
}

/**
 * What `node` answers over the wire when asked for the whole storage of `big` at its head with the client's
 * largest storage request: the slots that came and whether a boundary proof closed a cut range.
 */
export async function bigStorageAnswerOf(
  node: NodeProcess,
  big: BigStorage,
): Promise<{ slots: number; proof: boolean }> {
  const head = await call<{ stateRoot: string }>(node.url, 'eth_getBlockByNumber', ['latest', false]);
  const peer = await TestPeer.dial(node.enode!);
  try {
    await peer.nodeStatus;
    const requestId = 7n;
    const answer = peer.waitForMessage(
      (m) => m.protocol === 'snap' && m.code === SnapCode.StorageRanges,
      'the StorageRanges answer',
    );
    const request = encodeGetStorageRanges({
      requestId,
      root: hexToBytes(head.stateRoot as `0x${string}`),
      accounts: [keccak256(hexToBytes(big.address as `0x${string}`))],
      origin: new Uint8Array(0),
      limit: new Uint8Array(0),
      bytes: BigInt(REQUEST_BYTES),
    });
    peer.link.send('snap', SnapCode.GetStorageRanges, request);
    const { slots, proof } = decodeStorageRanges((await answer).payload);
    return { slots: slots[0]?.length ?? 0, proof: proof.length > 0 };
  } finally {
    await peer.destroy();
  }
}

/** The snap part of eth_syncing, or undefined when the node is not (or no longer) snap-syncing. */
export interface SnapSyncing {
  readonly snapPhase: string;
  readonly pivotBlock: string;
  readonly syncedAccounts: string;
}

export async function snapStatusOf(node: NodeProcess): Promise<SnapSyncing | undefined> {
  const status = await call<false | Partial<SnapSyncing>>(node.url, 'eth_syncing', []);
  return status !== false && status.snapPhase !== undefined ? (status as SnapSyncing) : undefined;
}

/**
 * The hashes of the node's canonical headers `from`..`to`, asked over devp2p (GetBlockHeaders by number): a
 * snap-synced node holds headers below its pivot without bodies, which the JSON-RPC block reads do not serve.
 */
export async function canonicalHashesOverWire(node: NodeProcess, from: number, to: number): Promise<string[]> {
  const peer = await TestPeer.dial(node.enode!);
  try {
    await peer.nodeStatus;
    const raws = await peer.getBlockHeaders({ origin: BigInt(from), amount: to - from + 1, skip: 0, reverse: false });
    return raws.map((raw) => bytesToHex(keccak256(RLP.encode(raw))));
  } finally {
    await peer.destroy();
  }
}
