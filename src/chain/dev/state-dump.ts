/**
 * The dev chain's state as Anvil writes it (anvil_dumpState, `anvil --dump-state`): `accounts` (address → nonce,
 * balance, code, storage), `block` and `best_block_number`, as JSON. One format for the RPC methods and the state
 * file. The state trie is keyed by hashes, so a dump lists the accounts and slots the node can name (debug dumps'
 * address book, slots 0 … 4095, every address and slot an edit named, and every one written since the node started:
 * chain/state/written-keys.ts). Loading sets each listed account in the head's state in place, as an anvil edit does.
 */
import { gunzipSync } from 'node:zlib';
import type { Block } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { Address, bytesToBigInt, bytesToHex, createAccountFromRLP, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';
import type { AddressPreimages } from '../engine/engine-memo.js';
import { accountTrieOf, storageTrieOf, trieRange } from '../state/trie-range.js';
import type { DevControls } from './dev-controls.js';
import type { StateEdit } from './state-edits.js';

const PAGE = 1000;
const FIXED_SLOTS = 4096n;

export interface DumpedAccount {
  nonce: number;
  balance: string;
  code: string;
  storage: Record<string, string>;
}

export interface DevStateDump {
  block: { number: string; beneficiary: string; timestamp: string; gas_limit: number; difficulty: string };
  accounts: Record<string, DumpedAccount>;
  best_block_number: number;
  /**
   * The head block's header alone: Anvil's --load-state looks up its best block number among the dump's blocks and
   * refuses a dump without it. No transactions: a restarted chain keeps its state and number, not its history.
   */
  blocks: { header: Record<string, string>; transactions: []; ommers: [] }[];
}

/** A dump that cannot be read as one: `reason` says what is wrong with it. */
export class StateDumpError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'StateDumpError';
  }
}

const quantity = (n: bigint): string => `0x${n.toString(16)}`;
const slotKey = (slot: bigint): Uint8Array => setLengthLeft(hexToBytes(`0x${slot.toString(16).padStart(2, '0')}`), 32);

/** The head's state, every account and slot the node can name (`book`: the engine's address preimages). */
export async function dumpDevState(controls: DevControls, book: AddressPreimages): Promise<DevStateDump> {
  const { engine } = controls;
  // Addresses only an edit or a write named: the dump names them, the engine's book stays what the chain shows.
  const editedNames = new Map<string, Uint8Array>();
  const nameAddress = (address: Uint8Array) => editedNames.set(bytesToHex(keccak256(address)), address);
  const slotNames = new Map<string, bigint>();
  const nameSlot = (slot: bigint) => slotNames.set(bytesToHex(keccak256(slotKey(slot))), slot);
  for (let i = 0n; i < FIXED_SLOTS; i++) nameSlot(i);
  for (const [address, slots] of controls.edited) {
    nameAddress(hexToBytes(address as `0x${string}`));
    for (const slot of slots) nameSlot(slot);
  }
  const written = engine.chain.writtenKeys;
  for (const address of written?.allAddresses() ?? []) nameAddress(address);
  for (const slot of written?.allSlots() ?? []) slotNames.set(bytesToHex(keccak256(slot)), bytesToBigInt(slot));
  const head = engine.chain.getHead();
  const state = (await engine.chain.stateAt(head.hash()))!;
  const accounts: Record<string, DumpedAccount> = {};
  for (let start: Uint8Array | undefined = new Uint8Array(32); start !== undefined; ) {
    const page = await trieRange(accountTrieOf(state.stateManager), start, PAGE);
    for (const { key, value } of page.entries) {
      const address = book.addressOf(key) ?? editedNames.get(bytesToHex(key));
      if (address === undefined) continue;
      const account = createAccountFromRLP(value);
      const code = await state.stateManager.getCode(new Address(address));
      const storage: Record<string, string> = {};
      const trie = await storageTrieOf(state.stateManager, address);
      for (let s: Uint8Array | undefined = new Uint8Array(32); s !== undefined; ) {
        const slots = await trieRange(trie, s, PAGE);
        for (const entry of slots.entries) {
          const slot = slotNames.get(bytesToHex(entry.key));
          if (slot === undefined) continue;
          storage[bytesToHex(slotKey(slot))] = bytesToHex(setLengthLeft(RLP.decode(entry.value) as Uint8Array, 32));
        }
        s = slots.next;
      }
      accounts[bytesToHex(address)] = {
        nonce: Number(account.nonce),
        balance: quantity(account.balance),
        code: bytesToHex(code),
        storage,
      };
    }
    start = page.next;
  }
  return {
    block: {
      number: quantity(head.header.number),
      beneficiary: bytesToHex(head.header.coinbase.bytes),
      timestamp: quantity(head.header.timestamp),
      gas_limit: Number(head.header.gasLimit),
      difficulty: quantity(head.header.difficulty),
    },
    accounts,
    best_block_number: Number(head.header.number),
    blocks: [{ header: headerJson(head.header), transactions: [], ommers: [] }],
  };
}

/** The header as Anvil's dump writes one (the JSON-RPC block's header fields). */
function headerJson(h: Block['header']): Record<string, string> {
  return {
    parentHash: bytesToHex(h.parentHash),
    sha3Uncles: bytesToHex(h.uncleHash),
    miner: bytesToHex(h.coinbase.bytes),
    stateRoot: bytesToHex(h.stateRoot),
    transactionsRoot: bytesToHex(h.transactionsTrie),
    receiptsRoot: bytesToHex(h.receiptTrie),
    logsBloom: bytesToHex(h.logsBloom),
    difficulty: quantity(h.difficulty),
    number: quantity(h.number),
    gasLimit: quantity(h.gasLimit),
    gasUsed: quantity(h.gasUsed),
    timestamp: quantity(h.timestamp),
    extraData: bytesToHex(h.extraData),
    mixHash: bytesToHex(h.mixHash),
    nonce: bytesToHex(h.nonce),
  };
}

/** A dump as Anvil writes and reads it: JSON, or gzip of it; a `StateDumpError` saying what is wrong otherwise. */
export function parseDevStateDump(bytes: Uint8Array): {
  accounts: Record<string, Partial<DumpedAccount>>;
  best?: bigint;
} {
  let parsed: { accounts?: unknown; best_block_number?: unknown };
  try {
    const text =
      bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString('utf8') : Buffer.from(bytes).toString('utf8');
    parsed = JSON.parse(text);
  } catch (err) {
    throw new StateDumpError(`not an Anvil state dump (${(err as Error).message})`);
  }
  if (typeof parsed?.accounts !== 'object' || parsed.accounts === null)
    throw new StateDumpError('the dump has no "accounts" object');
  const best = parsed.best_block_number;
  if (best !== undefined && !(typeof best === 'number' && Number.isSafeInteger(best) && best >= 0))
    throw new StateDumpError(`best_block_number is no block number: ${JSON.stringify(best)}`);
  return {
    accounts: parsed.accounts as Record<string, Partial<DumpedAccount>>,
    ...(best !== undefined ? { best: BigInt(best) } : {}),
  };
}

/** The edits setting every account of the dump; a `StateDumpError` naming the first entry that is no account. */
export function editsOfDump(accounts: Record<string, Partial<DumpedAccount>>): StateEdit[] {
  const edits: StateEdit[] = [];
  let at = '';
  try {
    for (const [addressHex, account] of Object.entries(accounts)) {
      at = addressHex;
      const address = hexToBytes(addressHex as `0x${string}`);
      if (address.length !== 20) throw new Error('no address');
      if (account.balance !== undefined) edits.push({ kind: 'balance', address, balance: BigInt(account.balance) });
      if (account.nonce !== undefined) edits.push({ kind: 'nonce', address, nonce: BigInt(account.nonce) });
      if (account.code !== undefined)
        edits.push({ kind: 'code', address, code: hexToBytes(account.code as `0x${string}`) });
      for (const [slot, value] of Object.entries(account.storage ?? {}))
        edits.push({
          kind: 'storage',
          address,
          slot: BigInt(slot),
          value: setLengthLeft(hexToBytes(value as `0x${string}`), 32),
        });
    }
  } catch (err) {
    throw new StateDumpError(`account ${at}: ${(err as Error).message}`);
  }
  return edits;
}

/**
 * Loads a dump into the head's state. `restoreHeight`: first seal empty blocks up to its best block number, so a
 * chain restarted from the file goes on from the number it stopped at (`--state`; the methods leave the chain be).
 */
export async function loadDevState(controls: DevControls, bytes: Uint8Array, restoreHeight = false): Promise<void> {
  const { accounts, best } = parseDevStateDump(bytes);
  const edits = editsOfDump(accounts);
  const head = controls.engine.chain.getHead().header.number;
  if (restoreHeight && best !== undefined && best > head) await controls.mine(Number(best - head));
  await controls.edit(edits);
}
