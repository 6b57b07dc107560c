/**
 * eth_sendTransaction / personal_sendTransaction: a TransactionRequest becomes a signed legacy EIP-155
 * transaction in the pool. Absent fields are filled as the schema says: nonce = the sender's next nonce
 * counting its pooled transactions, gasPrice = eth_gasPrice's suggestion, gas = eth_estimateGas's answer.
 */
import {
  type AccountSigner,
  type UnsignedLegacyTx,
  type ChainEngine,
  FEE_MARKET_REFUSAL,
  KeyedLock,
  type CallMessage,
} from '../../chain/index.js';
import type { TransactionRequest } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { ErrorCode, RpcError, invalidParams } from '../../rpc/errors.js';
import { pendingNonce } from '../block-ref.js';
import { bytesFromHex, fieldQuantity, fromQuantity } from '../hex.js';
import { accountCall } from '../personal/accounts.js';
import { checkChainId, deadlineOf, payloadOf, refuseForeignFields } from './call-request.js';
import { estimateGas } from './estimateGas.js';
import { suggestGasPrice } from './gasPrice.js';
import { submitToPool } from './submit-to-pool.js';

/** Fills, signs and pools `request` with `signer` (whose address must be `request.from`); returns the hash. */
export function signAndSubmit(
  engine: ChainEngine,
  signer: AccountSigner,
  request: TransactionRequest,
  ctx: HandlerContext,
  method: string,
): Promise<`0x${string}`> {
  // One fill-sign-submit per sender at a time: two concurrent requests must not both take the same nonce.
  return senderLock.run(request.from.toLowerCase(), async () => {
    const fields = await fillTransaction(engine, request, { method, ...deadlineOf(ctx) });
    const head = engine.chain.getHead().header.number;
    const tx = await accountCall(() => signer.signTransaction(fields, engine.chain.txCommonAt(head + 1n)));
    return submitToPool(engine, tx, ctx.afterBatch);
  });
}

/** Whose request is filled (for the time-limit message) and the gas estimate's deadline (`deadlineOf`), if any. */
export interface FillOptions extends Pick<CallMessage, 'deadline'> {
  readonly method: string;
}

export async function fillTransaction(
  engine: ChainEngine,
  request: TransactionRequest,
  options: FillOptions,
): Promise<UnsignedLegacyTx> {
  checkChainId(engine, request, ErrorCode.TransactionRejected);
  refuseForeignFields(request);
  refuseUnsignableKinds(request);
  if (
    request.gas !== undefined &&
    request.gasLimit !== undefined &&
    fromQuantity(request.gas) !== fromQuantity(request.gasLimit)
  ) {
    throw invalidParams('both "gas" and "gasLimit" are set and not equal; send one of them');
  }
  const from = bytesFromHex(request.from);
  const to = request.to === undefined || request.to === null ? undefined : bytesFromHex(request.to);
  const data = payloadOf(request);
  const value = request.value === undefined ? 0n : fieldQuantity(request.value, 256, 'value');
  const gasPrice =
    request.gasPrice === undefined ? await suggestGasPrice(engine) : fieldQuantity(request.gasPrice, 256, 'gasPrice');
  const nonce =
    request.nonce === undefined
      ? await nextNonce(engine, request.from, from)
      : fieldQuantity(request.nonce, 64, 'nonce');
  const given = request.gas ?? request.gasLimit;
  // Absent: eth_estimateGas's answer, under the same time limit as eth_estimateGas itself.
  const { method, deadline } = options;
  const estimate = () => {
    const msg = { from, ...(to !== undefined ? { to } : {}), ...(data !== undefined ? { data } : {}), value, gasPrice };
    return estimateGas(
      engine,
      engine.chain.getHead(),
      { ...msg, ...(deadline !== undefined ? { deadline } : {}) },
      method,
    );
  };
  const gasLimit =
    given !== undefined ? fieldQuantity(given, 64, request.gas !== undefined ? 'gas' : 'gasLimit') : await estimate();
  return {
    nonce,
    gasPrice,
    gasLimit,
    ...(to !== undefined ? { to } : {}),
    value,
    ...(data !== undefined ? { data } : {}),
  };
}

/** What each typed-transaction number is, for the refusal message. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  '1': 'EIP-2930 (access list)',
  '3': 'EIP-4844 (blob), which Ethereum Classic does not have',
  '4': 'EIP-7702 (set code), which Ethereum Classic does not have',
};

/**
 * The node's keys sign legacy (EIP-155) transactions only. A request for another kind is refused with what to do
 * instead, rather than signed as something the caller did not ask for. An EIP-1559 request (type 2 or fee-market
 * fields) gets the refusal a signed type-2 transaction gets from the pool (-32003, how to send a legacy one), so a
 * wallet sees one answer whichever path it took.
 */
function refuseUnsignableKinds(request: TransactionRequest): void {
  const type = request.type === undefined ? 0n : BigInt(request.type);
  if (type === 2n || request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined) {
    throw new RpcError(ErrorCode.TransactionRejected, FEE_MARKET_REFUSAL);
  }
  if (type === 0n && (request.accessList?.length ?? 0) === 0) return;
  const kind = type === 0n ? 'EIP-2930 (access list)' : (TYPE_NAMES[type.toString()] ?? 'unknown');
  throw invalidParams(
    `invalid params: this node signs legacy transactions (type 0x0) only; the request is for type 0x${type === 0n ? '1' : type.toString(16)}, ${kind}. ` +
      'Sign it yourself and send it with eth_sendRawTransaction',
  );
}

async function nextNonce(engine: ChainEngine, addressHex: string, address: Uint8Array): Promise<bigint> {
  const pooled = pendingNonce(engine, addressHex);
  if (pooled !== undefined) return pooled;
  const state = await engine.chain.stateAt('latest');
  return state === undefined ? 0n : state.getNonce(address);
}

const senderLock = new KeyedLock();
