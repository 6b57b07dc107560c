/**
 * svc-node's dev chain as the two files `@ethereumjs/client` takes for a custom network:
 * `--customChain` (a Common `ChainConfig`) and `--customGenesisState` (address → balance).
 *
 * The client only interoperates with us if both sides agree on the genesis block (STATUS carries its
 * hash) and on the fork id, and it re-executes every block it syncs, so its EVM rules, block reward
 * and difficulty bounds must match our dev rules too (reference §4.2, §4.4):
 *   - chain id 1337; the client announces its chain id as the STATUS network id, and dev's network
 *     id is also 1337;
 *   - every hardfork chainstart…shanghai at block 0, so the fork id is CRC32(genesis hash) with
 *     next = 0, as our dev node computes it;
 *   - ETC through Spiral: London is only [3529, 3541] (no basefee, 15-field headers), Shanghai only
 *     [3651, 3855, 3860] (no withdrawals), Byzantium/Constantinople keep the 5 ETC era-0 reward
 *     instead of cutting it to 3 and 2, the bomb is delayed out of reach (ECIP-1041), and the
 *     difficulty floor is dev's minimum (2) instead of Ethereum's 131,072.
 * ECIP-1017 era rewards are out of reach of Common (one `minerReward`), which is fine while the chain
 * stays in era 0 (the first 5,000,000 blocks).
 *
 * CLI: `npx tsx scripts/interop/ethereumjs-dev-chain.ts [outDir] [--client-dir <dir>]` writes
 * `svc-node-dev-chain.json` and `svc-node-dev-genesis-state.json` into outDir (default: a new
 * temporary folder), checks that the genesis hash ethereumjs derives from them equals svc-node's,
 * and prints a JSON summary. With the client installed (scripts/interop/install-ethereumjs-client.sh;
 * `--client-dir` defaults to where that script installs), the check uses the client's own
 * @ethereumjs/blockchain, so the hash is the one the running client will compute.
 */
import { createBlock } from '@ethereumjs/block';
import { createCustomCommon, Mainnet, type ChainConfig, type HardforksDict } from '@ethereumjs/common';
import { genesisMPTStateRoot } from '@ethereumjs/mpt';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dev } from '../../src/chain/networks/dev.js';
import { ETH_HARDFORK_ORDER } from '../../src/chain/rules/evmRules.js';
import { buildGenesisBlock } from '../../src/chain/genesis/header.js';
import type { NetworkDefinition } from '../../src/chain/networks/types.js';

/** ECIP-1017 era 0 block reward, 5 ETC. */
const ERA0_REWARD_WEI = '5000000000000000000';

/**
 * Far past any block a test chain reaches: Common subtracts this from the block number before the
 * bomb's exponent, so the bomb never adds anything (ECIP-1041 removed it on ETC).
 */
const BOMB_OFF_DELAY = '1000000000000';

/** `{ "0x<address>": "0x<balance>" }`, the form @ethereumjs/client's `--customGenesisState` reads. */
export type EthereumjsGenesisState = Record<`0x${string}`, `0x${string}`>;

export interface EthereumjsChainFiles {
  readonly chain: ChainConfig;
  readonly genesisState: EthereumjsGenesisState;
}

const toHex = (value: bigint): `0x${string}` => `0x${value.toString(16)}`;

/** Our ETC rules on top of Common's Ethereum hardforks (the §4.2 `customHardforks`, with dev's difficulty floor). */
function etcCustomHardforks(minimumDifficulty: bigint): HardforksDict {
  // A custom entry replaces Common's whole definition of that hardfork, so each keeps its own EIP.
  const keepEra0RewardNoBomb = { minerReward: ERA0_REWARD_WEI, difficultyBombDelay: BOMB_OFF_DELAY };
  return {
    chainstart: { eips: [1], params: { minimumDifficulty: Number(minimumDifficulty) } },
    byzantium: { eips: [609], params: keepEra0RewardNoBomb },
    constantinople: { eips: [1013], params: keepEra0RewardNoBomb },
    london: { eips: [3529, 3541] },
    shanghai: { eips: [3651, 3855, 3860] },
  };
}

/**
 * The client files for a network whose scheduled ETC forks all activate at block 0 (svc-node's dev chain).
 * Throws for anything the mapping cannot express: a later fork, a bomb pause, or genesis fields
 * Common's genesis config has no slot for (coinbase, mixHash, parentHash must be zero).
 */
export async function ethereumjsChainFiles(network: NetworkDefinition = dev): Promise<EthereumjsChainFiles> {
  // An unscheduled fork (null: Bastion on dev) never activates, so it changes nothing the client must know.
  const laterForks = Object.entries(network.forks).filter(([, block]) => block !== 0n && block !== null);
  if (laterForks.length > 0) {
    throw new Error(
      `${network.name}: only all-forks-at-0 chains map onto one Common; not at 0: ${laterForks.map(([name]) => name).join(', ')}`,
    );
  }
  if (network.bombPause !== null) throw new Error(`${network.name}: a bomb pause cannot be expressed in Common`);
  if (network.chainId !== network.networkId) {
    // @ethereumjs/devp2p sends the chain id as STATUS network id (reference §3.3 b, §4.4 item 1).
    throw new Error(
      `${network.name}: chain id ${network.chainId} ≠ network id ${network.networkId}; the client would announce the wrong network`,
    );
  }
  const h = network.genesis.header;
  for (const [field, bytes] of [
    ['coinbase', h.coinbase],
    ['mixHash', h.mixHash],
    ['parentHash', h.parentHash],
  ] as const) {
    if (bytes.some((b) => b !== 0))
      throw new Error(`${network.name}: genesis ${field} is not zero, and Common's genesis config cannot carry it`);
  }

  const chain: ChainConfig = {
    name: `svc-node-${network.name}`,
    chainId: Number(network.chainId),
    defaultHardfork: 'shanghai',
    consensus: { type: 'pow', algorithm: 'ethash', ethash: {} },
    genesis: {
      timestamp: toHex(h.timestamp),
      gasLimit: toHex(h.gasLimit),
      difficulty: toHex(h.difficulty),
      nonce: bytesToHex(h.nonce),
      extraData: bytesToHex(h.extraData),
    },
    hardforks: ETH_HARDFORK_ORDER.map((name) => ({ name, block: 0 })),
    customHardforks: etcCustomHardforks(network.pow.minimumDifficulty),
    // Nothing of Mainnet's peers, DNS trees or deposit contract may leak into the base it is spread onto.
    bootstrapNodes: [],
    dnsNetworks: [],
  };

  const genesisState: EthereumjsGenesisState = {};
  for (const account of await network.genesis.loadAlloc()) {
    if ((account.nonce ?? 0n) !== 0n || (account.code?.length ?? 0) > 0 || (account.storage?.length ?? 0) > 0) {
      throw new Error(
        `${network.name}: genesis account ${bytesToHex(account.address)} has nonce, code or storage; only balances are mapped`,
      );
    }
    genesisState[bytesToHex(account.address)] = toHex(account.balance);
  }
  return { chain, genesisState };
}

/**
 * The genesis hash ethereumjs derives from the files, done the way `Blockchain.createGenesisBlock`
 * does it (Common's genesis fields + the allocation's state root, at block 0's hardfork), with this
 * repo's ethereumjs packages.
 */
export async function genesisHashWithRepoPackages(files: EthereumjsChainFiles): Promise<Uint8Array> {
  const common = createCustomCommon(files.chain, Mainnet);
  common.setHardforkBy({ blockNumber: 0n, timestamp: BigInt(common.genesis().timestamp ?? 0) });
  const stateRoot = await genesisMPTStateRoot(files.genesisState);
  const block = createBlock({ header: { ...common.genesis(), number: 0n, stateRoot } }, { common });
  return block.hash();
}

/**
 * The genesis hash as computed by the @ethereumjs/blockchain and @ethereumjs/common that the
 * installed client runs (`clientDir` is the folder install-ethereumjs-client.sh installed into):
 * the same calls its CLI makes for `--customChain`/`--customGenesisState`.
 */
export async function genesisHashWithClientPackages(
  files: EthereumjsChainFiles,
  clientDir: string,
): Promise<Uint8Array> {
  const requireFromClient = createRequire(join(resolve(clientDir), 'package.json'));
  const load = async (name: string): Promise<any> => import(pathToFileURL(requireFromClient.resolve(name)).href);
  const commonLib = await load('@ethereumjs/common');
  const blockchainLib = await load('@ethereumjs/blockchain');
  const common = commonLib.createCustomCommon(files.chain, commonLib.Mainnet);
  const blockchain = await blockchainLib.createBlockchain({
    common,
    genesisState: files.genesisState,
    hardforkByHeadBlockNumber: true,
    validateConsensus: false,
  });
  return blockchain.genesisBlock.hash() as Uint8Array;
}

export interface WrittenChainFiles {
  readonly chainPath: string;
  readonly genesisStatePath: string;
}

export function writeChainFiles(files: EthereumjsChainFiles, outDir: string): WrittenChainFiles {
  mkdirSync(outDir, { recursive: true });
  const chainPath = join(outDir, `${files.chain.name}-chain.json`);
  const genesisStatePath = join(outDir, `${files.chain.name}-genesis-state.json`);
  writeFileSync(chainPath, `${JSON.stringify(files.chain, null, 2)}\n`);
  writeFileSync(genesisStatePath, `${JSON.stringify(files.genesisState, null, 2)}\n`);
  return { chainPath, genesisStatePath };
}

/** Where install-ethereumjs-client.sh installs by default. */
export function defaultClientDir(): string {
  // `||`, not `??`: like the shell's ${VAR:-default}, an empty variable counts as unset.
  return process.env.SVC_INTEROP_DIR || join(process.env.TMPDIR || '/tmp', 'svc-node-ethereumjs-client');
}

async function main(argv: readonly string[]): Promise<void> {
  const args = [...argv];
  const clientDirFlag = args.indexOf('--client-dir');
  const clientDir = clientDirFlag === -1 ? defaultClientDir() : args.splice(clientDirFlag, 2)[1];
  const outDir = args[0] ?? mkdtempSync(join(tmpdir(), 'svc-node-ethereumjs-chain-'));

  const files = await ethereumjsChainFiles(dev);
  const written = writeChainFiles(files, outDir);
  const ours = (await buildGenesisBlock(dev)).hash;
  const hashes: Record<string, string> = { svcNode: bytesToHex(ours) };
  const repo = await genesisHashWithRepoPackages(files);
  hashes.ethereumjsRepoPackages = bytesToHex(repo);
  let allEqual = equalsBytes(repo, ours);
  if (existsSync(join(clientDir, 'node_modules', '@ethereumjs', 'blockchain'))) {
    const client = await genesisHashWithClientPackages(files, clientDir);
    hashes.ethereumjsClientPackages = bytesToHex(client);
    allEqual &&= equalsBytes(client, ours);
  }
  console.log(JSON.stringify({ ...written, genesisHashes: hashes, match: allEqual }, null, 2));
  if (!allEqual) process.exitCode = 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main(process.argv.slice(2));
}
