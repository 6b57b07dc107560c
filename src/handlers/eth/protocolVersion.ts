import type { EthProtocolVersionParams, EthProtocolVersionResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';

/** The eth wire protocol version this node speaks: eth/68, as "0x" + hex (what the reference node reports). */
export function eth_protocolVersion(_params: EthProtocolVersionParams, _ctx: HandlerContext): EthProtocolVersionResult {
  return '0x44';
}
