/**
 * Anvil as the reference node for the tracing tests and bench: the real binary from @foundry-rs/anvil on a free
 * loopback port, with the dev chain's mnemonic and chain id, hardfork Shanghai (the EVM closest to ETC Spiral:
 * PUSH0, warm coinbase, initcode limit, EIP-3529 refunds, SELFDESTRUCT still deleting; its extra, BASEFEE, is never
 * used here) and base fee 0, so a legacy transaction's fee all goes to the coinbase as on ETC.
 */
import { type AnvilNode, startAnvil as startAnvilNode } from '../helpers/anvil-node.js';

export const ANVIL_HARDFORK = 'shanghai';

export type AnvilProcess = AnvilNode;

/** With struct logs on (Anvil returns none without `--steps-tracing`) and base fee 0. */
export function startAnvil(): Promise<AnvilProcess> {
  return startAnvilNode({
    hardfork: ANVIL_HARDFORK,
    args: ['--block-base-fee-per-gas', '0', '--gas-limit', '30000000', '--steps-tracing'],
  });
}
