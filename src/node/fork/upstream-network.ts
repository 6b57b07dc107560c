/**
 * Which network a fork follows: the upstream's, so the fork keeps its chain id and fork rules (etc 61, mordor 63,
 * or another svc-node's dev chain 1337). Read from eth_chainId and the upstream's genesis hash when the fork datadir
 * is created, and kept in `<datadir>/fork.json`, so a restart asks the upstream nothing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex } from '@ethereumjs/util';
import { getNetwork, type NetworkName, ForkUpstreamError } from '../../chain/index.js';
import type { UpstreamClient } from './upstream-client.js';

export interface ForkRecord {
  readonly network: NetworkName;
  readonly chainId: string;
  readonly genesisHash: string;
}

const NETWORK_BY_CHAIN_ID: Readonly<Record<string, NetworkName>> = { '61': 'etc', '63': 'mordor', '1337': 'dev' };

/**
 * The network the fork in `datadir` follows, with the upstream's chain id and genesis hash (which name its fork
 * cache): recorded there, or read from the upstream and recorded.
 */
export async function forkNetworkOf(datadir: string, upstream: UpstreamClient): Promise<ForkRecord> {
  const file = join(datadir, 'fork.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as ForkRecord;
  const chainId = BigInt(await upstream.call<string>('eth_chainId', []));
  const genesis = await upstream.call<{ hash: string } | null>('eth_getBlockByNumber', ['0x0', false]);
  const network = NETWORK_BY_CHAIN_ID[chainId.toString()];
  if (network === undefined)
    throw new ForkUpstreamError(
      upstream.name,
      `its chain id ${chainId} is none of etc (61), mordor (63) or dev (1337)`,
    );
  // A public network must be the real one; a dev chain's genesis depends on its seal mode, so it is not checked.
  const expected = getNetwork(network).genesis.expectedHash;
  if (expected !== undefined && genesis?.hash.toLowerCase() !== bytesToHex(expected))
    throw new ForkUpstreamError(
      upstream.name,
      `it says chain id ${chainId} (${network}) but its genesis is ${genesis?.hash}, not ${bytesToHex(expected)}`,
    );
  const record: ForkRecord = { network, chainId: chainId.toString(), genesisHash: genesis?.hash ?? '' };
  mkdirSync(datadir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return record;
}
