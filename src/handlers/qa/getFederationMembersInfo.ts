import type { QaGetFederationMembersInfoParams, QaGetFederationMembersInfoResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { hexFromBytes } from '../hex.js';

/** The federation's public keys; empty where checkpointing is off (as the original, whose key list was then empty). */
export function qa_getFederationMembersInfo(
  _params: QaGetFederationMembersInfoParams,
  ctx: HandlerContext,
): QaGetFederationMembersInfoResult {
  const federation = engineOf(ctx).chain.federation;
  return { membersPublicKeys: (federation?.publicKeys ?? []).map((key) => hexFromBytes(key)) };
}
