/**
 * geth's tracer answers → OpenEthereum's trace_* shapes, as core-geth serves them (eth/tracers/native/
 * call_parity.go and state_diff.go): the callTracer's frame tree becomes a flat list of traces in depth-first
 * order (action / result / subtraces / traceAddress / type), and the prestateTracer's diff ({pre, post}) becomes
 * a stateDiff of "=", "+", "-" and {"*": {from, to}} markers. Pure functions over JSON; no engine access.
 *
 * Gas of the top trace: `action.gas` is the gas the transaction's code starts with (limit − intrinsic gas) and
 * `result.gasUsed` the gas charged beyond the intrinsic gas. callTracer reports the receipt's gas (refunds
 * applied), so for a transaction that earns a refund the top `gasUsed` is lower than OpenEthereum's, which
 * counts before refunds; inner traces are the frames' own figures, as in OpenEthereum.
 */
import { type CallFrameJson, parityErrorOf } from '../../chain/index.js';
import type { ParityLocalizedTrace } from '../../generated/types.js';

type Hex = `0x${string}`;

export interface ParityAction {
  address?: string;
  author?: string;
  balance?: string;
  callType?: string;
  from?: string;
  gas?: string;
  init?: string;
  input?: string;
  refundAddress?: string;
  rewardType?: string;
  to?: string;
  value?: string;
}

export interface ParityResult {
  address?: string;
  code?: string;
  gasUsed?: string;
  output?: string;
}

/** One trace as trace_call / trace_replay* list it (no block or transaction fields). */
export interface ParityTrace {
  action: ParityAction;
  error?: string;
  result?: ParityResult | null;
  subtraces: number;
  traceAddress: number[];
  type: 'call' | 'create' | 'suicide' | 'reward';
}

/** A trace placed in the chain, as trace_block / trace_transaction / trace_get / trace_filter list it. */
export interface LocalizedTrace {
  action: ParityAction;
  blockHash: string;
  blockNumber: number;
  error?: string;
  result?: ParityResult | null;
  subtraces: number;
  traceAddress: number[];
  transactionHash: string | null;
  transactionPosition: number | null;
  type: ParityTrace['type'];
}

export interface FlattenOptions {
  /** Intrinsic gas of the transaction, taken off the top frame's gas and gas used. */
  readonly intrinsicGas: bigint;
  /** Whether `address` (0x-hex, lowercase) is a precompile: calls to one are left out, as core-geth does. */
  readonly isPrecompile: (address: string) => boolean;
}

const quantity = (v: bigint): Hex => `0x${v.toString(16)}`;

/** A callTracer tree as the flat list of OpenEthereum traces, parents before their children. */
export function flattenCallFrame(top: CallFrameJson, opts: FlattenOptions): ParityTrace[] {
  const out: ParityTrace[] = [];
  const root: CallFrameJson = {
    ...top,
    gas: quantity(clampSub(BigInt(top.gas), opts.intrinsicGas)),
    gasUsed: quantity(clampSub(BigInt(top.gasUsed), opts.intrinsicGas)),
  };
  visit(root, [], undefined, opts, out);
  return out;
}

const clampSub = (a: bigint, b: bigint): bigint => (a > b ? a - b : 0n);

function children(frame: CallFrameJson, opts: FlattenOptions): CallFrameJson[] {
  return (frame.calls ?? []).filter(
    (c) => !((c.type === 'CALL' || c.type === 'STATICCALL') && c.to !== undefined && opts.isPrecompile(c.to)),
  );
}

function visit(
  frame: CallFrameJson,
  traceAddress: number[],
  parentValue: string | undefined,
  opts: FlattenOptions,
  out: ParityTrace[],
): void {
  const kids = children(frame, opts);
  out.push(traceOf(frame, traceAddress, kids.length, parentValue));
  // DELEGATECALL carries the value of the frame it runs in when it has none of its own.
  const value = frame.value ?? '0x0';
  for (const [i, child] of kids.entries()) visit(child, [...traceAddress, i], value, opts, out);
}

function traceOf(
  frame: CallFrameJson,
  traceAddress: number[],
  subtraces: number,
  parentValue: string | undefined,
): ParityTrace {
  if (frame.type === 'SELFDESTRUCT') {
    return {
      action: { address: frame.from, balance: frame.value ?? '0x0', refundAddress: frame.to ?? frame.from },
      subtraces,
      traceAddress,
      type: 'suicide',
    };
  }
  const mapped = frame.error === undefined ? undefined : parityErrorOf(frame.error);
  const error = mapped ?? frame.error;
  const create = frame.type === 'CREATE' || frame.type === 'CREATE2';
  let action: ParityAction;
  let result: ParityResult | undefined;
  if (create) {
    action = { from: frame.from, gas: frame.gas, init: frame.input, value: frame.value ?? '0x0' };
    result =
      frame.error === undefined
        ? { address: frame.to, code: frame.output ?? '0x', gasUsed: frame.gasUsed }
        : { gasUsed: frame.gasUsed };
  } else {
    let value = frame.value ?? '0x0';
    if (frame.type === 'DELEGATECALL' && BigInt(value) === 0n && parentValue !== undefined) value = parentValue;
    action = {
      callType: frame.type.toLowerCase(),
      from: frame.from,
      gas: frame.gas,
      input: frame.input,
      to: frame.to,
      value,
    };
    result =
      frame.error === undefined ? { gasUsed: frame.gasUsed, output: frame.output ?? '0x' } : { gasUsed: frame.gasUsed };
  }
  return {
    action,
    ...(error !== undefined ? { error } : {}),
    // A failure OpenEthereum names has no result; other failures keep the gas they used (core-geth).
    ...(mapped === undefined ? { result } : {}),
    subtraces,
    traceAddress,
    type: create ? 'create' : 'call',
  };
}

/**
 * The converter's traces typed as the generated wire types: every string in them is 0x-hex copied from the
 * tracer's JSON or made by `quantity` (the result schema checks them under test).
 */
export const wire = (traces: readonly LocalizedTrace[]): ParityLocalizedTrace[] =>
  traces as unknown as ParityLocalizedTrace[];

/** Where a transaction's traces sit in the chain. */
export interface TracePlace {
  readonly blockHash: string;
  readonly blockNumber: bigint;
  readonly transactionHash: string | null;
  readonly transactionPosition: number | null;
}

export function localize(trace: ParityTrace, place: TracePlace): LocalizedTrace {
  return {
    action: trace.action,
    blockHash: place.blockHash,
    blockNumber: Number(place.blockNumber),
    ...(trace.error !== undefined ? { error: trace.error } : {}),
    ...(trace.result !== undefined ? { result: trace.result } : {}),
    subtraces: trace.subtraces,
    traceAddress: trace.traceAddress,
    transactionHash: place.transactionHash,
    transactionPosition: place.transactionPosition,
    type: trace.type,
  };
}

/** A block or uncle reward as core-geth lists it after the block's transaction traces. */
export function rewardTrace(
  author: string,
  value: bigint,
  rewardType: 'block' | 'uncle',
  place: Pick<TracePlace, 'blockHash' | 'blockNumber'>,
): LocalizedTrace {
  return {
    action: { author, rewardType, value: quantity(value) },
    blockHash: place.blockHash,
    blockNumber: Number(place.blockNumber),
    result: null,
    subtraces: 0,
    traceAddress: [],
    transactionHash: null,
    transactionPosition: null,
    type: 'reward',
  };
}

/** prestateTracer's account JSON (diffMode's pre and post entries). */
export interface PrestateAccount {
  balance?: string;
  code?: string;
  nonce?: number;
  storage?: Record<string, string>;
}

export interface PrestateDiff {
  readonly pre: Record<string, PrestateAccount>;
  readonly post: Record<string, PrestateAccount>;
}

type Marker<T> = '=' | { '+': T } | { '-': T } | { '*': { from: T; to: T } };

export interface AccountDiff {
  balance: Marker<string>;
  code: Marker<string>;
  nonce: Marker<string>;
  storage: Record<string, Marker<string>>;
}

const ZERO_WORD = `0x${'0'.repeat(64)}`;

const emptyAccount = (a: PrestateAccount | undefined): boolean =>
  a !== undefined &&
  BigInt(a.balance ?? '0x0') === 0n &&
  (a.nonce ?? 0) === 0 &&
  (a.code ?? '0x') === '0x' &&
  Object.keys(a.storage ?? {}).length === 0;

function changed<T>(from: T, to: T): Marker<T> {
  return from === to ? '=' : { '*': { from, to } };
}

/**
 * prestateTracer's diff as OpenEthereum's stateDiff. An account only in `post` was born, one only in `pre` died
 * (diffMode keeps deleted accounts out of `post`), one in both changed; `post` lists only the fields that
 * changed, and both sides leave out zero slots.
 */
export function stateDiffOf(diff: PrestateDiff): Record<string, AccountDiff> {
  const out: Record<string, AccountDiff> = {};
  const addresses = new Set([...Object.keys(diff.pre), ...Object.keys(diff.post)]);
  for (const address of addresses) {
    // An empty account (EIP-161: no balance, nonce or code) did not exist: one that receives value is born.
    const pre = emptyAccount(diff.pre[address]) ? undefined : diff.pre[address];
    const post = diff.post[address];
    if (pre === undefined && post !== undefined) {
      out[address] = {
        balance: { '+': post.balance ?? '0x0' },
        code: { '+': post.code ?? '0x' },
        nonce: { '+': quantity(BigInt(post.nonce ?? 0)) },
        storage: Object.fromEntries(Object.entries(post.storage ?? {}).map(([slot, v]) => [slot, { '+': v }])),
      };
    } else if (pre !== undefined && post === undefined) {
      out[address] = {
        balance: { '-': pre.balance ?? '0x0' },
        code: { '-': pre.code ?? '0x' },
        nonce: { '-': quantity(BigInt(pre.nonce ?? 0)) },
        storage: Object.fromEntries(Object.entries(pre.storage ?? {}).map(([slot, v]) => [slot, { '-': v }])),
      };
    } else if (pre !== undefined && post !== undefined) {
      const storage: Record<string, Marker<string>> = {};
      const slots = new Set([...Object.keys(pre.storage ?? {}), ...Object.keys(post.storage ?? {})]);
      for (const slot of slots) {
        const from = pre.storage?.[slot] ?? ZERO_WORD;
        const to = post.storage?.[slot] ?? ZERO_WORD;
        if (from !== to) storage[slot] = { '*': { from, to } };
      }
      const preBalance = pre.balance ?? '0x0';
      const preNonce = quantity(BigInt(pre.nonce ?? 0));
      const preCode = pre.code ?? '0x';
      out[address] = {
        balance: changed(preBalance, post.balance ?? preBalance),
        code: changed(preCode, post.code ?? preCode),
        nonce: changed(preNonce, post.nonce === undefined ? preNonce : quantity(BigInt(post.nonce))),
        storage,
      };
    }
  }
  return out;
}
