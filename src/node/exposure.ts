/**
 * A public-network node whose RPC port faces other machines without authentication, serving namespaces that sign,
 * spend, inspect or edit (the ones `network.rpc.auth.protected` guards by default, and net's peer administration
 * when opened to all). The defaults never do this (127.0.0.1, eth/web3/net without peer administration); a configuration that does is allowed, as geth allows it, but said out loud at start:
 * on mordor and etc the keys in the keystore and the node's peers are real. The dev chain's keys are public anyway.
 */
import { namespaces } from '../generated/registry.js';
import type { NodeConfig } from './config.js';
import { DEFAULT_PROTECTED } from './settings/auth.js';

const LOOPBACK = /^(127\.|::1$|localhost$)/i;

export interface RpcExposure {
  readonly address: string;
  readonly namespaces: string[];
  /** Present when CORS lets every web page call the node: then even a loopback port is reached, by the browser. */
  readonly cors?: '*';
}

/** What the start-up warning says; undefined when the RPC port is loopback-only, authenticated, or on dev. */
export function rpcExposure(config: NodeConfig): RpcExposure | undefined {
  const address = config.rpc.http.interface;
  const anyPage = config.rpc.http.corsAllowedOrigins === '*';
  if (config.network === 'dev' || config.rpc.auth.enabled || (LOOPBACK.test(address) && !anyPage)) return undefined;
  const guarded = new Set(DEFAULT_PROTECTED.filter((name) => (namespaces as readonly string[]).includes(name)));
  const open: string[] = config.rpc.apis.filter((ns) => guarded.has(ns));
  // net is on by default; its peer administration only when opened to all (network.rpc.auth.anonymous-peer-admin).
  if (config.rpc.auth.anonymousPeerAdmin && config.rpc.apis.includes('net')) open.push('net (peer administration)');
  if (open.length === 0) return undefined;
  return { address, namespaces: open, ...(anyPage ? { cors: '*' as const } : {}) };
}
