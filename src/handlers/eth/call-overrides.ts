/**
 * eth_call / eth_estimateGas (and debug_traceCall) overrides in geth's wire shapes → the engine's `CallOverrides`
 * (src/chain/exec/overrides.ts). `state` and `stateDiff` for one account contradict each other: -32602, as geth.
 */
import type { CallOverrides, AccountOverride, BlockEnvOverrides } from '../../chain/index.js';
import type { BlockOverrides, StateOverrides } from '../../generated/types.js';
import { invalidParams } from '../../rpc/errors.js';
import { bytesFromHex, fromQuantity } from '../hex.js';

type Slots = Record<string, string | undefined>;

const slotsOf = (slots: Slots): Map<string, Uint8Array> =>
  new Map(
    Object.entries(slots).flatMap(([slot, value]) =>
      value === undefined ? [] : [[slot.slice(2).toLowerCase(), bytesFromHex(value)] as const],
    ),
  );

function accountOverrideOf(address: string, o: NonNullable<StateOverrides[string]>): AccountOverride {
  if (o.state !== undefined && o.stateDiff !== undefined) {
    throw invalidParams(`invalid params: account ${address} has both state and stateDiff overrides; give one of them`);
  }
  return {
    ...(o.balance !== undefined ? { balance: fromQuantity(o.balance) } : {}),
    ...(o.nonce !== undefined ? { nonce: fromQuantity(o.nonce) } : {}),
    ...(o.code !== undefined ? { code: bytesFromHex(o.code) } : {}),
    ...(o.state !== undefined ? { state: slotsOf(o.state) } : {}),
    ...(o.stateDiff !== undefined ? { stateDiff: slotsOf(o.stateDiff) } : {}),
  };
}

function blockEnvOf(b: BlockOverrides): BlockEnvOverrides {
  return {
    ...(b.number !== undefined ? { number: fromQuantity(b.number) } : {}),
    ...(b.time !== undefined ? { timestamp: fromQuantity(b.time) } : {}),
    ...(b.gasLimit !== undefined ? { gasLimit: fromQuantity(b.gasLimit) } : {}),
    ...(b.coinbase !== undefined ? { coinbase: bytesFromHex(b.coinbase) } : {}),
    ...(b.difficulty !== undefined ? { difficulty: fromQuantity(b.difficulty) } : {}),
    ...(b.random !== undefined ? { random: bytesFromHex(b.random) } : {}),
    ...(b.baseFee !== undefined ? { baseFee: fromQuantity(b.baseFee) } : {}),
  };
}

/** The engine's overrides, or undefined when neither is given. */
export function callOverridesOf(
  state: StateOverrides | undefined,
  block: BlockOverrides | undefined,
): CallOverrides | undefined {
  if (state === undefined && block === undefined) return undefined;
  return {
    ...(state !== undefined
      ? {
          state: Object.entries(state).flatMap(([address, o]) =>
            o === undefined ? [] : [[bytesFromHex(address), accountOverrideOf(address.toLowerCase(), o)] as const],
          ),
        }
      : {}),
    ...(block !== undefined ? { block: blockEnvOf(block) } : {}),
  };
}

/** The balance `overrides` gives `address`, if any (the affordability checks read it before the call runs). */
export function overriddenBalance(overrides: CallOverrides | undefined, address: Uint8Array): bigint | undefined {
  const hex = Buffer.from(address).toString('hex');
  for (const [a, o] of overrides?.state ?? []) {
    if (Buffer.from(a).toString('hex') === hex && o.balance !== undefined) return o.balance;
  }
  return undefined;
}
