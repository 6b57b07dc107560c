/**
 * anvil_dumpState / anvil_loadState in Anvil's own format: hex of gzip(JSON) with `accounts` (address → nonce,
 * balance, code, storage), `block` and `best_block_number`. The state trie is keyed by hashes, so a dump lists the
 * accounts and slots the node can name (debug dumps' address book, slots 0 … 4095, every address and slot an
 * anvil edit named, and every one written since the node started: chain/state/written-keys.ts); loading sets each listed account in the head's state in place, as an anvil edit does.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { RLP } from '@ethereumjs/rlp';
import { Address, bytesToBigInt, bytesToHex, createAccountFromRLP, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import {
  type StateEdit,
  keccak256,
  accountTrieOf,
  storageTrieOf,
  trieRange,
  preimageBookOf,
} from '../../chain/index.js';
import type { AnvilDumpStateResult, AnvilLoadStateParams, AnvilLoadStateResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { bytesFromHex, hexFromBytes, toQuantity } from '../hex.js';
import { controlsOf } from './controls.js';

const PAGE = 1000;
const FIXED_SLOTS = 4096n;

interface DumpedAccount {
  nonce: number;
  balance: string;
  code: string;
  storage: Record<string, string>;
}

const slotKey = (slot: bigint): Uint8Array => setLengthLeft(hexToBytes(`0x${slot.toString(16).padStart(2, '0')}`), 32);

export async function anvil_dumpState(_params: [], ctx: HandlerContext): Promise<AnvilDumpStateResult> {
  const controls = controlsOf(ctx, 'anvil_dumpState');
  const { engine } = controls;
  const book = await preimageBookOf(engine);
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
  const opened = state;
  const accounts: Record<string, DumpedAccount> = {};
  for (let start: Uint8Array | undefined = new Uint8Array(32); start !== undefined; ) {
    const page = await trieRange(accountTrieOf(opened.stateManager), start, PAGE);
    for (const { key, value } of page.entries) {
      const address = book.addressOf(key) ?? editedNames.get(bytesToHex(key));
      if (address === undefined) continue;
      const account = createAccountFromRLP(value);
      const code = await opened.stateManager.getCode(new Address(address));
      const storage: Record<string, string> = {};
      const trie = await storageTrieOf(opened.stateManager, address);
      for (let s: Uint8Array | undefined = new Uint8Array(32); s !== undefined; ) {
        const slots = await trieRange(trie, s, PAGE);
        for (const entry of slots.entries) {
          const slot = slotNames.get(bytesToHex(entry.key));
          if (slot === undefined) continue;
          storage[hexFromBytes(slotKey(slot))] = hexFromBytes(setLengthLeft(RLP.decode(entry.value) as Uint8Array, 32));
        }
        s = slots.next;
      }
      accounts[hexFromBytes(address)] = {
        nonce: Number(account.nonce),
        balance: toQuantity(account.balance),
        code: hexFromBytes(code),
        storage,
      };
    }
    start = page.next;
  }
  const dump = {
    block: {
      number: toQuantity(head.header.number),
      beneficiary: hexFromBytes(head.header.coinbase.bytes),
      timestamp: toQuantity(head.header.timestamp),
      gas_limit: Number(head.header.gasLimit),
      difficulty: toQuantity(head.header.difficulty),
    },
    accounts,
    best_block_number: Number(head.header.number),
  };
  return hexFromBytes(gzipSync(Buffer.from(JSON.stringify(dump))));
}

/** Sets every account of the dump (gzip or plain JSON, as Anvil writes and reads it) in place, as one edit. */
export async function anvil_loadState(
  [state]: AnvilLoadStateParams,
  ctx: HandlerContext,
): Promise<AnvilLoadStateResult> {
  const controls = controlsOf(ctx, 'anvil_loadState');
  const edits = editsOfDump(bytesFromHex(state));
  await controls.edit(edits);
  return true;
}

function editsOfDump(bytes: Uint8Array): StateEdit[] {
  let parsed: { accounts?: Record<string, Partial<DumpedAccount>> };
  try {
    const text =
      bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString('utf8') : Buffer.from(bytes).toString('utf8');
    parsed = JSON.parse(text);
  } catch (err) {
    throw invalidParams(`invalid params for anvil_loadState: not an Anvil state dump (${(err as Error).message})`);
  }
  if (typeof parsed?.accounts !== 'object' || parsed.accounts === null)
    throw invalidParams('invalid params for anvil_loadState: the dump has no "accounts" object');
  const edits: StateEdit[] = [];
  try {
    for (const [addressHex, account] of Object.entries(parsed.accounts)) {
      const address = hexToBytes(addressHex as `0x${string}`);
      if (address.length !== 20) throw new Error(`${addressHex} is no address`);
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
    throw invalidParams(`invalid params for anvil_loadState: ${(err as Error).message}`);
  }
  return edits;
}
