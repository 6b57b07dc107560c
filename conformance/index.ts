/**
 * The conformance runner: replays Ethereum BlockchainTests and GeneralStateTests JSON files through a test-mode
 * node's RPC and reports one outcome per case. Cases for forks after Berlin are skipped (Ethereum Classic has no
 * EIP-1559, merge, withdrawals or blobs); other vector kinds (difficulty, transaction, PoW tests) are not cases here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { isSupportedForkName } from '../src/chain/testing/fork-schedule.js';
import { BASTION_NETWORKS, bastionSkipReason, type CancunBlockchainCase, runBastionCase } from './bastion-chain.js';
import {
  isPrecompileVectors,
  type PrecompileVector,
  precompileOf,
  runPrecompileVectors,
  setPrecompileChain,
} from './bastion-precompiles.js';
import { runBlockchainCase } from './blockchain-tests.js';
import { RpcClient } from './rpc.js';
import { runStateResult } from './state-tests.js';
import { Difference, type BlockchainTestCase, type CaseOutcome, type StateTestCase } from './types.js';

export type { CaseOutcome } from './types.js';

export interface RunOptions {
  /** Files or folders (searched recursively for .json files). */
  readonly paths: readonly string[];
  readonly url: string;
  /** Only cases whose id contains this text. */
  readonly filter?: string;
  /**
   * Bastion mode: Cancun (Shanghai) BlockchainTests replayed as transactions on an ETC_Bastion (ETC_Spiral) chain,
   * and precompile vector files run against Bastion's precompiles (bastion-chain.ts, bastion-precompiles.ts).
   */
  readonly bastion?: boolean;
  /** Called after every case. */
  readonly onOutcome?: (outcome: CaseOutcome) => void;
}

export interface RunSummary {
  readonly outcomes: CaseOutcome[];
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

export function jsonFilesUnder(path: string): string[] {
  if (statSync(path).isFile()) return path.endsWith('.json') ? [path] : [];
  return readdirSync(path)
    .sort()
    .flatMap((name) => jsonFilesUnder(join(path, name)));
}

const afterBerlin = (fork: string): string =>
  `fork ${fork} is after Berlin: Ethereum Classic has no EIP-1559, merge, withdrawals or blobs`;

export async function runConformance(opts: RunOptions): Promise<RunSummary> {
  const rpc = new RpcClient(opts.url);
  try {
    return await runWith(rpc, opts);
  } finally {
    rpc.close();
  }
}

async function runWith(rpc: RpcClient, opts: RunOptions): Promise<RunSummary> {
  const outcomes: CaseOutcome[] = [];
  const report = (o: CaseOutcome) => {
    outcomes.push(o);
    opts.onOutcome?.(o);
  };
  for (const root of opts.paths) {
    const base = statSync(root).isFile() ? dirname(root) : root;
    for (const file of jsonFilesUnder(root)) {
      const folder = relative(base, dirname(file)) || '.';
      const shortFile = relative(base, file) || file;
      let content: Record<string, unknown>;
      try {
        content = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (opts.bastion === true && isPrecompileVectors(content)) {
        await runPrecompileFile(rpc, file, shortFile, folder, content, opts.filter, report);
        continue;
      }
      for (const [name, value] of Object.entries(content)) {
        if (typeof value !== 'object' || value === null) continue;
        if (isBlockchainTest(value)) {
          const id = `${shortFile}::${name}`;
          if (opts.filter !== undefined && !id.includes(opts.filter)) continue;
          if (opts.bastion === true && value.network in BASTION_NETWORKS) {
            const c = value as unknown as CancunBlockchainCase;
            const reason = bastionSkipReason(c, SHADOWED);
            if (reason !== undefined) report({ id, folder, status: 'skipped', reason });
            else report(await bastionOutcomeOf(id, folder, () => runBastionCase(rpc, c)));
            continue;
          }
          if (!isSupportedForkName(value.network)) {
            report({ id, folder, status: 'skipped', reason: afterBerlin(value.network) });
            continue;
          }
          report(await outcomeOf(id, folder, () => runBlockchainCase(rpc, value)));
        } else if (isStateTest(value)) {
          for (const [fork, results] of Object.entries(value.post)) {
            for (const result of results) {
              const { data, gas, value: v } = result.indexes;
              const id = `${shortFile}::${name}_${fork}_d${data}g${gas}v${v}`;
              if (opts.filter !== undefined && !id.includes(opts.filter)) continue;
              if (!isSupportedForkName(fork)) {
                report({ id, folder, status: 'skipped', reason: afterBerlin(fork) });
                continue;
              }
              report(await outcomeOf(id, folder, () => runStateResult(rpc, value, fork, result)));
            }
          }
        }
      }
    }
  }
  const count = (s: CaseOutcome['status']) => outcomes.filter((o) => o.status === s).length;
  return { outcomes, passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}

/** Bastion's precompile addresses: a Cancun case with a contract at one of them cannot run as Cancun ran it. */
const SHADOWED: ReadonlySet<bigint> = new Set([0x0bn, 0x0cn, 0x0dn, 0x0en, 0x0fn, 0x10n, 0x11n, 0x100n]);

async function bastionOutcomeOf(id: string, folder: string, run: () => Promise<string[]>): Promise<CaseOutcome> {
  try {
    return { id, folder, status: 'passed', leftOut: await run() };
  } catch (err) {
    const reason = err instanceof Difference ? err.message : `error: ${(err as Error).message}`;
    return { id, folder, status: 'failed', reason: reason.split('\n')[0] };
  }
}

async function runPrecompileFile(
  rpc: RpcClient,
  file: string,
  shortFile: string,
  folder: string,
  vectors: PrecompileVector[],
  filter: string | undefined,
  report: (o: CaseOutcome) => void,
): Promise<void> {
  const ids = vectors.map((v) => `${shortFile}::${v.Name}`);
  const chosen = vectors.filter((_, i) => filter === undefined || ids[i]!.includes(filter));
  if (chosen.length === 0) return;
  const precompile = precompileOf(file);
  if (precompile === undefined) {
    for (const v of chosen)
      report({
        id: `${shortFile}::${v.Name}`,
        folder,
        status: 'skipped',
        reason: 'no precompile known for this file name',
      });
    return;
  }
  await setPrecompileChain(rpc);
  const results = await runPrecompileVectors(rpc, precompile, chosen);
  for (const [i, v] of chosen.entries()) {
    const id = `${shortFile}::${v.Name}`;
    const reason = results[i];
    const note = precompile.note !== undefined ? { note: precompile.note } : {};
    report(reason === undefined ? { id, folder, status: 'passed', ...note } : { id, folder, status: 'failed', reason });
  }
}

async function outcomeOf(
  id: string,
  folder: string,
  run: () => Promise<readonly string[] | void>,
): Promise<CaseOutcome> {
  try {
    const rejections = await run();
    return rejections !== undefined && rejections.length > 0
      ? { id, folder, status: 'passed', rejections }
      : { id, folder, status: 'passed' };
  } catch (err) {
    const reason = err instanceof Difference ? err.message : `error: ${(err as Error).message}`;
    return { id, folder, status: 'failed', reason: reason.split('\n')[0] };
  }
}

function isBlockchainTest(v: object): v is BlockchainTestCase {
  return 'blocks' in v && 'genesisBlockHeader' in v && 'network' in v;
}

function isStateTest(v: object): v is StateTestCase {
  return 'env' in v && 'transaction' in v && 'post' in v;
}
