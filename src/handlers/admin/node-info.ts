/**
 * admin_nodeInfo and admin_datadir. The node's `id` is geth's: keccak256 of the 64-byte public key (the enode's node
 * id is the key itself). protocols.eth carries the chain as core-geth reports it: network id, head total difficulty,
 * genesis and head hashes, and the chain config: the chain id and the block of each ETC upgrade this network schedules,
 * by its ECIP-1066 name (`atlantisBlock`, …, `spiralBlock`). Not the names of the Ethereum rule sets the EVM library
 * runs them on: `londonBlock` would tell a reader that EIP-1559 is on, which ETC never adopted.
 * Difficulties are hex quantities: ETC's total difficulty is past what a JSON number holds exactly in JavaScript.
 */
import { forksAhead, keccak256 } from '../../chain/index.js';
import type {
  AdminDatadirParams,
  AdminDatadirResult,
  AdminNodeInfoParams,
  AdminNodeInfoResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { hexFromBytes, toQuantity } from '../hex.js';
import { peersOf } from '../net/peer-service.js';

/** geth's node id: keccak256 of the public key, 64 hex digits without 0x. */
export const nodeHashOf = (publicKeyHex: string): string =>
  Buffer.from(keccak256(Buffer.from(publicKeyHex, 'hex'))).toString('hex');

export function admin_nodeInfo(_params: AdminNodeInfoParams, ctx: HandlerContext): AdminNodeInfoResult {
  const peers = peersOf(ctx);
  const engine = engineOf(ctx);
  const url = new URL(peers.enode);
  const head = engine.chain.getHead();
  const udpPort = peers.search().udpPort;
  const enr = peers.admin?.enr ?? null;
  // The engine's definition, not the named network's: it carries the operator's --override.<fork> blocks.
  const { definition } = engine;
  const { forks } = definition;
  const config: Record<string, number> = { chainId: Number(engine.chain.network.chainId) };
  for (const [name, block] of Object.entries(forks)) if (block !== null) config[`${name}Block`] = Number(block);
  return {
    id: nodeHashOf(url.username),
    name: ctx.node.clientVersion,
    enode: peers.enode,
    ...(enr !== null ? { enr } : {}),
    ip: url.hostname.replace(/^\[|\]$/g, ''),
    ports: { discovery: udpPort ?? 0, listener: peers.listenPort },
    listenAddr: `${url.hostname}:${peers.listenPort}`,
    protocols: {
      eth: {
        network: Number(ctx.node.network.netVersion),
        difficulty: toQuantity(engine.chain.getHeadTotalDifficulty()),
        genesis: hexFromBytes(engine.chain.getGenesis().hash()),
        head: hexFromBytes(head.hash()),
        config,
        forks: forksAhead(definition, head.header.number, ctx.node.config.forkOverrides).map((f) => ({
          name: f.fork,
          block: Number(f.block),
          override: f.overridden,
        })),
      },
    },
  };
}

/** The node's data directory, as configured (absolute or as given). */
export function admin_datadir(_params: AdminDatadirParams, ctx: HandlerContext): AdminDatadirResult {
  return ctx.node.config.datadir;
}
