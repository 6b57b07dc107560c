/**
 * A public-network node whose RPC port faces other machines without authentication, serving namespaces that sign,
 * spend, inspect or edit (the ones `network.rpc.auth.protected` guards by default). The defaults never do this
 * (127.0.0.1, eth/web3/net); a configuration that does is allowed, as geth allows it, but said out loud at start:
 * on mordor and etc the keys in the keystore and the node's peers are real. The dev chain's keys are public anyway.
 */
import { namespaces } from '../generated/registry.js';
import type { NodeConfig } from './config.js';
import { DEFAULT_PROTECTED } from './settings/auth.js';

const LOOPBACK = /^(127\.|::1$|localhost$)/i;

/** What the start-up warning says; undefined when the RPC port is loopback-only, authenticated, or on dev. */
export function rpcExposure(config: NodeConfig): { address: string; namespaces: string[] } | undefined {
  const address = config.rpc.http.interface;
  if (config.network === 'dev' || config.rpc.auth.enabled || LOOPBACK.test(address)) return undefined;
  const guarded = new Set(DEFAULT_PROTECTED.filter((name) => (namespaces as readonly string[]).includes(name)));
  const open = config.rpc.apis.filter((ns) => guarded.has(ns));
  return open.length > 0 ? { address, namespaces: open } : undefined;
}
