/**
 * eth_sendRawTransactionSync (EIP-7966) as Anvil answers it: eth_sendRawTransaction, then the receipt once the
 * transaction's block is the head, waiting at most the request's timeout (ms) capped by network.rpc.send-sync-timeout;
 * past it, error 4 with the transaction hash (the transaction stays in the pool).
 */
import type { Receipt } from '../../generated/types.js';
import type { EthSendRawTransactionSyncParams, EthSendRawTransactionSyncResult } from '../../generated/types.js';
import type { ChainEngine } from '../../chain/index.js';
import type { HandlerContext } from '../../rpc/context.js';
import { RpcError } from '../../rpc/errors.js';
import { engineOf } from '../block-ref.js';
import { firstLogIndexOf, formatReceipt } from '../format/index.js';
import { bytesFromHex, fromQuantity } from '../hex.js';
import { submitToPool } from './submit-to-pool.js';
import { findMined } from './transactions.js';

/** EIP-7966's code for "added to the pool, not mined within the timeout". */
const CONFIRMATION_TIMEOUT = 4;

export async function eth_sendRawTransactionSync(
  [raw, timeout]: EthSendRawTransactionSyncParams,
  ctx: HandlerContext,
): Promise<EthSendRawTransactionSyncResult> {
  const engine = engineOf(ctx);
  const limit = ctx.node.config.rpc.call.sendSyncTimeoutMs;
  const asked = timeout === undefined ? 0 : Number(typeof timeout === 'number' ? timeout : fromQuantity(timeout));
  // As Anvil and the EIP: no wait, 0 or more than the node allows means the node's limit.
  const waitMs = asked > 0 && asked < limit ? asked : limit;
  // The batch deferral of eth_sendRawTransaction does not apply: this answer is the receipt, so it waits here.
  const hash = await submitToPool(engine, bytesFromHex(raw));
  const receipt = await receiptWithin(engine, hash, waitMs);
  if (receipt === undefined) {
    throw new RpcError(
      CONFIRMATION_TIMEOUT,
      `Transaction confirmation timeout: ${hash} is in the pool but was not mined within ${waitMs} ms`,
      hash,
    );
  }
  return receipt;
}

async function receiptOf(engine: ChainEngine, hash: string): Promise<Receipt | undefined> {
  const mined = await findMined(engine, hash);
  if (mined === undefined) return undefined;
  const { index } = mined.at;
  return formatReceipt(mined.receipts[index], mined.tx, mined.at, firstLogIndexOf(mined.receipts, index));
}

/** The receipt once a new head carries it, or undefined after `waitMs`. */
async function receiptWithin(engine: ChainEngine, hash: string, waitMs: number): Promise<Receipt | undefined> {
  const now = await receiptOf(engine, hash);
  if (now !== undefined) return now;
  return new Promise<Receipt | undefined>((resolve, reject) => {
    let checking = Promise.resolve();
    const done = (receipt: Receipt | undefined) => {
      clearTimeout(timer);
      engine.chain.off('newHead', onHead);
      resolve(receipt);
    };
    const onHead = () => {
      checking = checking
        .then(() => receiptOf(engine, hash))
        .then((receipt) => {
          if (receipt !== undefined) done(receipt);
        })
        .catch((err: unknown) => {
          clearTimeout(timer);
          engine.chain.off('newHead', onHead);
          reject(err);
        });
    };
    const timer = setTimeout(() => done(undefined), waitMs);
    engine.chain.on('newHead', onHead);
    // A head that moved between the first look and the listener.
    onHead();
  });
}
