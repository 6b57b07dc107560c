/**
 * geth's `prestateTracer`: every account the transaction touched (sender, recipient, coinbase, and what its code
 * reached: BALANCE, EXTCODE*, calls, creations, SELFDESTRUCT) as it was before the transaction, with the storage
 * slots it read or wrote. `diffMode` answers `{post, pre}` instead: for each touched account that changed, the
 * changed fields after (`post`) and before (`pre`), unchanged slots and accounts left out, a new contract absent
 * from `pre`, a self-destructed one absent from `post`.
 */
import type { StateManagerInterface } from '@ethereumjs/common';
import {
  Address,
  bytesToHex,
  createContractAddress,
  createContractAddress2,
  equalsBytes,
  hexToBytes,
} from '@ethereumjs/util';
import { addressFromWord, memorySlice, wordBytes } from './hooks.js';
import { bytesToWord, hash32, hexBytes, quantity } from './json.js';
import type { StepInfo, Tracer, TxEnd, TxStart } from './types.js';
import { configFlag, registerTracer } from './registry.js';

export interface PrestateTracerConfig {
  readonly diffMode?: boolean;
}

interface AccountState {
  balance: bigint;
  nonce: bigint;
  code: Uint8Array;
  /** By slot hex (0x + 64): the value. */
  readonly storage: Map<string, bigint>;
}

export interface AccountJson {
  balance?: string;
  code?: string;
  nonce?: number;
  storage?: Record<string, string>;
}

const exists = (a: AccountState): boolean =>
  a.nonce > 0n || a.code.length > 0 || a.storage.size > 0 || a.balance !== 0n;

export class PrestateTracer implements Tracer {
  /** By address hex (0x + 40). */
  private readonly pre = new Map<string, AccountState>();
  private readonly post = new Map<string, AccountJson>();
  private readonly created = new Set<string>();
  private readonly deleted = new Set<string>();
  private createdTop: string | undefined;
  readonly asyncSteps = true;

  constructor(private readonly config: PrestateTracerConfig) {}

  async txStart(tx: TxStart): Promise<void> {
    await this.lookupAccount(tx.state, tx.from);
    if (tx.to !== undefined) await this.lookupAccount(tx.state, tx.to);
    else if (tx.created !== undefined) {
      await this.lookupAccount(tx.state, tx.created);
      this.createdTop = bytesToHex(tx.created);
      this.created.add(this.createdTop);
    }
    await this.lookupAccount(tx.state, tx.coinbase);
  }

  step(s: StepInfo): Promise<void> | undefined {
    const { stack, op } = s;
    const top = stack.length - 1;
    switch (op) {
      case 0x54: // SLOAD
      case 0x55: // SSTORE
        if (stack.length >= 1) return this.lookupStorage(s.state, s.address, stack[top]);
        return undefined;
      case 0x3c: // EXTCODECOPY
      case 0x3f: // EXTCODEHASH
      case 0x3b: // EXTCODESIZE
      case 0x31: // BALANCE
        if (stack.length >= 1) return this.lookupAccount(s.state, addressFromWord(stack[top]));
        return undefined;
      case 0xff: // SELFDESTRUCT
        if (stack.length < 1) return undefined;
        this.deleted.add(bytesToHex(s.address));
        return this.lookupAccount(s.state, addressFromWord(stack[top]));
      case 0xf1: // CALL
      case 0xf2: // CALLCODE
      case 0xf4: // DELEGATECALL
      case 0xfa: // STATICCALL
        if (stack.length >= 5) return this.lookupAccount(s.state, addressFromWord(stack[top - 1]));
        return undefined;
      case 0xf0: // CREATE
        return this.lookupCreated(s.state, s.address, undefined);
      case 0xf5: // CREATE2
        if (stack.length < 4) return undefined;
        return this.lookupCreated(s.state, s.address, {
          salt: wordBytes(stack[top - 3]),
          initCode: memorySlice(s.memory, stack[top - 1], stack[top - 2]),
        });
      default:
        return undefined;
    }
  }

  private async lookupCreated(
    state: StateManagerInterface,
    creator: Uint8Array,
    create2: { readonly salt: Uint8Array; readonly initCode: Uint8Array } | undefined,
  ): Promise<void> {
    const address =
      create2 === undefined
        ? createContractAddress(new Address(creator), (await state.getAccount(new Address(creator)))?.nonce ?? 0n).bytes
        : createContractAddress2(new Address(creator), create2.salt, create2.initCode).bytes;
    this.created.add(bytesToHex(address));
    await this.lookupAccount(state, address);
  }

  private async lookupAccount(state: StateManagerInterface, address: Uint8Array): Promise<void> {
    const key = bytesToHex(address);
    if (this.pre.has(key)) return;
    const entry = await readAccount(state, address);
    if (!this.pre.has(key)) this.pre.set(key, { ...entry, storage: new Map() });
  }

  private async lookupStorage(state: StateManagerInterface, address: Uint8Array, slot: bigint): Promise<void> {
    await this.lookupAccount(state, address);
    const account = this.pre.get(bytesToHex(address))!;
    const key = hash32(slot);
    if (account.storage.has(key)) return;
    const value = bytesToWord(await state.getStorage(new Address(address), wordBytes(slot)));
    if (!account.storage.has(key)) account.storage.set(key, value);
  }

  async txEnd(end: TxEnd): Promise<void> {
    if (this.config.diffMode !== true) {
      const top = this.createdTop === undefined ? undefined : this.pre.get(this.createdTop);
      if (top !== undefined && !exists(top)) this.pre.delete(this.createdTop!);
      return;
    }
    for (const [key, before] of this.pre) {
      if (this.deleted.has(key)) continue;
      const address = hexToBytes(key as `0x${string}`);
      const after = await readAccount(end.state, address);
      const changed: AccountJson = {};
      let modified = false;
      if (after.balance !== before.balance) {
        modified = true;
        changed.balance = quantity(after.balance);
      }
      if (after.nonce !== before.nonce) {
        modified = true;
        changed.nonce = Number(after.nonce);
      }
      if (!equalsBytes(after.code, before.code)) {
        modified = true;
        changed.code = hexBytes(after.code);
      }
      const storage: Record<string, string> = {};
      for (const [slot, value] of before.storage) {
        const now = bytesToWord(await end.state.getStorage(new Address(address), hexToBytes(slot as `0x${string}`)));
        if (value === 0n || now === value) before.storage.delete(slot);
        if (now !== value) {
          modified = true;
          if (now !== 0n) storage[slot] = hash32(now);
        }
      }
      if (Object.keys(storage).length > 0) changed.storage = storage;
      if (modified) this.post.set(key, changed);
      else this.pre.delete(key);
    }
    for (const key of this.created) {
      const s = this.pre.get(key);
      if (s !== undefined && !exists(s)) this.pre.delete(key);
    }
  }

  sizeEstimate(): number {
    let slots = 0;
    for (const a of this.pre.values()) slots += a.storage.size + a.code.length / 32;
    return this.pre.size * 200 + slots * 140;
  }

  result(): Record<string, AccountJson> | { post: Record<string, AccountJson>; pre: Record<string, AccountJson> } {
    const pre = Object.fromEntries([...this.pre].map(([k, a]) => [k, accountJson(a)]));
    if (this.config.diffMode !== true) return pre;
    return { post: Object.fromEntries(this.post), pre };
  }
}

async function readAccount(
  state: StateManagerInterface,
  address: Uint8Array,
): Promise<{ balance: bigint; nonce: bigint; code: Uint8Array }> {
  const a = new Address(address);
  const account = await state.getAccount(a);
  if (account === undefined) return { balance: 0n, nonce: 0n, code: new Uint8Array(0) };
  return { balance: account.balance, nonce: account.nonce, code: await state.getCode(a) };
}

function accountJson(a: AccountState): AccountJson {
  const out: AccountJson = { balance: quantity(a.balance) };
  if (a.code.length > 0) out.code = hexBytes(a.code);
  if (a.nonce > 0n) out.nonce = Number(a.nonce);
  if (a.storage.size > 0) {
    out.storage = Object.fromEntries([...a.storage].map(([slot, value]) => [slot, hash32(value)]));
  }
  return out;
}

registerTracer({
  name: 'prestateTracer',
  listed: true,
  config: {
    diffMode: {
      type: 'boolean',
      description: 'prestateTracer: {pre, post} of what changed instead of the touched state.',
    },
  },
  create: (config) => new PrestateTracer({ diffMode: configFlag(config, 'diffMode') }),
});
