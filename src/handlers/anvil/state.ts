/** Direct state writes: each changes the head's state in place, as Anvil's do (chain/state/edited-roots.ts). */
import type {
  AnvilSetBalanceParams,
  AnvilSetBalanceResult,
  AnvilSetCodeParams,
  AnvilSetCodeResult,
  AnvilSetNonceParams,
  AnvilSetNonceResult,
  AnvilSetStorageAtParams,
  AnvilSetStorageAtResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex } from '../hex.js';
import { boundedParam, controlsOf } from './controls.js';

export async function anvil_setBalance(
  [address, balance]: AnvilSetBalanceParams,
  ctx: HandlerContext,
): Promise<AnvilSetBalanceResult> {
  const wei = boundedParam(balance, 'anvil_setBalance', 'balance', 256);
  await controlsOf(ctx, 'anvil_setBalance').edit([{ kind: 'balance', address: bytesFromHex(address), balance: wei }]);
  return null;
}

export async function anvil_setCode(
  [address, code]: AnvilSetCodeParams,
  ctx: HandlerContext,
): Promise<AnvilSetCodeResult> {
  await controlsOf(ctx, 'anvil_setCode').edit([
    { kind: 'code', address: bytesFromHex(address), code: bytesFromHex(code) },
  ]);
  return null;
}

export async function anvil_setNonce(
  [address, nonce]: AnvilSetNonceParams,
  ctx: HandlerContext,
): Promise<AnvilSetNonceResult> {
  const n = boundedParam(nonce, 'anvil_setNonce', 'nonce', 64);
  await controlsOf(ctx, 'anvil_setNonce').edit([{ kind: 'nonce', address: bytesFromHex(address), nonce: n }]);
  return null;
}

export async function anvil_setStorageAt(
  [address, slot, value]: AnvilSetStorageAtParams,
  ctx: HandlerContext,
): Promise<AnvilSetStorageAtResult> {
  const s = boundedParam(slot, 'anvil_setStorageAt', 'slot', 256);
  await controlsOf(ctx, 'anvil_setStorageAt').edit([
    { kind: 'storage', address: bytesFromHex(address), slot: s, value: bytesFromHex(value) },
  ]);
  return true;
}
