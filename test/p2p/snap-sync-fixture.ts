/**
 * The serving side of the snap sync tests: a dev chain with a few hundred accounts and contracts holding storage,
 * built through the node's own block production (eth_sendTransaction of "filler" contracts whose constructors
 * write storage slots and pay 1 wei to new addresses), and what to compare a synced node with.
 */
import { randomBytes } from 'node:crypto';
import { RLP } from '@ethereumjs/rlp';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import * as eth from '../../src/p2p/eth/messages.js';
import { EthCode } from '../../src/p2p/eth/messages.js';
import * as snap from '../../src/p2p/snap/messages.js';
import { SnapCode } from '../../src/p2p/snap/messages.js';
import type { ReceivedMessage, TestPeer } from '../helpers/test-peer.js';
import type { NodeProcess } from '../helpers/node-process.js';
import { callBatch } from '../helpers/rpc.js';
import { call } from './multi-node-fixture.js';

const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0');

/** Where filler contract `k` sends its 1-wei payments: `0x5…` + k * 2^16 + j. */
export const recipientOf = (k: number, j: number) => `0x5${hex(k * 0x10000 + j, 20).slice(1)}`;

/**
 * Init code: SSTORE(i, i + 1000·k) for i = slots..1, then CALL each recipient j = payees..1 with 1 wei, then
 * return 32 bytes holding k as the runtime code (so every contract has its own code).
 */
export function fillerInitCode(k: number, slots: number, payees: number): string {
  const salt = hex(1000 * k, 2);
  // Byte offsets of the two JUMPDESTs: after PUSH2; after loop 1 (16 bytes), its POP and the next PUSH2.
  const loop1 = 3;
  const loop2 = loop1 + 1 + 16 + 1 + 3;
  const base = `5${hex(k * 0x10000, 20).slice(1)}`;
  const code = [
    `61${hex(slots, 2)}`, // PUSH2 slots            [i]
    '5b', // JUMPDEST (loop1)
    '80', // DUP1                                   [i, i]
    `61${salt}`, // PUSH2 salt                      [salt, i, i]
    '01', // ADD                                    [i+salt, i]
    '81', // DUP2                                   [i, i+salt, i]
    '55', // SSTORE key=i value=i+salt              [i]
    '6001', // PUSH1 1
    '90', // SWAP1
    '03', // SUB                                    [i-1]
    '80', // DUP1
    `61${hex(loop1, 2)}`, // PUSH2 loop1
    '57', // JUMPI
    '50', // POP                                    []
    `61${hex(payees, 2)}`, // PUSH2 payees          [j]
    '5b', // JUMPDEST (loop2)
    '6000', // retLen
    '6000', // retOffset
    '6000', // argsLen
    '6000', // argsOffset
    '6001', // value 1
    '85', // DUP6 (j)
    `73${base}`, // PUSH20 base
    '01', // ADD                                    [addr, 1, 0, 0, 0, 0, j]
    '5a', // GAS
    'f1', // CALL                                   [ok, j]
    '50', // POP
    '6001', // PUSH1 1
    '90', // SWAP1
    '03', // SUB                                    [j-1]
    '80', // DUP1
    `61${hex(loop2, 2)}`, // PUSH2 loop2
    '57', // JUMPI
    '50', // POP
    `61${salt}`, // PUSH2 salt
    '6000', // PUSH1 0
    '52', // MSTORE
    '6020', // PUSH1 32
    '6000', // PUSH1 0
    'f3', // RETURN
  ].join('');
  // The jump targets above are byte offsets: check them against the assembled code.
  if (code.slice(loop1 * 2, loop1 * 2 + 2) !== '5b' || code.slice(loop2 * 2, loop2 * 2 + 2) !== '5b')
    throw new Error('filler init code: jump targets are off');
  return `0x${code}`;
}

export interface ServedState {
  readonly contracts: string[];
  /** Every address worth comparing: dev accounts, contracts, recipients. */
  readonly addresses: string[];
  readonly slots: number;
}

/** Deploys `contracts` fillers from the first dev account on `node` (a miner), each with its slots and payees. */
export async function buildServedState(
  node: NodeProcess,
  contracts: number,
  slots: number,
  payees: number,
): Promise<ServedState> {
  const from = DEV_ACCOUNTS[0]!.address;
  const deployed: string[] = [];
  const addresses = DEV_ACCOUNTS.map((a) => a.address.toLowerCase());
  for (let k = 1; k <= contracts; k++) {
    const hash = await call<string>(node.url, 'eth_sendTransaction', [
      { from, data: fillerInitCode(k, slots, payees), value: `0x${payees.toString(16)}`, gas: '0x7a1200' },
    ]);
    const receipt = await waitReceipt(node, hash);
    if (receipt.status !== '0x1') throw new Error(`filler ${k} failed`);
    deployed.push(receipt.contractAddress);
    for (let j = 1; j <= payees; j++) addresses.push(recipientOf(k, j));
  }
  return { contracts: deployed, addresses: [...addresses, ...deployed], slots };
}

async function waitReceipt(node: NodeProcess, hash: string): Promise<{ status: string; contractAddress: string }> {
  for (let i = 0; i < 300; i++) {
    const r = await call<{ status: string; contractAddress: string } | null>(node.url, 'eth_getTransactionReceipt', [
      hash,
    ]);
    if (r !== null) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`no receipt for ${hash}`);
}

/**
 * Every account (balance, nonce, code, proof's storage hash and code hash) and every filler slot at `block`, read
 * from `node`: two nodes with the same state give the same list. The reads go in JSON-RPC batches: one POST per few
 * hundred reads instead of one each (~1,000 per node and comparison) costs both sides far less CPU.
 */
export async function stateAt(node: NodeProcess, served: ServedState, block: string): Promise<unknown[]> {
  const reads: Array<[method: string, params: unknown[]]> = [];
  for (const address of served.addresses)
    reads.push(
      ['eth_getBalance', [address, block]],
      ['eth_getTransactionCount', [address, block]],
      ['eth_getProof', [address, [], block]],
    );
  for (const contract of served.contracts) {
    reads.push(['eth_getCode', [contract, block]]);
    for (let i = 0; i <= served.slots; i++) reads.push(['eth_getStorageAt', [contract, `0x${i.toString(16)}`, block]]);
  }
  const results = await callBatch(node.url, reads);
  const out: unknown[] = [];
  let next = 0;
  for (const address of served.addresses) {
    const [balance, nonce, proof] = results.slice(next, (next += 3)) as [
      string,
      string,
      { storageHash: string; codeHash: string },
    ];
    out.push({ address, balance, nonce, storageHash: proof.storageHash, codeHash: proof.codeHash });
  }
  for (const contract of served.contracts) {
    out.push({ contract, code: results[next++] });
    out.push({ contract, slots: results.slice(next, (next += served.slots + 1)) });
  }
  return out;
}

/**
 * A snap peer that lies: it answers every account range with a made-up account and a proof of random bytes and
 * every trie-node request with a node that is not the one asked for; storage, codes and headers it answers empty
 * (as a node without them may), so the lie it is caught at is a bad proof. An honest sync must drop it with the reason and finish from the others.
 */
export function lyingSnapAnswers(message: ReceivedMessage, peer: TestPeer): void {
  const id = (decode: (p: Uint8Array) => { requestId: bigint }) => decode(message.payload).requestId;
  if (message.protocol === 'eth' && message.code === EthCode.GetBlockHeaders) {
    const requestId = eth.decodeGetBlockHeaders(message.payload).requestId;
    peer.send(EthCode.BlockHeaders, eth.encodeBlockHeaders(requestId, []));
    return;
  }
  if (message.protocol !== 'snap') return;
  const garbage = () => randomBytes(40);
  if (message.code === SnapCode.GetAccountRange) {
    const requestId = id(snap.decodeGetAccountRange);
    const body = RLP.encode([new Uint8Array(), Uint8Array.of(1), new Uint8Array(), new Uint8Array()]);
    const accounts = [{ hash: randomBytes(32), body }];
    peer.link.send('snap', SnapCode.AccountRange, snap.encodeAccountRange({ requestId, accounts, proof: [garbage()] }));
  } else if (message.code === SnapCode.GetTrieNodes) {
    const requestId = id(snap.decodeGetTrieNodes);
    peer.link.send('snap', SnapCode.TrieNodes, snap.encodeTrieNodes({ requestId, nodes: [garbage()] }));
  } else if (message.code === SnapCode.GetStorageRanges) {
    const requestId = id(snap.decodeGetStorageRanges);
    peer.link.send('snap', SnapCode.StorageRanges, snap.encodeStorageRanges({ requestId, slots: [], proof: [] }));
  } else if (message.code === SnapCode.GetByteCodes) {
    const requestId = id(snap.decodeGetByteCodes);
    peer.link.send('snap', SnapCode.ByteCodes, snap.encodeByteCodes({ requestId, codes: [] }));
  }
}
