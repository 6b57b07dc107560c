/**
 * Which network a fork follows: the upstream's, so the fork keeps its chain id and fork rules (etc 61, mordor 63,
 * or another svc-node's dev chain 1337). Read from eth_chainId and the upstream's genesis hash when the fork datadir
 * is created (unless the fork cache remembers them for the URL), and kept in `<datadir>/fork.json`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex } from '@ethereumjs/util';
import { getNetwork, type NetworkName, ForkUpstreamError } from '../../chain/index.js';
import type { ForkCacheConfig } from './fork-config.js';
import type { UpstreamClient } from './upstream-client.js';
import { forgetIdentity, rememberedIdentity, rememberIdentity, type UpstreamRecord } from './upstream-identity.js';

export type ForkRecord = UpstreamRecord;

const NETWORK_BY_CHAIN_ID: Readonly<Record<string, NetworkName>> = { '61': 'etc', '63': 'mordor', '1337': 'dev' };

/**
 * The network the fork in `datadir` follows, with the upstream's chain id and genesis hash (which name its fork
 * cache): recorded there, else remembered for the URL in the fork cache (`cache`), else read from the upstream;
 * recorded in the datadir and remembered. An identity not read now is checked by the first request the fork really
 * sends (a changed upstream stops the fork and is forgotten), so a datadir whose reads are all in the fork cache
 * asks the upstream nothing.
 */
export async function forkNetworkOf(
  datadir: string,
  upstream: UpstreamClient,
  url: string,
  cache: ForkCacheConfig,
): Promise<ForkRecord> {
  const file = join(datadir, 'fork.json');
  const known = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as ForkRecord)
    : await rememberedIdentity(cache, url);
  const record = known ?? (await askedIdentity(upstream));
  if (known !== undefined) upstream.expectIdentity(known, (answered) => void forgetIdentity(cache, answered));
  else await rememberIdentity(cache, url, record);
  if (!existsSync(file)) {
    mkdirSync(datadir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  }
  return record;
}

async function askedIdentity(upstream: UpstreamClient): Promise<ForkRecord> {
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
  return { network, chainId: chainId.toString(), genesisHash: genesis?.hash ?? '' };
}
