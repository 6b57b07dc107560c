/**
 * Bastion mode for Cancun (and Shanghai) BlockchainTests: the blocks themselves cannot be imported (a Cancun header
 * carries a base fee, withdrawals and blob fields; an ETC chain refuses it before any transaction runs), and what
 * Bastion takes from Cancun is the EVM. So the case's pre-state becomes the genesis of an `ETC_Bastion` chain
 * (`ETC_Spiral` for Shanghai cases: they pin the behaviour before Bastion), each block's transactions go through
 * the node's pool and one block is mined per vector block with the vector's coinbase and timestamp, and the
 * post-state is compared over RPC account by account.
 *
 * Left out of the comparison, and nothing else (each case's outcome says so): the coinbase (Cancun burns the base
 * fee and pays no block reward; ETC pays the whole gas price and a reward) and EIP-4788's beacon-roots contract
 * (a system call at each block's start that ETC does not have).
 *
 * A type-2 transaction cannot be re-signed (the vector holds no key) and an ETC chain refuses type 2, so it is sent
 * from its sender, unsigned (eth_sendUnsignedTransaction), at its effective gas price: what its sender pays either
 * way. The node signs only legacy transactions, so a type 2 with a non-empty access list skips its case (none of
 * the fixtures has one); with an empty one, legacy and access-list transactions run the same. Legacy and type-1
 * transactions go as signed (the chain has the vectors' chain id).
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { quantity, sameBytes, toQuantity } from './hex.js';
import { checkPostState } from './post-state.js';
import type { RpcClient } from './rpc.js';
import { Difference, expectEqual, type Accounts } from './types.js';

export const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';

/** Vector network → the ETC test fork whose EVM it matches. */
export const BASTION_NETWORKS: Readonly<Record<string, string>> = { Cancun: 'ETC_Bastion', Shanghai: 'ETC_Spiral' };

type Hex = `0x${string}`;

export interface VectorTransaction {
  readonly type?: string;
  readonly chainId?: string;
  readonly nonce: string;
  readonly gasPrice?: string;
  readonly maxFeePerGas?: string;
  readonly maxPriorityFeePerGas?: string;
  readonly gasLimit: string;
  readonly to: string;
  readonly value: string;
  readonly data: string;
  readonly accessList?: ReadonlyArray<{ readonly address: string; readonly storageKeys: readonly string[] }>;
  readonly v: string;
  readonly r: string;
  readonly s: string;
  readonly sender: string;
}

export interface CancunBlockchainCase {
  readonly network: string;
  readonly genesisBlockHeader: Readonly<Record<string, string>>;
  readonly pre: Accounts;
  readonly postState?: Accounts;
  readonly blocks: ReadonlyArray<{
    readonly blockHeader?: Readonly<Record<string, string>>;
    readonly transactions?: readonly VectorTransaction[];
    readonly expectException?: string;
    readonly rlp?: string;
  }>;
}

interface RpcBlock {
  readonly number: string;
  readonly timestamp: string;
  readonly gasLimit: string;
  readonly miner: string;
  readonly transactions: readonly string[];
}

/** Why a case cannot run in this mode, or undefined when it can. */
export function bastionSkipReason(c: CancunBlockchainCase, shadowed: ReadonlySet<bigint>): string | undefined {
  if (!(c.network in BASTION_NETWORKS))
    return `network ${c.network}: the Bastion mode runs Cancun cases on ETC_Bastion and Shanghai cases on ETC_Spiral`;
  const invalid = c.blocks.find((b) => b.expectException !== undefined);
  if (invalid !== undefined)
    return `a block the vector expects invalid (${invalid.expectException}): the Bastion mode replays transactions, not Cancun blocks, so it cannot judge a block's validity`;
  const listed = c.blocks
    .flatMap((b) => b.transactions ?? [])
    .find((t) => quantity(t.type ?? '0x0') === 2n && (t.accessList?.length ?? 0) > 0);
  if (listed !== undefined)
    return 'a type-2 transaction with an access list: it is replayed unsigned, and the node signs only legacy transactions';
  if (c.postState === undefined) return 'the vector gives only a post-state hash (a Cancun state root, not comparable)';
  if (c.network === 'Cancun') {
    const kept = Object.keys(c.pre).find((a) => shadowed.has(BigInt(a)));
    if (kept !== undefined)
      return `the case keeps a contract at ${kept}, a Bastion precompile Cancun does not have (EIP-2537 0x0b–0x11, EIP-7951 0x100)`;
  }
  return undefined;
}

/** Chain params: the case's pre-state as genesis, the rule set from block 0, its chain id, gas limit and coinbase. */
export function bastionChainParams(c: CancunBlockchainCase): unknown {
  const g = c.genesisBlockHeader;
  const chainId = c.blocks.flatMap((b) => b.transactions ?? []).find((t) => t.chainId !== undefined)?.chainId ?? '0x01';
  return {
    params: { fork: BASTION_NETWORKS[c.network], chainID: chainId },
    sealEngine: 'NoProof',
    genesis: {
      author: g.coinbase,
      // Cancun headers carry difficulty 0; an ETC chain's genesis needs the minimum difficulty.
      difficulty: quantity(g.difficulty!) < 0x20000n ? '0x020000' : g.difficulty,
      gasLimit: g.gasLimit,
      extraData: '0x00',
      timestamp: g.timestamp,
      nonce: '0x0000000000000000',
      mixHash: `0x${'00'.repeat(32)}`,
    },
    accounts: c.pre,
  };
}

/** Replays the case; returns what the comparison left out (for the runner's output). */
export async function runBastionCase(rpc: RpcClient, c: CancunBlockchainCase): Promise<string[]> {
  expectEqual('test_setChainParams', await rpc.call('test_setChainParams', [bastionChainParams(c)]), true);
  const ignored = new Set<string>([BEACON_ROOTS]);
  for (const [i, block] of c.blocks.entries()) {
    const header = block.blockHeader!;
    const which = `block ${i + 1}`;
    ignored.add(header.coinbase!.toLowerCase());
    const baseFee = quantity(header.baseFeePerGas ?? '0x0');
    const hashes: string[] = [];
    for (const [j, tx] of (block.transactions ?? []).entries()) {
      try {
        hashes.push(await submit(rpc, tx, baseFee));
      } catch (err) {
        throw new Difference(`${which} transaction ${j} refused by the node: ${(err as Error).message}`);
      }
    }
    await rpc.call('miner_setEtherbase', [header.coinbase]);
    await rpc.call('test_modifyTimestamp', [Number(quantity(header.timestamp!))]);
    await rpc.call('test_mineBlocks', [1]);
    const mined = await rpc.call<RpcBlock>('eth_getBlockByNumber', ['latest', false]);
    // What the EVM reads of the block (NUMBER, TIMESTAMP, GASLIMIT, COINBASE) as the vector's block had it.
    expectEqual(`${which} number`, quantity(mined.number), quantity(header.number!));
    expectEqual(`${which} timestamp`, quantity(mined.timestamp), quantity(header.timestamp!));
    expectEqual(`${which} gas limit`, quantity(mined.gasLimit), quantity(header.gasLimit!));
    expectEqual(`${which} coinbase`, mined.miner, header.coinbase, (a, b) => sameBytes(a as string, b as string));
    // Same transactions, in the vector's order (the pool may not reorder what the vector ran in sequence).
    expectEqual(`${which} transactions`, mined.transactions.join(','), hashes.join(','), (a, b) =>
      sameBytes(a as string, b as string),
    );
  }
  const head = await rpc.call<RpcBlock>('eth_getBlockByNumber', ['latest', false]);
  await checkPostState(rpc, quantity(head.number), c.postState!, ignored);
  const named = (a: string) => Object.keys({ ...c.pre, ...c.postState }).some((k) => k.toLowerCase() === a);
  return [...ignored]
    .filter((a) => a !== BEACON_ROOTS || named(a))
    .map((a) =>
      a === BEACON_ROOTS ? `beacon roots ${a} (EIP-4788 system call)` : `coinbase ${a} (fee market, block reward)`,
    );
}

async function submit(rpc: RpcClient, tx: VectorTransaction, baseFee: bigint): Promise<string> {
  const type = quantity(tx.type ?? '0x0');
  if (type === 0n || type === 1n) return rpc.call<string>('eth_sendRawTransaction', [rawOf(tx, type)]);
  if (type !== 2n) throw new Difference(`transaction type ${type}: only types 0, 1 and 2 are replayed`);
  const tip = quantity(tx.maxPriorityFeePerGas!);
  const cap = quantity(tx.maxFeePerGas!);
  const gasPrice = baseFee + tip < cap ? baseFee + tip : cap;
  return rpc.call<string>('eth_sendUnsignedTransaction', [
    {
      from: tx.sender,
      type: '0x0',
      nonce: toQuantity(quantity(tx.nonce)),
      gas: toQuantity(quantity(tx.gasLimit)),
      gasPrice: toQuantity(gasPrice),
      ...(tx.to === '' ? {} : { to: tx.to }),
      value: toQuantity(quantity(tx.value)),
      input: tx.data,
      chainId: toQuantity(quantity(tx.chainId ?? '0x01')),
    },
  ]);
}

/** The signed transaction's bytes, rebuilt from the vector's fields (BlockchainTests give no txbytes). */
function rawOf(tx: VectorTransaction, type: bigint): string {
  const n = (h: string) => bigIntToUnpaddedBytes(quantity(h));
  const b = (h: string) => hexToBytes((h === '' ? '0x' : h) as Hex);
  const sig = [n(tx.v), n(tx.r), n(tx.s)];
  if (type === 0n) {
    return bytesToHex(
      RLP.encode([n(tx.nonce), n(tx.gasPrice!), n(tx.gasLimit), b(tx.to), n(tx.value), b(tx.data), ...sig]),
    );
  }
  const accessList = (tx.accessList ?? []).map((e) => [b(e.address), e.storageKeys.map(b)]);
  const body = RLP.encode([
    n(tx.chainId ?? '0x01'),
    n(tx.nonce),
    n(tx.gasPrice!),
    n(tx.gasLimit),
    b(tx.to),
    n(tx.value),
    b(tx.data),
    accessList,
    ...sig,
  ] as never);
  return bytesToHex(Uint8Array.from([1, ...body]));
}
