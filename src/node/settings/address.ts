/**
 * Whether an address can be listened on here. A typo (`999.1.1.1`) or another machine's address would otherwise
 * surface only after the chain has opened, as a raw `getaddrinfo ENOTFOUND` or `EADDRNOTAVAIL` naming no setting.
 * IP addresses are checked against this machine's interfaces at once; host names need a lookup (see
 * `resolvesLocally`), which the command line runs before anything is opened.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

const WILDCARDS = new Set(['0.0.0.0', '::']);

/** This machine's addresses (without IPv6 zone suffixes), for checks and for naming the choices in messages. */
export function localAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((info) => info.address.replace(/%.*$/, ''));
}

/** True for a wildcard, any loopback address (all of 127.0.0.0/8 is this machine) or an interface's address. */
export function isLocalIp(ip: string): boolean {
  const bare = ip.replace(/%.*$/, '').toLowerCase();
  if (WILDCARDS.has(bare) || bare === '::1' || /^127\./.test(bare)) return true;
  return localAddresses().some((a) => a.toLowerCase() === bare);
}

/** RFC 1123 host name syntax; a last label of digits only is a mistyped IPv4 address, not a name. */
export function isHostName(text: string): boolean {
  if (text.length > 253) return false;
  const labels = text.replace(/\.$/, '').split('.');
  return (
    labels.every((l) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(l)) && !/^\d+$/.test(labels[labels.length - 1]!)
  );
}

/** Whether `value` may be listened on as far as can be told without a lookup. */
export function mayListenOn(value: string): boolean {
  return isIP(value) !== 0 ? isLocalIp(value) : isHostName(value);
}

/** The one message for an address that cannot be listened on, naming the setting, its source and the choices. */
export function notLocalMessage(key: string, source: string, value: string): string {
  const what = `${JSON.stringify(value)} is not an IP address or host name this machine has`;
  return `${key} (${source}): ${what}; choose one of ${addressChoices()}`;
}

/** Whether host name `name` resolves to at least one address of this machine. */
export async function resolvesLocally(name: string): Promise<boolean> {
  if (isIP(name) !== 0) return isLocalIp(name);
  try {
    const found = await lookup(name, { all: true });
    return found.some((a) => isLocalIp(a.address));
  } catch {
    return false;
  }
}

/** How messages name the choices: the wildcards and this machine's IPv4 addresses. */
export function addressChoices(): string {
  const v4 = localAddresses().filter((a) => isIP(a) === 4);
  return `0.0.0.0 (every interface), ${v4.join(', ')}`;
}
