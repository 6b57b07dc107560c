/**
 * eth_sendTransaction / personal_sendTransaction: a TransactionRequest becomes a signed legacy EIP-155
 * transaction in the pool. Absent fields are filled as the schema says: nonce = the sender's next nonce
 * counting its pooled transactions, gasPrice = eth_gasPrice's suggestion, gas = eth_estimateGas's answer.
 */
import type { AccountSigner } from '../../chain/accounts/index.js';
import type { UnsignedLegacyTx } from '../../chain/accounts/index.js';
import type { ChainEngine } from '../../chain/engine.js';
import type { TransactionRequest } from '../../generated/types.js';
import type { HandlerContext } from '../context.js';
import { ErrorCode, RpcError, invalidParams } from '../../server/errors.js';
import { pendingNonce } from '../block-ref.js';
import { bytesFromHex, fromQuantity } from '../hex.js';
import { accountCall } from '../personal/accounts.js';
import { payloadOf } from './call-request.js';
import { estimateGas } from './estimateGas.js';
import { suggestGasPrice } from './gasPrice.js';
import { submitToPool } from './submit-to-pool.js';

/** Fills, signs and pools `request` with `signer` (whose address must be `request.from`); returns the hash. */
export function signAndSubmit(
  engine: ChainEngine,
  signer: AccountSigner,
  request: TransactionRequest,
  afterBatch?: HandlerContext['afterBatch'],
): Promise<`0x${string}`> {
  // One fill-sign-submit per sender at a time: two concurrent requests must not both take the same nonce.
  return senderLock.run(request.from.toLowerCase(), async () => {
    const fields = await fillTransaction(engine, request);
    const head = engine.chain.getHead().header.number;
    const tx = await accountCall(() => signer.signTransaction(fields, engine.chain.txCommonAt(head + 1n)));
    return submitToPool(engine, tx, afterBatch);
  });
}

export async function fillTransaction(engine: ChainEngine, request: TransactionRequest): Promise<UnsignedLegacyTx> {
  if (request.chainId !== undefined && fromQuantity(request.chainId) !== engine.definition.chainId) {
    throw new RpcError(
      ErrorCode.TransactionRejected,
      `invalid chain id: the request is for chain id ${fromQuantity(request.chainId)}, this network is chain id ${engine.definition.chainId}`,
    );
  }
  if (request.gas !== undefined && request.gasLimit !== undefined && fromQuantity(request.gas) !== fromQuantity(request.gasLimit)) {
    throw invalidParams('both "gas" and "gasLimit" are set and not equal; send one of them');
  }
  const from = bytesFromHex(request.from);
  const to = request.to === undefined || request.to === null ? undefined : bytesFromHex(request.to);
  const data = payloadOf(request);
  const value = request.value === undefined ? 0n : fromQuantity(request.value);
  const gasPrice = request.gasPrice === undefined ? await suggestGasPrice(engine) : fromQuantity(request.gasPrice);
  const nonce = request.nonce === undefined ? await nextNonce(engine, request.from, from) : fromQuantity(request.nonce);
  const given = request.gas ?? request.gasLimit;
  const gasLimit =
    given !== undefined
      ? fromQuantity(given)
      : await estimateGas(engine, engine.chain.getHead(), {
          from,
          ...(to !== undefined ? { to } : {}),
          ...(data !== undefined ? { data } : {}),
          value,
          gasPrice,
        });
  return { nonce, gasPrice, gasLimit, ...(to !== undefined ? { to } : {}), value, ...(data !== undefined ? { data } : {}) };
}

async function nextNonce(engine: ChainEngine, addressHex: string, address: Uint8Array): Promise<bigint> {
  const pooled = pendingNonce(engine, addressHex);
  if (pooled !== undefined) return pooled;
  const state = await engine.chain.stateAt('latest');
  return state === undefined ? 0n : state.getNonce(address);
}

/** Runs jobs with the same key one after another. */
class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(job, job);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}

const senderLock = new KeyedLock();
