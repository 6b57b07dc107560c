/**
 * eth_simulateV1's payload (execution-apis shapes) → the engine's simulated blocks. Each call is read as eth_call
 * reads its CallRequest (same refusals of blob and set-code fields, same chain id check); the block overrides a
 * proof-of-work chain without EIP-1559 cannot carry are refused by name.
 */
import type { SimulatedBlockInput, SimulatedCall } from '../../chain/index.js';
import type { BlockStateCall, CallRequest, SimulateBlockOverrides } from '../../generated/types.js';
import { ErrorCode, invalidParams } from '../../rpc/errors.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { bytesFromHex, fieldQuantity } from '../hex.js';
import { callOverridesOf } from './call-overrides.js';
import { checkChainId, payloadOf, refuseForeignFields } from './call-request.js';

const METHOD = 'eth_simulateV1';

/** Block overrides Ethereum Classic has no header field for, and why. */
const FOREIGN_OVERRIDES: Readonly<Record<string, string>> = {
  prevRandao: 'PREVRANDAO exists only after the merge; this chain is proof-of-work',
  baseFeePerGas: 'this chain has no base fee (EIP-1559 is not active)',
  blobBaseFee: 'this chain has no blob transactions (EIP-4844)',
};

/** A block's overrides as the engine's environment; `where` names them in refusals. */
export function simulatedEnvOf(o: SimulateBlockOverrides | undefined, where: string): SimulatedBlockInput['env'] {
  if (o === undefined) return undefined;
  for (const [field, why] of Object.entries(FOREIGN_OVERRIDES)) {
    if (o[field as keyof SimulateBlockOverrides] !== undefined) {
      throw invalidParams(`invalid params: ${where}.${field}: ${why}`);
    }
  }
  if ((o.withdrawals?.length ?? 0) > 0) {
    throw invalidParams(`invalid params: ${where}.withdrawals: this chain has no withdrawals (EIP-4895)`);
  }
  return {
    ...(o.number !== undefined ? { number: fieldQuantity(o.number, 64, 'number') } : {}),
    ...(o.time !== undefined ? { timestamp: fieldQuantity(o.time, 64, 'time') } : {}),
    ...(o.gasLimit !== undefined ? { gasLimit: fieldQuantity(o.gasLimit, 64, 'gasLimit') } : {}),
    ...(o.feeRecipient !== undefined ? { coinbase: bytesFromHex(o.feeRecipient) } : {}),
  };
}

function callOf(ctx: HandlerContext, request: CallRequest): SimulatedCall {
  refuseForeignFields(request, METHOD);
  checkChainId(engineOf(ctx), request, ErrorCode.InvalidParams);
  const data = payloadOf(request);
  const accessList = request.accessList ?? [];
  return {
    ...(request.from !== undefined ? { from: bytesFromHex(request.from) } : {}),
    ...(request.to !== undefined && request.to !== null ? { to: bytesFromHex(request.to) } : {}),
    ...(data !== undefined ? { data } : {}),
    ...(request.value !== undefined ? { value: fieldQuantity(request.value, 256, 'value') } : {}),
    ...(request.gas !== undefined ? { gas: fieldQuantity(request.gas, 64, 'gas') } : {}),
    ...(request.gasPrice !== undefined ? { gasPrice: fieldQuantity(request.gasPrice, 256, 'gasPrice') } : {}),
    ...(request.nonce !== undefined ? { nonce: fieldQuantity(request.nonce, 64, 'nonce') } : {}),
    ...(accessList.length > 0 ? { accessList } : {}),
  };
}

export function simulatedBlocksOf(ctx: HandlerContext, calls: readonly BlockStateCall[]): SimulatedBlockInput[] {
  return calls.map((b, index) => {
    const env = simulatedEnvOf(b.blockOverrides, `${METHOD} blockStateCalls[${index}].blockOverrides`);
    const state = callOverridesOf(b.stateOverrides, undefined)?.state;
    return {
      ...(env !== undefined ? { env } : {}),
      ...(state !== undefined ? { state } : {}),
      calls: (b.calls ?? []).map((c) => callOf(ctx, c)),
    };
  });
}
