/**
 * A listener that could not bind says which flag to change. Node's own text (`listen EADDRINUSE: address already
 * in use 127.0.0.1:8546`) names neither the setting nor a way out, and the RPC and devp2p ports look alike.
 */
import { settingOf, type SettingKey } from '../node/settings/index.js';

export type Listener = 'rpc' | 'p2p';

const keysOf: Record<Listener, { port: SettingKey; addr: SettingKey; what: string }> = {
  rpc: { port: 'network.rpc.http.port', addr: 'network.rpc.http.interface', what: 'the RPC server' },
  p2p: { port: 'network.server-address.port', addr: 'network.server-address.interface', what: 'devp2p' },
};

interface ListenError {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
}

/** The message for a failed bind of `listener` on `host:port`; undefined when `err` is not a bind failure. */
export function listenFailure(listener: Listener, host: string, port: number, err: unknown): string | undefined {
  const e = err as ListenError;
  if (e === null || typeof e !== 'object' || (e.syscall !== 'listen' && e.syscall !== 'getaddrinfo')) return undefined;
  const keys = keysOf[listener];
  const portFlag = `--${settingOf(keys.port).flag}`;
  const addrFlag = `--${settingOf(keys.addr).flag}`;
  const at = `port ${e.port ?? port} on ${e.address ?? host}`;
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
