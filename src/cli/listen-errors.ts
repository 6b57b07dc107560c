/**
 * A listener that could not bind says which flag to change. Node's own text (`listen EADDRINUSE: address already
 * in use 127.0.0.1:8546`) names neither the setting nor a way out, and the RPC and devp2p ports look alike.
 */
import { settingOf, type SettingKey } from '../node/settings/index.js';

export type Listener = 'rpc' | 'p2p' | 'discovery';

const keysOf: Record<Listener, { port: SettingKey; addr: SettingKey; what: string }> = {
  rpc: { port: 'network.rpc.http.port', addr: 'network.rpc.http.interface', what: 'the RPC server' },
  p2p: { port: 'network.server-address.port', addr: 'network.server-address.interface', what: 'devp2p' },
  // discv4's UDP socket binds the devp2p address, on the p2p port unless --discovery.port says otherwise.
  discovery: { port: 'network.discovery.port', addr: 'network.server-address.interface', what: 'discovery (UDP)' },
};

/** A UDP socket fails in `bind` where a TCP server fails in `listen`: that tells discv4's failure from RLPx's. */
export function isUdpBindFailure(err: unknown): boolean {
  return err !== null && typeof err === 'object' && (err as ListenError).syscall === 'bind';
}

interface ListenError {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
}

/** The message for a failed bind of `listener` on `host:port`; undefined when `err` is not a bind failure. */
export function listenFailure(listener: Listener, host: string, port: number, err: unknown): string | undefined {
  const e = err as ListenError;
  const bindCall = e?.syscall === 'listen' || e?.syscall === 'bind' || e?.syscall === 'getaddrinfo';
  if (e === null || typeof e !== 'object' || !bindCall) return undefined;
  const keys = keysOf[listener];
  const portFlag = `--${settingOf(keys.port).flag}`;
  const addrFlag = `--${settingOf(keys.addr).flag}`;
  const at = `${listener === 'discovery' ? 'UDP ' : ''}port ${e.port ?? port} on ${e.address ?? host}`;
  const otherPort = `choose another with ${portFlag}, or ${portFlag} 0 for any free port`;
  switch (e.code) {
    case 'EADDRINUSE':
      return `${at} is in use (by another svc-node?): ${otherPort}`;
    case 'EACCES':
      return `${at} needs privileges this process lacks (ports below 1024): ${otherPort}`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `${keys.what} cannot listen on ${e.address ?? host} (not this machine's): choose another with ${addrFlag}`;
    default:
      return undefined;
  }
}
