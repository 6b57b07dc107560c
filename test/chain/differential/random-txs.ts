/**
 * A seeded generator of transactions for the funded dev accounts: value transfers (to accounts, to fresh addresses,
 * to contracts and precompiles), calls into the churn contracts (programs.ts) that set and clear slots, log, revert,
 * run out of gas, hit INVALID, call each other every way, CREATE/CREATE2 and SELFDESTRUCT; contract creations; legacy
 * and EIP-2930 transactions. The same seed gives the same transactions; it also makes messages for eth_call.
 */
import { createAccessList2930Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import type { Common } from '@ethereumjs/common';
import { Address, bytesToHex, createContractAddress, hexToBytes } from '@ethereumjs/util';
import { DEV_ACCOUNTS } from '../../../src/chain/networks/index.js';
import { ACTIONS, churnInit, INIT_CODES } from './programs.js';

/** mulberry32: small, fast and seedable. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const SENDERS = 8;
const KEYS = DEV_ACCOUNTS.slice(0, SENDERS).map((a) => hexToBytes(a.privateKey as `0x${string}`));
export const SENDER_ADDRESSES = DEV_ACCOUNTS.slice(0, SENDERS).map((a) =>
  hexToBytes(a.address.toLowerCase() as `0x${string}`),
);
const GWEI = 10n ** 9n;

const word = (v: bigint): Uint8Array => hexToBytes(`0x${v.toString(16).padStart(64, '0')}` as `0x${string}`);
const addressWord = (a: Uint8Array): bigint => BigInt(bytesToHex(a));

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A churn contract's calldata: action, a, b, payload. */
export const churnCall = (action: number, a: bigint, b: bigint, inner: Uint8Array = new Uint8Array(0)): Uint8Array =>
  concat([Uint8Array.of(action), word(a), word(b), inner]);

export class TxGenerator {
  readonly random: () => number;
  private readonly nonces = new Array<bigint>(SENDERS).fill(0n);
  /** Churn contracts deployed by top-level creations (their addresses follow from sender and nonce). */
  readonly contracts: Uint8Array[] = [];
  /** Fresh addresses that have been paid (so later transactions revisit them). */
  private readonly fresh: Uint8Array[] = [];
  private deployed = 0;

  constructor(seed: number) {
    this.random = rng(seed);
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)]!;
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  private int(max: number): number {
    return Math.floor(this.random() * max);
  }

  private freshAddress(): Uint8Array {
    if (this.fresh.length > 0 && this.chance(0.4)) return this.pick(this.fresh);
    const a = new Uint8Array(20);
    for (let i = 0; i < 20; i++) a[i] = this.int(256);
    this.fresh.push(a);
    return a;
  }

  private precompile(): Uint8Array {
    const a = new Uint8Array(20);
    a[19] = 1 + this.int(9);
    return a;
  }

  /** Anything a call or a beneficiary may name. */
  private target(): Uint8Array {
    const r = this.random();
    if (r < 0.55 && this.contracts.length > 0) return this.pick(this.contracts);
    if (r < 0.7) return this.pick(SENDER_ADDRESSES);
    if (r < 0.9) return this.freshAddress();
    return this.precompile();
  }

  private smallValue(): bigint {
    return this.chance(0.6) ? 0n : BigInt(1 + this.int(1_000_000));
  }

  /**
   * A churn contract's calldata, nesting calls up to `depth`. `bounded`: nothing that burns all the gas it is given
   * (a call without a gas figure gets the block's 30 M).
   */
  payload(depth = 0, bounded = false): Uint8Array {
    let action = this.chance(0.03) ? ACTIONS + this.int(20) : this.int(ACTIONS);
    if (bounded && action === 3) action = 1;
    const slot = () => BigInt(this.int(8));
    const value = () => (this.chance(0.3) ? 0n : this.chance(0.5) ? BigInt(1 + this.int(100)) : 2n ** 255n + 1n);
    switch (action) {
      case 0:
      case 2:
      case 4:
        return churnCall(action, slot(), value());
      case 1:
      case 14:
        return churnCall(action, slot(), 0n);
      case 5:
      case 6:
      case 7:
      case 13: {
        const callee = this.target();
        const inner = depth < 2 && this.chance(0.8) ? this.payload(depth + 1, bounded) : new Uint8Array(this.int(3));
        return churnCall(action, addressWord(callee), this.smallValue(), inner);
      }
      case 8:
      case 9:
        return churnCall(action, BigInt(this.int(4)), this.smallValue(), this.initCode(bounded));
      case 10:
        return churnCall(action, addressWord(this.chance(0.1) ? new Uint8Array(20) : this.target()), 0n);
      case 11:
        return churnCall(action, BigInt(1 + this.int(12)), this.chance(0.4) ? 0n : BigInt(1 + this.int(5)));
      case 12:
        return churnCall(action, addressWord(this.target()), 0n);
      default:
        return churnCall(action, 0n, 0n);
    }
  }

  private initCode(bounded = false): Uint8Array {
    const choices = bounded ? INIT_CODES.filter((c) => c.name !== 'init out of gas') : INIT_CODES;
    return this.pick(choices).code;
  }

  /** The next sender's transaction; `common` is the chain's transaction Common for the block it goes into. */
  next(common: Common): TypedTransaction {
    // The first three transactions deploy churn contracts, so every block after the first has targets.
    const from = this.deployed < 3 ? 0 : this.int(SENDERS);
    const nonce = this.nonces[from]!;
    this.nonces[from] = nonce + 1n;
    const r = this.random();
    let to: Uint8Array | undefined;
    let data: Uint8Array = new Uint8Array(0);
    let value = 0n;
    let gasLimit: bigint;
    if (r < 0.12) {
      to = this.pick(SENDER_ADDRESSES);
      value = BigInt(this.int(10 ** 9));
      gasLimit = 21_000n;
    } else if (r < 0.22) {
      to = this.freshAddress();
      value = this.chance(0.15) ? 0n : BigInt(1 + this.int(10 ** 9));
      gasLimit = 21_000n;
    } else if (r < 0.26) {
      to = this.chance(0.5) && this.contracts.length > 0 ? this.pick(this.contracts) : this.precompile();
      value = BigInt(this.int(1000));
      gasLimit = 60_000n;
    } else if (r < 0.34 || this.deployed < 3) {
      const first = this.deployed < 3;
      this.deployed++;
      const init = first || this.chance(0.4) ? churnInit : this.pick(INIT_CODES).code;
      data = init;
      value = first ? 0n : this.smallValue();
      // A churn deployment needs ~250k; the other init codes get less, since one of them spins until its gas is gone.
      gasLimit = first
        ? 1_000_000n
        : init === churnInit
          ? this.pick([120_000n, 400_000n])
          : this.pick([60_000n, 150_000n]);
      if (init === churnInit && gasLimit >= 400_000n) {
        this.contracts.push(createContractAddress(new Address(SENDER_ADDRESSES[from]!), nonce).bytes);
      }
    } else {
      to = this.pick(this.contracts);
      data = this.payload();
      value = this.smallValue();
      gasLimit = this.pick([30_000n, 80_000n, 150_000n, 250_000n]);
    }
    const gasPrice = BigInt(1 + this.int(3)) * GWEI;
    const fields = { nonce, to, data, value, gasLimit, gasPrice };
    const key = KEYS[from]!;
    if (this.chance(0.2)) {
      const accessList = [
        ...(this.contracts.length > 0
          ? [{ address: bytesToHex(this.pick(this.contracts)), storageKeys: [bytesToHex(word(BigInt(this.int(8))))] }]
          : []),
        ...(this.chance(0.5) ? [{ address: bytesToHex(this.freshAddress()), storageKeys: [] }] : []),
      ];
      const tx = createAccessList2930Tx({ ...fields, accessList }, { common });
      const intrinsic = tx.getIntrinsicGas();
      const limit = gasLimit < intrinsic ? intrinsic : gasLimit;
      return createAccessList2930Tx({ ...fields, gasLimit: limit, accessList }, { common }).sign(key);
    }
    const tx = createLegacyTx(fields, { common });
    const intrinsic = tx.getIntrinsicGas();
    return (gasLimit < intrinsic ? createLegacyTx({ ...fields, gasLimit: intrinsic }, { common }) : tx).sign(key);
  }

  /** A message for eth_call: any sender (an account, a fresh one, a contract), any target, gas and value. */
  call(): { from?: Uint8Array; to?: Uint8Array; data?: Uint8Array; value?: bigint; gas?: bigint; gasPrice?: bigint } {
    const r = this.random();
    const from = this.chance(0.7)
      ? this.pick(SENDER_ADDRESSES)
      : this.chance(0.5)
        ? this.freshAddress()
        : this.contracts.length > 0
          ? this.pick(this.contracts)
          : undefined;
    const gas = this.chance(0.15) ? undefined : this.pick([100n, 21_000n, 25_000n, 60_000n, 150_000n, 400_000n]);
    const gasPrice = this.chance(0.7) ? undefined : BigInt(this.int(3)) * GWEI;
    const value = this.chance(0.7) ? undefined : BigInt(this.int(1000));
    const opt = {
      ...(from !== undefined ? { from } : {}),
      ...(gas !== undefined ? { gas } : {}),
      ...(gasPrice !== undefined ? { gasPrice } : {}),
      ...(value !== undefined ? { value } : {}),
    };
    const bounded = gas === undefined;
    if (r < 0.1) return { ...opt, data: this.initCode(bounded) };
    if (r < 0.2) return { ...opt, to: this.target() };
    const to = this.contracts.length > 0 ? this.pick(this.contracts) : this.target();
    // Clear the slots earlier blocks set: refunds, capped by each rule set's own quotient (EIP-3529 changed it).
    // From an account, with the block's gas: calls that run to the end, so the refund is what differs if anything.
    // To one of the first contracts, which exist from the first blocks on (every block's state gets calls).
    const { gas: _gas, ...runs } = { ...opt, from: this.pick(SENDER_ADDRESSES) };
    const early = this.contracts[this.int(Math.min(3, this.contracts.length))] ?? to;
    if (r < 0.3) return { ...runs, to: early, data: churnCall(11, 8n, 0n) };
    if (r < 0.5) return { ...runs, to: early, data: churnCall(14, BigInt(this.int(8)), 0n) };
    return { ...opt, to, data: this.payload(0, bounded) };
  }
}
