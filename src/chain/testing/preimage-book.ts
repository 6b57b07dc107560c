/**
 * keccak256(address) → address, for the debug dumps: the state trie is keyed by the hash, and without the
 * address a dump cannot say which account it found. The book learns every address the node can see: the genesis
 * allocation, coinbases, transaction senders and recipients, created contracts (top-level and, by CREATE address
 * derivation, internal), log emitters, addresses pushed by contract code or passed in call data, and the
 * precompiles. An account reached only another way (a CREATE2 address, an address computed at run time) stays
 * unnamed: the dump then still lists its hash.
 */
import type { Block } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex } from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';
import type { ChainEngine } from '../engine/engine.js';
import type { AddressPreimages } from '../engine/engine-memo.js';
import type { TxReceipt } from '../codec/receipts.js';
import type { StateView } from '../state/state-reader.js';

const PUSH20 = 0x73;
const PUSH1 = 0x60;
const PUSH32 = 0x7f;
/** Precompiles through Berlin (1 … 9). */
const PRECOMPILES = 9;
/** CREATE addresses derived per contract at most (a contract's nonce counts its creations). */
const MAX_DERIVED_CREATES = 1024n;
/** `follow` reads at most this many past blocks: debug dumps serve test and dev chains, not a synced mainnet. */
const MAX_HISTORY_SCAN = 10_000n;

export class PreimageBook {
  private readonly byHash = new Map<string, Uint8Array>();
  /** Contracts whose CREATE addresses were derived, with the nonce they were derived up to. */
  private readonly derivedUpTo = new Map<string, bigint>();
  private readonly scannedCode = new Set<string>();

  constructor() {
    for (let i = 1; i <= PRECOMPILES; i++) {
      const address = new Uint8Array(20);
      address[19] = i;
      this.add(address);
    }
  }

  add(address: Uint8Array): void {
    if (address.length !== 20) return;
    const key = bytesToHex(keccak256(address));
    if (!this.byHash.has(key)) this.byHash.set(key, Uint8Array.from(address));
  }

  /** The address whose keccak256 is `hash`, if the book has seen it. */
  addressOf(hash: Uint8Array): Uint8Array | undefined {
    return this.byHash.get(bytesToHex(hash));
  }

  get size(): number {
    return this.byHash.size;
  }

  /** Addresses a block shows; `state` (the block's post-state) lets the book follow contract creations. */
  async recordBlock(
    block: Block,
    receipts: readonly TxReceipt[] | undefined,
    state: StateView | undefined,
  ): Promise<void> {
    const seen: Uint8Array[] = [block.header.coinbase.bytes, ...block.uncleHeaders.map((u) => u.coinbase.bytes)];
    for (const tx of block.transactions) {
      seen.push(tx.getSenderAddress().bytes);
      if (tx.to !== undefined) seen.push(tx.to.bytes);
      for (const word of addressLikeWords(tx.data)) seen.push(word);
    }
    for (const r of receipts ?? []) {
      if (r.contractAddress !== undefined) seen.push(r.contractAddress);
      for (const log of r.logs) seen.push(log.address);
    }
    for (const a of seen) this.add(a);
    if (state !== undefined) await this.followContracts(seen, state);
  }

  /** Contract code names addresses it calls (PUSH20) and its nonce counts the contracts it created. */
  async followContracts(addresses: readonly Uint8Array[], state: StateView): Promise<void> {
    const queue = [...addresses];
    while (queue.length > 0) {
      const address = queue.pop()!;
      const key = bytesToHex(address);
      const code = await state.getCode(address);
      if (code.length === 0) continue;
      const codeKey = bytesToHex(keccak256(code));
      if (!this.scannedCode.has(codeKey)) {
        this.scannedCode.add(codeKey);
        for (const pushed of pushed20(code)) {
          this.add(pushed);
          queue.push(pushed);
        }
      }
      const nonce = await state.getNonce(address);
      const from = this.derivedUpTo.get(key) ?? 0n;
      const to = nonce < MAX_DERIVED_CREATES ? nonce : MAX_DERIVED_CREATES;
      for (let n = from; n <= to; n++) {
        const created = createAddress(address, n);
        this.add(created);
        queue.push(created);
      }
      this.derivedUpTo.set(key, to + 1n);
    }
  }

  /** Genesis allocation and every canonical block so far; then each new head as it comes. */
  static async follow(engine: ChainEngine): Promise<PreimageBook> {
    const book = new PreimageBook();
    const alloc = await engine.network.loadAlloc();
    for (const account of alloc) book.add(account.address);
    const chain = engine.chain;
    const genesisState = await chain.stateAt(0n);
    if (genesisState !== undefined)
      await book.followContracts(
        alloc.map((a) => a.address),
        genesisState,
      );
    const record = async (block: Block) => {
      await book.recordBlock(block, await chain.getReceipts(block.hash()), await chain.stateAt(block.hash()));
    };
    const head = chain.getHead().header.number;
    for (let n = head > MAX_HISTORY_SCAN ? head - MAX_HISTORY_SCAN : 1n; n <= head; n++) {
      const block = await chain.getBlock(n);
      if (block !== undefined) await record(block);
    }
    chain.on('newHead', (block) => void record(block).catch(() => undefined));
    return book;
  }
}

/** The engine's one book (kept in its memo), made on first use and kept current from then on. */
export function preimageBookOf(engine: ChainEngine): Promise<AddressPreimages> {
  engine.memo.preimages ??= PreimageBook.follow(engine);
  return engine.memo.preimages;
}

/** Slots 0 … 4095 cover the fixed slots contracts use; a mapping's entries have no preimage here. */
const FIXED_SLOTS = 4096;
/** keccak256(slot) → slot for the fixed slots: the same for every engine, so built once per process. */
let fixedSlots: ReadonlyMap<string, Uint8Array> | undefined;

/** The fixed slot (0 … 4095) whose keccak256 is `hash`, if it is one. */
export function fixedSlotOf(hash: Uint8Array): Uint8Array | undefined {
  if (fixedSlots === undefined) {
    const table = new Map<string, Uint8Array>();
    for (let i = 0; i < FIXED_SLOTS; i++) {
      const slot = new Uint8Array(32);
      slot[30] = i >> 8;
      slot[31] = i & 0xff;
      table.set(bytesToHex(keccak256(slot)), slot);
    }
    fixedSlots = table;
  }
  return fixedSlots.get(bytesToHex(hash));
}

/** keccak256(rlp([sender, nonce]))[12:]: the address CREATE gives. */
export function createAddress(sender: Uint8Array, nonce: bigint): Uint8Array {
  return keccak256(RLP.encode([sender, nonce])).subarray(12);
}

/** Operands of PUSH20 instructions (skipping other push data). */
function* pushed20(code: Uint8Array): Generator<Uint8Array> {
  for (let pc = 0; pc < code.length; pc++) {
    const op = code[pc];
    if (op >= PUSH1 && op <= PUSH32) {
      const size = op - PUSH1 + 1;
      if (op === PUSH20 && pc + 20 < code.length) yield code.subarray(pc + 1, pc + 21);
      pc += size;
    }
  }
}

/** 32-byte ABI words of call data that look like addresses (12 zero bytes, then 20 bytes not all zero). */
function* addressLikeWords(data: Uint8Array): Generator<Uint8Array> {
  for (let at = data.length % 32 === 4 ? 4 : 0; at + 32 <= data.length; at += 32) {
    const word = data.subarray(at, at + 32);
    if (word.subarray(0, 12).every((b) => b === 0) && !word.subarray(12).every((b) => b === 0)) yield word.subarray(12);
  }
}
