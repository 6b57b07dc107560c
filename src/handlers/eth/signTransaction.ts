import type { EthSignTransactionParams, EthSignTransactionResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { formatTransaction } from '../format/index.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';
import { accountCall, accountsOf } from '../personal/accounts.js';
import { deadlineOf } from './call-request.js';
import { fillTransaction } from './transaction-request.js';

/**
 * Signs a legacy EIP-155 transaction with an unlocked account and returns it without sending it: geth's
 * {raw, tx}. Absent fields are filled as eth_sendTransaction fills them; the same refusals apply (locked account
 * -32000, an EIP-1559 request -32003 saying to send type 0).
 */
export async function eth_signTransaction(
  [request]: EthSignTransactionParams,
  ctx: HandlerContext,
): Promise<EthSignTransactionResult> {
  const engine = engineOf(ctx);
  const accounts = accountsOf(ctx);
  const from = bytesFromHex(request.from);
  const signer = await accountCall(() => accounts.signerFor(from));
  const fields = await fillTransaction(engine, request, { method: 'eth_signTransaction', ...deadlineOf(ctx) });
  const head = engine.chain.getHead().header.number;
  const tx = await accountCall(() => signer.signTransaction(fields, engine.chain.txCommonAt(head + 1n)));
  return { raw: hexFromBytes(tx.serialize()), tx: formatTransaction(tx, from) };
}
