/**
 * The nodes under comparison: how to start each on loopback, where its funded test keys come from, and its own
 * way to hold, release and force mining (each uses its documented API; the report names which).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildAndBundleSync as buildDist } from '../../bin/build.js';
import { MethodUnavailable, type RpcClient, sleep, toHex } from './rpc.js';

export const repoDir = fileURLToPath(new URL('../../', import.meta.url));
export const peersDir = fileURLToPath(new URL('../peers/', import.meta.url));

export const TEST_MNEMONIC = 'test test test test test test test test test test test junk';
/** m/44'/60'/0'/0/0..5 of the test mnemonic (public knowledge; dev chains only). */
export const TEST_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
] as const;

export type TargetId = 'svc-node' | 'anvil' | 'ganache' | 'hardhat' | 'ethereumjs';

export interface LaunchPlan {
  /** The executable; default: this Node.js (every JavaScript node runs as `node <script>`). */
  readonly command?: string;
  readonly args: string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface Target {
  readonly id: TargetId;
  readonly name: string;
  readonly version: string;
  /** How its blocks are produced on demand, for the report. */
  readonly blockProduction: string;
  readonly launch: (port: number, dataDir: string, sparePort: number) => LaunchPlan;
  /** Funded private keys once started (from the test mnemonic, or read from the node's start-up output). */
  readonly fundedKeys: (logFile: string) => string[];
  /** Stops sealing transactions as they arrive, so a burst can pile up in the pool. */
  readonly holdMining: (rpc: RpcClient) => Promise<void>;
  /** Seals what the pool holds until `allMined` says so; then automine is back on. */
  readonly mineHeld: (rpc: RpcClient, allMined: () => Promise<boolean>) => Promise<void>;
  /** Appends `count` empty blocks the fastest honest way the node offers. */
  readonly mineEmpty: (rpc: RpcClient, count: number) => Promise<void>;
}

const requireFromPeers = createRequire(peersDir);
function peerVersion(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(requireFromPeers.resolve(`${pkg}/package.json`), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'not installed';
  }
}
function peerBin(pkg: string, bin: string): string {
  return requireFromPeers.resolve(`${pkg}/${bin}`);
}

async function mineUntil(
  _rpc: RpcClient,
  mineOne: () => Promise<unknown>,
  allMined: () => Promise<boolean>,
): Promise<void> {
  while (!(await allMined())) await mineOne();
}

const { NODE_ENV: _droppedNodeEnv, ...baseEnv } = process.env; // production-like: svc-node skips result validation

export const svcNode: Target = {
  id: 'svc-node',
  name: 'svc-node',
  version: (JSON.parse(readFileSync(`${repoDir}package.json`, 'utf8')) as { version: string }).version,
  blockProduction: 'qa_mineBlocks(n, false)',
  // `node bin/svc-node.js`, what `npm start` execs (compiled JavaScript from dist/, bundled, one process); dist/ and
  // its bundle are brought up to date here, before the launcher's clock starts; warn level so no per-request logs.
  launch: (port, dataDir) => {
    buildDist();
    return {
      args: [
        'bin/svc-node.js',
        '--http.port',
        String(port),
        '--p2p.port',
        '0',
        '--datadir',
        dataDir,
        '--log-level',
        'warn',
      ],
      cwd: repoDir,
      env: baseEnv,
    };
  },
  fundedKeys: () => [...TEST_KEYS],
  holdMining: async (rpc) => void (await rpc.call('miner_stop')),
  mineHeld: async (rpc, allMined) => {
    await rpc.call('miner_start');
    while (!(await allMined())) await sleep(2);
  },
  // One call, as the peers' methods: qa_mineBlocks answers once the blocks are imported (the logs workload then
  // checks the chain through eth_getLogs over it).
  mineEmpty: async (rpc, count) => {
    const answer = await rpc.call<{ responseType: string; message: string | null }>('qa_mineBlocks', [count, false]);
    if (answer.responseType !== 'MiningOrdered')
      throw new Error(`qa_mineBlocks: ${answer.responseType} ${answer.message ?? ''}`.trim());
  },
};

export const ganache: Target = {
  id: 'ganache',
  name: 'Ganache',
  version: peerVersion('ganache'),
  blockProduction: 'evm_mine({ blocks: n })',
  launch: (port, dataDir) => ({
    args: [
      peerBin('ganache', 'dist/node/cli.js'),
      '--server.host',
      '127.0.0.1',
      '--server.port',
      String(port),
      '--chain.chainId',
      '1337',
      '--wallet.mnemonic',
      TEST_MNEMONIC,
      '--wallet.totalAccounts',
      '10',
      '--miner.instamine',
      'eager',
      '--database.dbPath',
      dataDir,
      '--logging.quiet',
    ],
    cwd: peersDir,
    env: baseEnv,
  }),
  fundedKeys: () => [...TEST_KEYS],
  holdMining: async (rpc) => void (await rpc.call('miner_stop')),
  mineHeld: async (rpc, allMined) => {
    await mineUntil(rpc, () => rpc.call('evm_mine'), allMined);
    await rpc.call('miner_start');
  },
  mineEmpty: async (rpc, count) => void (await rpc.call('evm_mine', [{ blocks: count }])),
};

export const hardhat: Target = {
  id: 'hardhat',
  name: 'Hardhat',
  version: peerVersion('hardhat'),
  blockProduction: 'hardhat_mine(n)',
  launch: (port) => ({
    args: [
      peerBin('hardhat', 'internal/cli/bootstrap.js'),
      'node',
      '--hostname',
      '127.0.0.1',
      '--port',
      String(port),
      '--config',
      'hardhat.config.cjs',
    ],
    cwd: peersDir,
    env: { ...baseEnv, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
  }),
  fundedKeys: () => [...TEST_KEYS],
  holdMining: async (rpc) => void (await rpc.call('evm_setAutomine', [false])),
  mineHeld: async (rpc, allMined) => {
    await mineUntil(rpc, () => rpc.call('evm_mine'), allMined);
    await rpc.call('evm_setAutomine', [true]);
  },
  mineEmpty: async (rpc, count) => void (await rpc.call('hardhat_mine', [toHex(count)])),
};

/**
 * Anvil (Foundry) from the repository's own devDependency @foundry-rs/anvil: its platform package carries the
 * native binary, started directly (not through the package's Node wrapper, so the process tree and its memory
 * are Anvil's own). Defaults as a developer gets them (automine, in-memory chain), with Hardhat's chain id.
 */
const anvilPackage = createRequire(repoDir).resolve('@foundry-rs/anvil/package.json');
const anvilBinary = () =>
  createRequire(anvilPackage).resolve(`@foundry-rs/anvil-${process.platform}-${archName()}/bin/anvil`);
function archName(): string {
  return process.arch === 'x64' ? 'amd64' : process.arch;
}

export const anvil: Target = {
  id: 'anvil',
  name: 'Anvil',
  version: (JSON.parse(readFileSync(anvilPackage, 'utf8')) as { version: string }).version,
  blockProduction: 'anvil_mine(n)',
  launch: (port) => ({
    command: anvilBinary(),
    args: [
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--chain-id',
      '31337',
      '--mnemonic',
      TEST_MNEMONIC,
      '--accounts',
      '10',
      '--quiet',
    ],
    cwd: repoDir,
    env: baseEnv,
  }),
  fundedKeys: () => [...TEST_KEYS],
  holdMining: async (rpc) => void (await rpc.call('evm_setAutomine', [false])),
  mineHeld: async (rpc, allMined) => {
    await mineUntil(rpc, () => rpc.call('evm_mine'), allMined);
    await rpc.call('evm_setAutomine', [true]);
  },
  mineEmpty: async (rpc, count) => void (await rpc.call('anvil_mine', [toHex(count)])),
};

const noMiningApi = (method: string) => async () => {
  throw new MethodUnavailable(
    method,
    'the EthereumJS client has no mining RPC; --dev=pow seals a block about every 10 s',
  );
};

export const ethereumjs: Target = {
  id: 'ethereumjs',
  name: 'EthereumJS client',
  version: peerVersion('@ethereumjs/client'),
  blockProduction: 'none (its --dev=pow miner seals about every 10 s)',
  launch: (port, dataDir, sparePort) => ({
    args: [
      peerBin('@ethereumjs/client', 'dist/esm/bin/cli.js'),
      '--dev=pow',
      '--rpc',
      '--rpcAddr',
      '127.0.0.1',
      '--rpcPort',
      String(port),
      '--dataDir',
      dataDir,
      '--port',
      String(sparePort),
      '--maxPeers',
      '0',
      '--logLevel',
      'warn',
    ],
    cwd: peersDir,
    env: baseEnv,
  }),
  // --dev=pow funds one freshly generated account and prints its key; it does not take a mnemonic.
  fundedKeys: (logFile) => {
    const match = /Private key: (0x[0-9a-fA-F]{64})/.exec(readFileSync(logFile, 'utf8'));
    return match ? [match[1]!] : [];
  },
  holdMining: noMiningApi('holdMining'),
  mineHeld: noMiningApi('mineHeld'),
  mineEmpty: noMiningApi('mineEmpty'),
};

export const allTargets: readonly Target[] = [svcNode, anvil, ganache, hardhat, ethereumjs];
