/**
 * Replays ethereum/tests BlockchainTests (Cancun and Shanghai cases) on an ETC rule set at the EVM level and
 * compares the post-state account by account.
 *
 * A Cancun block carries a base fee, withdrawals and blob fields, so an ETC chain (15-field PoW headers) refuses the
 * block before any transaction runs. What Bastion takes from Cancun is the EVM, so each block's transactions run on
 * the rule set's Common through @ethereumjs/vm's runTx, in order, on one state. The conformance runner's Bastion
 * mode (conformance/bastion-chain.ts) does the same through a node's RPC; this harness can also take a precompile
 * out, for the cases that keep a contract at 0x…0100 (the runner skips those).
 * Differences that are fee market or consensus, not EVM, are left out of the comparison and nothing else:
 * - the coinbase (Cancun burns the base fee and pays no block reward; ETC pays the whole gas price and a reward);
 * - EIP-4788's beacon-roots contract (a system call ETC does not have).
 * A type-2 transaction runs as an access-list transaction at its effective gas price (what its sender pays either
 * way), since Bastion refuses type 2 (no EIP-1559).
 */
import type { Common } from '@ethereumjs/common';
import { createBlock } from '@ethereumjs/block';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { createAccessList2930Tx } from '@ethereumjs/tx';
import {
  type Address,
  bytesToHex,
  createAccount,
  createAddressFromString,
  hexToBytes,
  setLengthLeft,
  unpadBytes,
} from '@ethereumjs/util';
import { createVM, runTx } from '@ethereumjs/vm';

type Hex = `0x${string}`;
interface JsonAccount {
  readonly nonce: Hex;
  readonly balance: Hex;
  readonly code: Hex;
  readonly storage: Readonly<Record<Hex, Hex>>;
}
interface JsonTx {
  readonly type?: Hex;
  readonly nonce: Hex;
  readonly gasPrice?: Hex;
  readonly maxFeePerGas?: Hex;
  readonly maxPriorityFeePerGas?: Hex;
  readonly gasLimit: Hex;
  readonly to: Hex | '';
  readonly value: Hex;
  readonly data: Hex;
  readonly accessList?: ReadonlyArray<{ address: Hex; storageKeys: Hex[] }>;
  readonly sender: Hex;
}
interface JsonBlock {
  readonly blockHeader?: Record<string, Hex>;
  readonly transactions?: readonly JsonTx[];
  readonly expectException?: string;
}
export interface BlockchainCase {
  readonly network: string;
  readonly pre: Readonly<Record<Hex, JsonAccount>>;
  readonly postState: Readonly<Record<Hex, JsonAccount>>;
  readonly blocks: readonly JsonBlock[];
}

const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';

const big = (h: Hex | undefined) => (h === undefined || h === '0x' ? 0n : BigInt(h));
const slot = (h: Hex) => bytesToHex(setLengthLeft(hexToBytes(h), 32));

/** What the case's post-state shows for the accounts we compare: address → a canonical text. */
function describeJson(account: JsonAccount | undefined): string {
  if (account === undefined) return 'absent';
  const storage = Object.entries(account.storage)
    .filter(([, v]) => big(v) !== 0n)
    .map(([k, v]) => `${slot(k as Hex)}=${big(v).toString(16)}`)
    .sort();
  return `nonce=${big(account.nonce)} balance=${big(account.balance)} code=${account.code.toLowerCase()} storage=${storage.join(',')}`;
}

/**
 * The same text for the state: the slots the case names are read back, and the trie's count of non-zero slots
 * must equal theirs (so no slot the case leaves out was written).
 */
async function describeState(
  state: MerkleStateManager,
  address: Address,
  expected: JsonAccount | undefined,
): Promise<string> {
  const account = await state.getAccount(address);
  if (account === undefined) return 'absent';
  const code = bytesToHex(await state.getCode(address));
  const storage: string[] = [];
  for (const k of Object.keys(expected?.storage ?? {})) {
    const v = await state.getStorage(address, hexToBytes(slot(k as Hex)));
    if (v.length > 0 && big(bytesToHex(v)) !== 0n) storage.push(`${slot(k as Hex)}=${big(bytesToHex(v)).toString(16)}`);
  }
  const written = Object.keys(await state.dumpStorage(address)).length;
  const named = storage.length;
  const extra = written === named ? '' : ` (+${written - named} slots the case does not name)`;
  return `nonce=${account.nonce} balance=${account.balance} code=${code} storage=${storage.sort().join(',')}${extra}`;
}

export interface CaseResult {
  readonly ok: boolean;
  /** The first account that differs, expected vs actual. */
  readonly diff?: string;
}

/**
 * Runs one case on `common` (the ETC rule set under test). `withoutPrecompiles`: addresses whose precompile is
 * taken out, for cases that keep a contract there.
 */
export async function runBlockchainCase(
  c: BlockchainCase,
  common: Common,
  withoutPrecompiles: readonly bigint[] = [],
): Promise<CaseResult> {
  const state = new MerkleStateManager({ common });
  const customPrecompiles = withoutPrecompiles.map((a) => ({
    address: `0x${a.toString(16).padStart(40, '0')}` as Hex,
  }));
  const vm = await createVM({ common, stateManager: state, evmOpts: { customPrecompiles } });
  for (const [addr, a] of Object.entries(c.pre)) {
    const address = createAddressFromString(addr);
    await state.putAccount(address, createAccount({ nonce: big(a.nonce), balance: big(a.balance) }));
    if (a.code !== '0x') await state.putCode(address, hexToBytes(a.code));
    for (const [k, v] of Object.entries(a.storage)) {
      if (big(v) !== 0n) await state.putStorage(address, hexToBytes(slot(k as Hex)), unpadBytes(hexToBytes(v)));
    }
  }
  let coinbase = '';
  for (const b of c.blocks) {
    if (b.expectException !== undefined || b.blockHeader === undefined) continue;
    const h = b.blockHeader;
    coinbase = h.coinbase!.toLowerCase();
    const block = createBlock(
      {
        header: {
          number: big(h.number),
          timestamp: big(h.timestamp),
          coinbase: h.coinbase,
          gasLimit: big(h.gasLimit),
          difficulty: big(h.difficulty),
          mixHash: h.mixHash,
        },
      },
      { common },
    );
    const baseFee = big(h.baseFeePerGas);
    for (const t of b.transactions ?? []) {
      const gasPrice =
        t.gasPrice !== undefined
          ? big(t.gasPrice)
          : baseFee + big(t.maxPriorityFeePerGas) < big(t.maxFeePerGas)
            ? baseFee + big(t.maxPriorityFeePerGas)
            : big(t.maxFeePerGas);
      const tx = createAccessList2930Tx(
        {
          nonce: big(t.nonce),
          gasPrice,
          gasLimit: big(t.gasLimit),
          ...(t.to === '' ? {} : { to: t.to }),
          value: big(t.value),
          data: t.data,
          accessList: (t.accessList ?? []).map((e) => ({ address: e.address, storageKeys: e.storageKeys })),
        },
        { common, freeze: false },
      );
      const sender = createAddressFromString(t.sender);
      // The vectors' signatures are for Ethereum's chain id: keep the sender they name.
      Object.defineProperty(tx, 'getSenderAddress', { value: () => sender });
      await runTx(vm, { tx, block, skipHardForkValidation: true, skipBlockGasLimitValidation: true });
    }
  }
  const addresses = new Set([...Object.keys(c.pre), ...Object.keys(c.postState)].map((a) => a.toLowerCase()));
  const post = new Map(Object.entries(c.postState).map(([a, v]) => [a.toLowerCase(), v]));
  for (const addr of [...addresses].sort()) {
    if (addr === coinbase || addr === BEACON_ROOTS) continue;
    const expected = describeJson(post.get(addr));
    const actual = await describeState(state, createAddressFromString(addr), post.get(addr));
    if (expected !== actual) return { ok: false, diff: `${addr}: expected ${expected}, got ${actual}` };
  }
  return { ok: true };
}
