/**
 * anvil_reorg, as Anvil takes it: [depth, [[tx, blockOffset], …]]. A tx is signed bytes (hex) or a transaction
 * request, which is filled and signed here with the next nonce of its sender at the common ancestor (counting the
 * requests before it); blockOffset 0 is the first block of the new branch and must stay below depth.
 */
import type { AnvilReorgParams, AnvilReorgResult, TransactionRequest } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { ReorgDepthError, type ReplacementTx } from '../../chain/index.js';
import { engineOf } from '../block-ref.js';
import { deadlineOf } from '../eth/call-request.js';
import { fillTransaction } from '../eth/transaction-request.js';
import { bytesFromHex, hexFromBytes, toQuantity } from '../hex.js';
import { accountCall, accountsOf } from '../personal/accounts.js';
import { quantityParam } from '../test-quantity.js';
import { controlsOf } from './controls.js';
import { impersonatingSigner } from './impersonation.js';

export async function anvil_reorg([depth, pairs]: AnvilReorgParams, ctx: HandlerContext): Promise<AnvilReorgResult> {
  const n = quantityParam(depth, 'anvil_reorg', 'depth');
  const offsets = pairs.map(([, offset]) => quantityParam(offset, 'anvil_reorg', 'blockOffset'));
  const beyond = offsets.find((o) => o >= n);
  if (beyond !== undefined)
    throw invalidParams(
      `Block number for reorg tx will exceed the reorged chain height. Block number ${beyond} must not exceed (depth-1) ${n - 1n}`,
    );
  const controls = controlsOf(ctx, 'anvil_reorg');
  try {
    await controls.reorg(n, async (ancestor) => {
      const blocks: ReplacementTx[][] = [];
      const nonces = new Map<string, bigint>();
      // Requests take their nonces in block order, as Anvil sorts them.
      const order = pairs.map((pair, i) => ({ tx: pair[0], offset: Number(offsets[i]) }));
      order.sort((a, b) => a.offset - b.offset);
      for (const { tx, offset } of order) {
        (blocks[offset] ??= []).push(
          typeof tx === 'string' ? bytesFromHex(tx) : await signed(tx, ancestor, nonces, ctx),
        );
      }
      return blocks;
    });
  } catch (err) {
    if (err instanceof ReorgDepthError) throw invalidParams(err.message);
    throw err;
  }
  return null;
}

/** A request filled and signed as eth_sendTransaction's, from the first dev account when `from` is absent. */
async function signed(
  request: Omit<TransactionRequest, 'from'> & { readonly from?: string },
  ancestor: bigint,
  nonces: Map<string, bigint>,
  ctx: HandlerContext,
) {
  const engine = engineOf(ctx);
  const accounts = accountsOf(ctx);
  const fromHex = request.from ?? hexFromBytes((await accounts.list())[0]!);
  const from = bytesFromHex(fromHex);
  const key = fromHex.toLowerCase();
  let nonce = nonces.get(key);
  if (nonce === undefined) {
    const state = await engine.chain.stateAt(ancestor);
    nonce = state === undefined ? 0n : await state.getNonce(from);
  }
  nonces.set(key, nonce + 1n);
  const filled = { ...request, from: fromHex, nonce: toQuantity(nonce) } as TransactionRequest;
  const fields = await fillTransaction(engine, filled, { method: 'anvil_reorg', ...deadlineOf(ctx) });
  const signer =
    impersonatingSigner(ctx, from, () => accounts.isUnlocked(from)) ??
    (await accountCall(() => accounts.signerFor(from)));
  return accountCall(() => signer.signTransaction(fields, engine.chain.txCommonAt(ancestor + 1n)));
}
