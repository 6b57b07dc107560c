/**
 * Wall time of an import's phases, for bench/mgas.ts `--phases`: the prototypes of the import's steps are wrapped
 * (no source file changes), and as blocks import one at a time the phases add up. `execute` is the transactions
 * (EVM and state reads), `finish` the rewards, the flush of the state caches into the trie and the roots, `head`
 * the head move (the flat table's diff and the block's LevelDB batch write), the rest of `importBlock` is `other`
 * (validation, staging receipts and indexes).
 */
import { BlockRunner } from '../src/chain/exec/block-runner.js';
import { ForkChoice } from '../src/chain/import/fork-choice.js';
import { BlockImporter } from '../src/chain/import/importer.js';
import { FlatTable } from '../src/chain/state/flat-table.js';
import { ChainDB } from '../src/chain/db/chain-db.js';

const totals = new Map<string, number>();

function wrap(proto: object, method: string, phase: string): void {
  const target = proto as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = target[method]!;
  target[method] = async function (this: unknown, ...args: unknown[]) {
    const started = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      totals.set(phase, (totals.get(phase) ?? 0) + performance.now() - started);
    }
  };
}

let installed = false;

export function installPhaseTimers(): void {
  if (installed) return;
  installed = true;
  wrap(BlockImporter.prototype, 'importBlock', 'importBlock');
  wrap(BlockRunner.prototype, 'apply', 'execute');
  wrap(BlockRunner.prototype, 'finish', 'finish');
  wrap(ForkChoice.prototype, 'place', 'head');
  wrap(FlatTable.prototype, 'writeHead', 'head: flat + write');
  wrap(ChainDB.prototype, 'write', 'head: LevelDB write');
}

/** Phases in ms per block since the last call, and resets them. */
export function takePhases(blocks: number): string {
  const t = Object.fromEntries(totals);
  totals.clear();
  const all = t.importBlock ?? 0;
  const named = (t.execute ?? 0) + (t.finish ?? 0) + (t.head ?? 0);
  const per = (ms: number | undefined) => ((ms ?? 0) / blocks).toFixed(0);
  return (
    `execute ${per(t.execute)}, finish ${per(t.finish)}, head ${per(t.head)} (flat diff ` +
    `${per((t['head: flat + write'] ?? 0) - (t['head: LevelDB write'] ?? 0))}, LevelDB write ${per(t['head: LevelDB write'])}), ` +
    `other ${per(all - named)} ms per block`
  );
}
