/**
 * The one check of the listen addresses that needs a lookup: a host name must resolve to an address of this
 * machine. Run before the chain opens, so a typo fails in a moment with the setting named, not as a raw
 * `getaddrinfo ENOTFOUND` after start-up work. IP addresses were already checked when the settings were read.
 */
import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';
import type { NodeConfig } from './config.js';
import { notLocalMessage, resolvesLocally } from './settings/address.js';
import { settingOf, type SettingKey } from './settings/index.js';

export async function checkListenHosts(config: NodeConfig): Promise<void> {
  const hosts: Array<[SettingKey, string]> = [['network.rpc.http.interface', config.rpc.http.interface]];
  if (config.p2p.enabled) hosts.push(['network.server-address.interface', config.p2p.interface]);
  for (const [key, host] of hosts) {
    if (isIP(host) !== 0 || (await resolvesLocally(host))) continue;
    throw new ConfigError(notLocalMessage(key, `--${settingOf(key).flag}`, host));
  }
}
