/**
 * The crash loop (issue 14 item 2): one svc-node "victim" on one datadir, killed with SIGKILL at random moments
 * of four kinds of work, restarted each time and checked. A second node (the "source") serves sync and a heavier
 * side chain over devp2p; it is linked to the victim only in the rounds that need it (a node-id blacklist entry on the
 * source keeps them apart otherwise, so the source never pulls the victim back onto a chain it left on purpose).
 *
 * Scenarios (`schedule` spreads the kills evenly, in a seeded order):
 *   mining  bulk qa_mineBlocks / test_mineBlocks (Blockchain.extendHead: 500 blocks per batch) with automined sends
 *   sends   a burst of eth_sendRawTransaction from several accounts: transfers, Counter.increment calls (logs),
 *           single and JSON-RPC batches
 *   sync    the source, linked and brought level with the victim, then unlinked, mines ahead (empty blocks in bulk and
 *           blocks with transfers and Counter logs); the victim relinks and is killed as its head passes a random height
 *   reorg   one of: test_rewindToBlock then re-mining with sends; qa_mineBlocks on an older parent (a local side chain
 *           that overtakes); a heavier side chain mined by the unlinked source, then relinked
 *
 * After each kill: the offline checker (offline-check.ts) on the datadir, a restart timed to the first
 * eth_blockNumber answer, then online checks: the head the node serves is the head on disk, stored with its state;
 * every receipt answered before any kill is still answered with the same block (or its block was legitimately
 * reorged out and is still stored with that receipt as a side block); logs of those receipts are found through the
 * log index; sync resumes where a peer was involved; a new block is mined on top and served.
 *
 * Odd kills hit the victim running with `db.write-behind` (the dev default: blocks answered once they are the
 * in-memory head, written behind in order), even kills with it off (the mordor/etc default: answered once on disk).
 * With write-behind a receipt answered in the round of the kill may be lost, but only with its whole block (the block
 * is not stored at all: an unwritten tail); everything else above holds for both.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { median } from '../../bench/compare/stats.js';
import { freePort } from '../../test/helpers/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Interface, Wallet } from 'ethers';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../../test/helpers/node-process.js';
import { Counter } from '../../test/rpc/contracts.js';
import { Rng } from '../fuzz/rng.js';
import { checkDatadirOffline, OFFLINE_CATEGORIES } from './offline-check.js';
import { rpc, rpcBatch, rpcChunked, toQuantity } from './rpc.js';

export type Scenario = 'mining' | 'sends' | 'sync' | 'reorg';
const SCENARIOS: readonly Scenario[] = ['mining', 'sends', 'sync', 'reorg'];

export interface CrashLoopOptions {
  readonly kills: number;
  readonly seed: number;
  /** Smaller loads and chains (the vitest run). */
  readonly quick?: boolean;
  /** Keep the datadirs (always kept after a failure). */
  readonly keep?: boolean;
  readonly log?: (line: string) => void;
}

export interface CheckOutcome {
  readonly kill: number;
  readonly scenario: Scenario;
  readonly name: string;
  readonly ok: boolean;
  readonly detail?: string;
}

export interface CrashLoopReport {
  readonly seed: number;
  readonly kills: number;
  readonly perScenario: Record<Scenario, number>;
  /** Kills that landed while the scenario's work was still in flight (a request unanswered). */
  readonly killsInFlight: number;
  readonly checks: {
    readonly passed: number;
    readonly failed: number;
    readonly byName: Record<string, { passed: number; failed: number }>;
  };
  readonly firstFailure?: CheckOutcome;
  readonly totalMs: number;
  readonly restartMs: readonly number[];
  readonly restartMedianMs: number;
  readonly receipts: {
    readonly tracked: number;
    readonly reorgedOut: number;
    readonly remined: number;
    /** Answered in a write-behind round and lost with their unwritten block at its kill. */
    readonly lostInTail: number;
  };
  /** Kills of a victim running with write-behind (the others ran with it off). */
  readonly writeBehindKills: number;
  readonly finalHead: number;
  readonly baseDir: string;
  readonly notes: readonly string[];
}

interface ReceiptRecord {
  readonly tx: string;
  blockHash: string;
  blockNumber: number;
  /** Its block may leave the canonical chain legitimately (a reorg scenario ran at or below its height since). */
  reorgable: boolean;
  readonly hasLogs: boolean;
  /** Kill number it was recorded before. */
  readonly round: number;
}

type Block = {
  hash: string;
  number: string;
  parentHash: string;
  totalDifficulty: string;
  difficulty: string;
  transactions: unknown[];
};

const counterInterface = new Interface(Counter.abi);
const VICTIM_SENDERS = DEV_ACCOUNTS.slice(1, 7).map((a) => new Wallet(a.privateKey));
const SOURCE_SENDER = new Wallet(DEV_ACCOUNTS[9].privateKey);
const CHAIN_ID = 1337n;

/** Node processes of running loops, for `killAllNodes` (a signal to the script must not leave nodes behind). */
const liveNodes = new Set<NodeProcess>();

/** SIGKILLs every node process a loop in this process has running (for the script's signal handlers). */
export function killAllNodes(): void {
  for (const node of liveNodes)
    if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
}

function schedule(kills: number, seed: number): Scenario[] {
  const rng = new Rng(seed);
  const out = Array.from({ length: kills }, (_, i) => SCENARIOS[i % SCENARIOS.length]);
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const nodeIdOf = (enode: string): string => /^enode:\/\/([0-9a-f]{128})@/i.exec(enode)![1].toLowerCase();

/** A node-held dev account sending signed transactions with its own nonce count. */
class Sender {
  private nonce: bigint | undefined;
  constructor(
    readonly wallet: Wallet,
    private readonly gasPrice: () => bigint,
  ) {}

  async refresh(url: string): Promise<void> {
    this.nonce = BigInt(await rpc<string>(url, 'eth_getTransactionCount', [this.wallet.address, 'pending']));
  }

  forget(): void {
    this.nonce = undefined;
  }

  async sign(url: string, tx: { to: string; value?: bigint; data?: string; gasLimit: bigint }): Promise<string> {
    if (this.nonce === undefined) await this.refresh(url);
    const nonce = this.nonce!;
    this.nonce = nonce + 1n;
    return this.wallet.signTransaction({
      type: 0,
      chainId: CHAIN_ID,
      nonce: Number(nonce),
      gasPrice: this.gasPrice(),
      ...tx,
    });
  }
}

export async function runCrashLoop(options: CrashLoopOptions): Promise<CrashLoopReport> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const quick = options.quick === true;
  const plan = schedule(options.kills, options.seed);
  const baseDir = mkdtempSync(join(tmpdir(), 'svc-node-crashloop-'));
  const victimDir = join(baseDir, 'victim');
  const sourceDir = join(baseDir, 'source');
  const outcomes: CheckOutcome[] = [];
  const notes: string[] = [];
  const restartMs: number[] = [];
  const records = new Map<string, ReceiptRecord>();
  let reorgedOut = 0;
  let remined = 0;
  let lostInTail = 0;
  let writeBehindKills = 0;
  /** The victim's `db.write-behind` for the round of kill `k`: on for odd kills, off for even ones. */
  const writeBehindAt = (k: number) => k % 2 === 1;
  let victimWritesBehind = writeBehindAt(1);
  let killsInFlight = 0;
  let gasPrice = 1n;
  const senders = VICTIM_SENDERS.map((w) => new Sender(w, () => gasPrice));
  const sourceSender = new Sender(SOURCE_SENDER, () => gasPrice);
  const victimP2pPort = await freePort();
  let victim: NodeProcess | undefined;
  let source: NodeProcess | undefined;
  let counter = '';
  /** Lowest height a reorg scenario may fork below: the Counter contract's block stays canonical. */
  let floor = 0;
  /** Source's blacklist holds the victim (they are kept apart). */
  let apart = false;
  let finalHead = 0;
  let kill = 0;
  let scenario: Scenario = plan[0] ?? 'mining';

  const check = (name: string, ok: boolean, detail?: string) => {
    const outcome: CheckOutcome = { kill, scenario, name, ok, ...(detail !== undefined ? { detail } : {}) };
    outcomes.push(outcome);
    if (!ok) log(`  FAIL ${name}: ${detail ?? ''}`);
  };

  const startVictim = async (writeBehind: boolean): Promise<{ node: NodeProcess; firstAnswerMs: number }> => {
    const t0 = performance.now();
    const node = await startNode({
      args: ['--datadir', victimDir, '--testmode', '--p2p', '--p2p.port', String(victimP2pPort)],
      env: { SVC_NODE_DB_WRITE_BEHIND: String(writeBehind) },
      timeoutMs: 120_000,
    });
    victimWritesBehind = writeBehind;
    liveNodes.add(node);
    node.child.once('exit', () => liveNodes.delete(node));
    await rpc(node.url, 'eth_blockNumber');
    return { node, firstAnswerMs: performance.now() - t0 };
  };

  const sigkill = async (node: NodeProcess): Promise<void> => {
    const child = node.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    // Removes the helper's own temporary folder (the victim's datadir is ours and stays).
    await node.stop();
  };

  /**
   * Sends one signed transaction per call (automine answers once it is in a block) and records its receipt, as
   * answered before kill `round`: the running round's kill, or the next one for the checks after a restart (the
   * restarted process answered it, and that process is the one the next kill stops).
   */
  const sendAndRecord = async (
    url: string,
    sender: Sender,
    raws: string[],
    reorgable: boolean,
    hasLogs: boolean[],
    round = kill,
  ): Promise<number> => {
    const answers =
      raws.length === 1
        ? [
            await rpc<string>(url, 'eth_sendRawTransaction', [raws[0]]).then(
              (r) => ({ ok: true as const, result: r }),
              (e: Error) => ({ ok: false as const, error: e.message }),
            ),
          ]
        : await rpcBatch<string>(
            url,
            raws.map((raw) => ['eth_sendRawTransaction', [raw]] as const),
          );
    if (answers.some((a) => !a.ok)) sender.forget();
    const hashes = answers.flatMap((a) => (a.ok ? [a.result] : []));
    const flags = answers.flatMap((a, i) => (a.ok ? [hasLogs[i]] : []));
    const receipts = await rpcBatch<{ blockHash: string; blockNumber: string; logs: unknown[] } | null>(
      url,
      hashes.map((h) => ['eth_getTransactionReceipt', [h]] as const),
    );
    let recorded = 0;
    receipts.forEach((answer, i) => {
      if (!answer.ok || answer.result === null) return;
      records.set(hashes[i], {
        tx: hashes[i],
        blockHash: answer.result.blockHash,
        blockNumber: Number(answer.result.blockNumber),
        reorgable,
        hasLogs: flags[i] && answer.result.logs.length > 0,
        round,
      });
      recorded++;
    });
    return recorded;
  };

  const transfer = (sender: Sender, url: string, rng: Rng) =>
    sender.sign(url, {
      to: DEV_ACCOUNTS[rng.int(0, 9)].address,
      value: BigInt(rng.int(1, 1_000_000)),
      gasLimit: 21_000n,
    });
  const increment = (sender: Sender, url: string, rng: Rng) =>
    sender.sign(url, {
      to: counter,
      data: counterInterface.encodeFunctionData('increment', [BigInt(rng.int(1, 100))]),
      gasLimit: 120_000n,
    });

  /** A sender loop on the victim until `until` is set: singles and batches, transfers and Counter calls. */
  const senderLoop = async (
    sender: Sender,
    rng: Rng,
    stop: { stopped: boolean },
    reorgable: () => boolean,
    inFlight: { n: number },
  ) => {
    const url = victim!.url;
    while (!stop.stopped) {
      const size = rng.chance(0.3) ? rng.int(2, quick ? 6 : 16) : 1;
      const raws: string[] = [];
      const logs: boolean[] = [];
      for (let i = 0; i < size; i++) {
        const withLogs = rng.chance(0.4);
        raws.push(await (withLogs ? increment(sender, url, rng) : transfer(sender, url, rng)));
        logs.push(withLogs);
      }
      inFlight.n++;
      try {
        await sendAndRecord(url, sender, raws, reorgable(), logs);
      } finally {
        inFlight.n--;
      }
    }
  };

  /** Runs `work` in the background and SIGKILLs the victim after `delayMs` (or once `trigger` resolves). */
  const killDuring = async (
    work: (stop: { stopped: boolean }, inFlight: { n: number }) => Promise<unknown>[],
    trigger: Promise<unknown>,
  ) => {
    const stop = { stopped: false };
    const inFlight = { n: 0 };
    const tasks = work(stop, inFlight).map((p) => p.catch((err: Error) => err));
    await trigger;
    const busy = inFlight.n > 0;
    stop.stopped = true;
    await sigkill(victim!);
    if (busy) killsInFlight++;
    const results = await Promise.all(tasks);
    const errors = results.filter((r) => r instanceof Error) as Error[];
    // Errors from the kill itself (a refused or cut connection) are expected; anything else is worth seeing.
    for (const err of errors)
      if (!/fetch failed|aborted|ECONNRE|socket|terminated/i.test(err.message)) log(`  load error: ${err.message}`);
    return { busy, errors };
  };

  const headOf = (url: string) => rpc<Block>(url, 'eth_getBlockByNumber', ['latest', false]);

  const markReorgable = (above: number) => {
    for (const r of records.values()) if (r.blockNumber > above) r.reorgable = true;
  };

  const waitUntil = async (
    what: string,
    condition: () => Promise<boolean>,
    timeoutMs: number,
  ): Promise<string | undefined> => {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      try {
        if (await condition()) return undefined;
      } catch (err) {
        last = (err as Error).message;
      }
      await sleep(50);
    }
    return `timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${last})` : ''}`;
  };

  /** Link the source to the victim and wait until both have one head (the victim's: it is made the heavier first). */
  const levelSourceWithVictim = async (): Promise<void> => {
    const victimId = nodeIdOf(victim!.enode!);
    if (apart) {
      await rpc(source!.url, 'net_removeFromBlacklist', [victimId]).catch(() => undefined);
      apart = false;
    }
    const [vh, sh] = [await headOf(victim!.url), await headOf(source!.url)];
    if (vh.hash !== sh.hash && BigInt(sh.totalDifficulty) >= BigInt(vh.totalDifficulty)) {
      const extra =
        Number((BigInt(sh.totalDifficulty) - BigInt(vh.totalDifficulty)) / BigInt(vh.difficulty || '0x1')) + 2;
      await rpc(victim!.url, 'qa_mineBlocks', [extra, false]);
    }
    await rpc(source!.url, 'net_connectToPeer', [victim!.enode]);
    const late = await waitUntil(
      'the source to reach the victim head',
      async () => (await headOf(source!.url)).hash === (await headOf(victim!.url)).hash,
      120_000,
    );
    if (late) throw new Error(`source could not level with the victim: ${late}`);
  };

  const separate = async (): Promise<void> => {
    if (apart) return;
    await rpc(source!.url, 'net_addToBlacklist', [nodeIdOf(victim!.enode!), 86_400, 'crash loop: kept apart']);
    apart = true;
    await waitUntil(
      'the source to drop the victim',
      async () => Number(await rpc<string>(source!.url, 'net_peerCount')) === 0,
      10_000,
    );
  };

  const relink = async (): Promise<void> => {
    await rpc(source!.url, 'net_removeFromBlacklist', [nodeIdOf(victim!.enode!)]).catch(() => undefined);
    apart = false;
    await rpc(victim!.url, 'net_connectToPeer', [source!.enode]);
  };

  // ------------------------------------------------------------------ scenarios

  const runMining = async (rng: Rng) => {
    const delay = rng.int(100, quick ? 1500 : 3000);
    return killDuring(
      (stop, inFlight) => [
        (async () => {
          while (!stop.stopped) {
            const pick = rng.int(0, 9);
            inFlight.n++;
            try {
              if (pick < 5) await rpc(victim!.url, 'qa_mineBlocks', [rng.int(50, quick ? 400 : 1500), false]);
              else if (pick < 8) await rpc(victim!.url, 'test_mineBlocks', [rng.int(2, 40)]);
              else await rpc(victim!.url, 'qa_mineBlocks', [rng.int(1, 20), true]);
            } finally {
              inFlight.n--;
            }
          }
        })(),
        senderLoop(senders[0], Rng.forCase(options.seed, kill * 16 + 1), stop, () => false, inFlight),
      ],
      sleep(delay),
    );
  };

  const runSends = async (rng: Rng) => {
    const delay = rng.int(100, quick ? 1500 : 2500);
    const count = rng.int(2, senders.length);
    return killDuring(
      (stop, inFlight) =>
        senders
          .slice(0, count)
          .map((s, i) => senderLoop(s, Rng.forCase(options.seed, kill * 16 + 2 + i), stop, () => false, inFlight)),
      sleep(delay),
    );
  };

  const runSync = async (rng: Rng) => {
    await levelSourceWithVictim();
    await separate();
    const start = Number((await headOf(victim!.url)).number);
    const target = rng.int(quick ? 80 : 200, quick ? 200 : 800);
    // The source mines ahead: bulk empty blocks and blocks with transfers and Counter logs.
    const sourceTxs: string[] = [];
    while (Number((await headOf(source!.url)).number) < start + target) {
      if (rng.chance(0.5)) {
        const n = rng.int(1, 6);
        for (let i = 0; i < n; i++) {
          const raw = await (rng.chance(0.5)
            ? increment(sourceSender, source!.url, rng)
            : transfer(sourceSender, source!.url, rng));
          try {
            sourceTxs.push(await rpc<string>(source!.url, 'eth_sendRawTransaction', [raw]));
          } catch (err) {
            log(`  source send refused: ${(err as Error).message}`);
            sourceSender.forget();
          }
        }
        await rpc(source!.url, 'qa_mineBlocks', [1, true]);
      } else {
        await rpc(source!.url, 'qa_mineBlocks', [rng.int(10, quick ? 60 : 200), false]);
      }
    }
    const sourceHead = Number((await headOf(source!.url)).number);
    const killAt = rng.int(start + 1, sourceHead - 1);
    log(`  sync: victim at ${start}, source at ${sourceHead}, kill once the victim passes ${killAt}`);
    await relink();
    let reached = false;
    return killDuring(
      (stop, inFlight) => [
        (async () => {
          // Receipts of the source's transactions as the victim serves them during the sync.
          while (!stop.stopped) {
            inFlight.n++;
            try {
              const pending = sourceTxs.filter((h) => !records.has(h)).slice(0, 50);
              const answers = await rpcBatch<{ blockHash: string; blockNumber: string; logs: unknown[] } | null>(
                victim!.url,
                pending.map((h) => ['eth_getTransactionReceipt', [h]] as const),
              );
              answers.forEach((a, i) => {
                if (a.ok && a.result !== null) {
                  records.set(pending[i], {
                    tx: pending[i],
                    blockHash: a.result.blockHash,
                    blockNumber: Number(a.result.blockNumber),
                    reorgable: false,
                    hasLogs: a.result.logs.length > 0,
                    round: kill,
                  });
                }
              });
            } finally {
              inFlight.n--;
            }
            await sleep(20);
          }
        })(),
      ],
      (async () => {
        const late = await waitUntil(
          'the victim to pass the kill height',
          async () => Number(await rpc<string>(victim!.url, 'eth_blockNumber')) >= killAt,
          60_000,
        );
        if (late) notes.push(`kill ${kill} (sync): ${late}; killed anyway`);
        reached = late === undefined;
        await sleep(rng.int(0, 30));
      })(),
    ).then((r) => ({ ...r, reached }));
  };

  const runReorg = async (rng: Rng) => {
    const head = await headOf(victim!.url);
    const headNumber = Number(head.number);
    const depth = Math.max(1, Math.min(quick ? 8 : 25, headNumber - floor - 1));
    const r = rng.int(1, depth);
    const forkAt = headNumber - r;
    const variant = rng.pick(['rewind', 'side', 'peer'] as const);
    const extra = rng.int(1, quick ? 10 : 30);
    // Everything above the fork point may now leave the canonical chain, and so may what the round itself records.
    markReorgable(forkAt);
    log(`  reorg (${variant}): head ${headNumber}, fork at ${forkAt}, new branch ${r + extra} blocks`);
    if (variant === 'peer') {
      await levelSourceWithVictim();
      await separate();
      const parent = await rpc<Block>(source!.url, 'eth_getBlockByNumber', [toQuantity(forkAt), false]);
      await rpc(source!.url, 'qa_mineBlocks', [r + extra, false, parent.hash]);
      await relink();
      return killDuring(() => [], sleep(rng.int(0, quick ? 1500 : 2500)));
    }
    const delay = rng.int(0, quick ? 1200 : 2000);
    return killDuring(
      (stop, inFlight) => [
        (async () => {
          inFlight.n++;
          try {
            if (variant === 'rewind') {
              await rpc(victim!.url, 'test_rewindToBlock', [toQuantity(forkAt)]);
              await rpc(victim!.url, 'qa_mineBlocks', [r + extra, false]);
            } else {
              const parent = await rpc<Block>(victim!.url, 'eth_getBlockByNumber', [toQuantity(forkAt), false]);
              await rpc(victim!.url, 'qa_mineBlocks', [r + extra, false, parent.hash]);
            }
          } finally {
            inFlight.n--;
          }
        })(),
        senderLoop(senders[1], Rng.forCase(options.seed, kill * 16 + 9), stop, () => true, inFlight),
      ],
      sleep(delay),
    );
  };

  // ------------------------------------------------------------------ checks after a restart

  const checkReceipts = async (url: string, killedWritingBehind: boolean) => {
    const list = [...records.values()];
    const answers = await rpcChunked<{ blockHash: string; blockNumber: string } | null>(
      url,
      list.map((r) => ['eth_getTransactionReceipt', [r.tx]] as const),
    );
    const problems: string[] = [];
    const suspects: { record: ReceiptRecord; now: { blockHash: string; blockNumber: string } | null }[] = [];
    list.forEach((record, i) => {
      const a = answers[i];
      if (!a.ok) problems.push(`receipt of ${record.tx}: ${a.error}`);
      else if (
        a.result === null ||
        a.result.blockHash !== record.blockHash ||
        Number(a.result.blockNumber) !== record.blockNumber
      ) {
        suspects.push({ record, now: a.result });
      }
    });
    for (const { record, now } of suspects) {
      // Write-behind: what the kill's round answered may be gone with its block, never its block without it.
      if (killedWritingBehind && record.round === kill && now === null) {
        const block = await rpc<Block | null>(url, 'eth_getBlockByHash', [record.blockHash, false]);
        if (block === null) {
          lostInTail++;
          records.delete(record.tx);
          continue;
        }
      }
      const canonical = await rpc<Block | null>(url, 'eth_getBlockByNumber', [toQuantity(record.blockNumber), false]);
      const what = `receipt of ${record.tx} (block ${record.blockNumber} ${record.blockHash}, recorded before kill ${record.round})`;
      if (canonical?.hash === record.blockHash) {
        problems.push(
          `${what}: its block is canonical but the receipt is ${now === null ? 'missing' : `in block ${Number(now.blockNumber)} ${now.blockHash}`}`,
        );
        continue;
      }
      if (!record.reorgable) {
        problems.push(
          `${what}: its block left the canonical chain (now ${canonical?.hash ?? 'no block'} at that height) though no reorg ran there`,
        );
        continue;
      }
      // Legitimately reorged out: the side block must still be stored with this receipt.
      const side = await rpc<{ transactionHash: string }[] | null>(url, 'eth_getBlockReceipts', [record.blockHash]);
      if (side === null || !side.some((x) => x.transactionHash === record.tx)) {
        problems.push(
          `${what}: reorged out, and the side block ${side === null ? 'is not stored' : 'lacks the receipt'}`,
        );
        continue;
      }
      reorgedOut++;
      if (now !== null) {
        remined++;
        record.blockHash = now.blockHash;
        record.blockNumber = Number(now.blockNumber);
        record.reorgable = false;
      } else {
        records.delete(record.tx);
      }
    }
    check(
      'receipts',
      problems.length === 0,
      problems.length === 0 ? `${list.length} receipts` : `${problems.length} problem(s); first: ${problems[0]}`,
    );
  };

  const checkLogs = async (url: string, rng: Rng) => {
    const withLogs = [...records.values()].filter((r) => r.hasLogs);
    const recent = withLogs.filter((r) => r.round >= kill - 1);
    const older = withLogs.filter((r) => r.round < kill - 1);
    const sample = [...recent.slice(-25), ...Array.from({ length: Math.min(10, older.length) }, () => rng.pick(older))];
    const problems: string[] = [];
    for (const record of sample) {
      const logs = await rpc<{ transactionHash: string; blockHash: string }[]>(url, 'eth_getLogs', [
        { fromBlock: toQuantity(record.blockNumber), toBlock: toQuantity(record.blockNumber), address: counter },
      ]);
      if (!logs.some((l) => l.transactionHash === record.tx && l.blockHash === record.blockHash)) {
        problems.push(
          `eth_getLogs for block ${record.blockNumber} has no log of ${record.tx} (recorded before kill ${record.round})`,
        );
      }
    }
    check('logs', problems.length === 0, problems.length === 0 ? `${sample.length} sampled` : problems[0]);
  };

  const checkHeadAndState = async (url: string, offlineHead: string | undefined) => {
    const head = await headOf(url);
    check(
      'restart-head',
      offlineHead === undefined || head.hash === offlineHead,
      `served ${Number(head.number)} ${head.hash}, on disk ${offlineHead}`,
    );
    const [byHash, byNumber] = await Promise.all([
      rpc<Block | null>(url, 'eth_getBlockByHash', [head.hash, false]),
      rpc<Block | null>(url, 'eth_getBlockByNumber', [head.number, false]),
    ]);
    const parent =
      Number(head.number) > 0 ? await rpc<Block | null>(url, 'eth_getBlockByHash', [head.parentHash, false]) : head;
    check(
      'head-stored',
      byHash?.hash === head.hash && byNumber?.hash === head.hash && parent !== null,
      `latest ${head.hash}; by hash ${byHash?.hash ?? 'null'}; by number ${byNumber?.hash ?? 'null'}; parent ${parent === null ? 'missing' : 'stored'}`,
    );
    try {
      const at = { blockHash: head.hash };
      const balances = await rpcBatch<string>(
        url,
        DEV_ACCOUNTS.map((a) => ['eth_getBalance', [a.address, at]] as const),
      );
      const proof = await rpc<{ storageHash: string; storageProof: unknown[] }>(url, 'eth_getProof', [
        counter,
        ['0x0'],
        head.number,
      ]);
      const code = await rpc<string>(url, 'eth_getCode', [counter, head.number]);
      const bad = balances.find((b) => !b.ok);
      check(
        'head-state',
        bad === undefined && code.length > 2 && proof.storageProof.length === 1,
        bad && !bad.ok ? bad.error : `code ${code.length} chars`,
      );
    } catch (err) {
      check(
        'head-state',
        false,
        `state reads at the head ${Number(head.number)} ${head.hash}: ${(err as Error).message}`,
      );
    }
  };

  const checkContinues = async (url: string, rng: Rng) => {
    try {
      const before = await headOf(url);
      await rpc(url, 'qa_mineBlocks', [1, false]);
      const mined = await rpc<Block | null>(url, 'eth_getBlockByNumber', [
        toQuantity(Number(before.number) + 1),
        false,
      ]);
      const sender = senders[rng.int(0, senders.length - 1)];
      await sender.refresh(url);
      const recorded = await sendAndRecord(url, sender, [await transfer(sender, url, rng)], false, [false], kill + 1);
      const after = await headOf(url);
      check(
        'continues',
        mined !== null &&
          mined.parentHash === before.hash &&
          recorded === 1 &&
          Number(after.number) === Number(before.number) + 2,
        `head ${Number(before.number)} → mined ${mined === null ? 'nothing served' : `${Number(mined.number)} on ${mined.parentHash === before.hash ? 'the head' : mined.parentHash}`}, send recorded ${recorded}, head now ${Number(after.number)}`,
      );
    } catch (err) {
      check('continues', false, (err as Error).message);
    }
  };

  try {
    source = await startNode({
      args: ['--datadir', sourceDir, '--testmode', '--p2p', '--no-mine'],
      timeoutMs: 120_000,
    });
    const sourceNode = source;
    liveNodes.add(sourceNode);
    sourceNode.child.once('exit', () => liveNodes.delete(sourceNode));
    ({ node: victim } = await startVictim(writeBehindAt(1)));
    gasPrice = BigInt(await rpc<string>(victim.url, 'eth_gasPrice'));
    // The Counter contract every "sends" round calls (deployed before the first kill).
    const deployer = senders[5];
    const deployRaw = await deployer.wallet.signTransaction({
      type: 0,
      chainId: CHAIN_ID,
      nonce: Number(await rpc<string>(victim.url, 'eth_getTransactionCount', [deployer.wallet.address, 'pending'])),
      gasPrice,
      gasLimit: 1_000_000n,
      data: Counter.bytecode + counterInterface.encodeDeploy([1n]).slice(2),
    });
    const deployHash = await rpc<string>(victim.url, 'eth_sendRawTransaction', [deployRaw]);
    const deployed = await rpc<{ contractAddress: string; blockNumber: string; blockHash: string }>(
      victim.url,
      'eth_getTransactionReceipt',
      [deployHash],
    );
    counter = deployed.contractAddress;
    floor = Number(deployed.blockNumber);
    // Reorg rounds fork above the Counter's block; two blocks above it leave room for the shallowest one.
    await rpc(victim.url, 'qa_mineBlocks', [2, false]);
    records.set(deployHash, {
      tx: deployHash,
      blockHash: deployed.blockHash,
      blockNumber: floor,
      reorgable: false,
      hasLogs: false,
      round: 0,
    });
    apart = false;
    await rpc(source.url, 'net_addToBlacklist', [nodeIdOf(victim.enode!), 86_400, 'crash loop: kept apart']);
    apart = true;
    log(`crashloop: seed ${options.seed}, ${options.kills} kills (${plan.join(' ')}), datadirs in ${baseDir}`);

    for (kill = 1; kill <= plan.length; kill++) {
      scenario = plan[kill - 1];
      const rng = Rng.forCase(options.seed, kill);
      const roundStart = performance.now();
      const before = Number((await headOf(victim.url)).number);
      const killedWritingBehind = victimWritesBehind;
      if (killedWritingBehind) writeBehindKills++;
      log(
        `kill ${kill}/${plan.length}: ${scenario} (head ${before}; ${killedWritingBehind ? 'write-behind' : 'durable writes'})`,
      );
      const result =
        scenario === 'mining'
          ? await runMining(rng)
          : scenario === 'sends'
            ? await runSends(rng)
            : scenario === 'sync'
              ? await runSync(rng)
              : await runReorg(rng);
      const peered = !apart;
      // Kept apart while the restarted node is checked as the kill left it (the source would redial it).
      if (peered) await separate();

      // Offline: the datadir as the kill left it, through the engine's own storage code.
      const offline = await checkDatadirOffline(victimDir);
      for (const category of OFFLINE_CATEGORIES) {
        const failed = offline.failures[category];
        check(`offline-${category}`, failed.length === 0, failed.length === 0 ? undefined : failed.join(' | '));
      }

      let restarted: Awaited<ReturnType<typeof startVictim>>;
      try {
        restarted = await startVictim(writeBehindAt(kill + 1));
      } catch (err) {
        check('restart', false, (err as Error).message);
        throw new Error(`the victim does not restart after kill ${kill}: ${(err as Error).message}`);
      }
      victim = restarted.node;
      restartMs.push(restarted.firstAnswerMs);
      check('restart', true);
      const url = victim.url;
      for (const s of senders) s.forget();
      await checkHeadAndState(url, offline.head?.hash);
      await checkReceipts(url, killedWritingBehind);
      await checkLogs(url, rng);
      if (peered) {
        // The victim was linked to the source when killed: sync must resume and end on one head.
        await relink();
        const late = await waitUntil(
          'the victim and the source to agree on the head',
          async () => (await headOf(url)).hash === (await headOf(source!.url)).hash,
          120_000,
        );
        check('sync-resumes', late === undefined, late);
        await separate();
      }
      await checkContinues(url, rng);
      const head = await headOf(url);
      log(
        `  ${scenario}: killed ${'busy' in result && result.busy ? 'mid-request' : 'between requests'}; head ${before} → ${Number(head.number)}; ` +
          `offline ${offline.durationMs.toFixed(0)} ms (${offline.counts.canonicalBlocks} blocks, ${offline.counts.logPostings} log postings, ` +
          `${offline.counts.addressEntries} address entries, ${offline.counts.txLookups} tx lookups, ${offline.counts.accounts} accounts); ` +
          `restart ${restarted.firstAnswerMs.toFixed(0)} ms; round ${((performance.now() - roundStart) / 1000).toFixed(1)} s`,
      );
    }
    finalHead = Number((await headOf(victim.url)).number);
  } catch (err) {
    check('loop', false, `the loop stopped: ${(err as Error).stack ?? String(err)}`);
  } finally {
    await Promise.all(
      [victim, source].filter((n): n is NodeProcess => n !== undefined).map((n) => n.stop().catch(() => undefined)),
    );
  }

  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length === 0 && options.keep !== true) rmSync(baseDir, { recursive: true, force: true });
  const byName: Record<string, { passed: number; failed: number }> = {};
  for (const o of outcomes) {
    byName[o.name] ??= { passed: 0, failed: 0 };
    byName[o.name][o.ok ? 'passed' : 'failed']++;
  }
  const perScenario = Object.fromEntries(
    SCENARIOS.map((s) => [s, plan.slice(0, Math.max(0, kill - 1)).filter((p) => p === s).length]),
  ) as Record<Scenario, number>;
  return {
    seed: options.seed,
    kills: Math.min(plan.length, Math.max(0, kill - 1)),
    perScenario,
    killsInFlight,
    checks: { passed: outcomes.length - failed.length, failed: failed.length, byName },
    ...(failed.length > 0 ? { firstFailure: failed[0] } : {}),
    totalMs: performance.now() - started,
    restartMs,
    restartMedianMs: median(restartMs),
    receipts: { tracked: records.size, reorgedOut, remined, lostInTail },
    writeBehindKills,
    finalHead,
    baseDir,
    notes,
  };
}

export function formatReport(report: CrashLoopReport): string {
  const lines = [
    `crashloop report (seed ${report.seed}; replay: npm run crashloop -- --kills ${report.kills} --seed ${report.seed})`,
    `  kills: ${report.kills} (${SCENARIOS.map((s) => `${s} ${report.perScenario[s]}`).join(', ')}); ${report.killsInFlight} landed mid-request`,
    `  checks: ${report.checks.passed} passed, ${report.checks.failed} failed`,
    ...Object.entries(report.checks.byName).map(
      ([name, c]) => `    ${name.padEnd(22)} ${c.passed} passed${c.failed > 0 ? `, ${c.failed} FAILED` : ''}`,
    ),
    `  receipts tracked: ${report.receipts.tracked} (reorged out legitimately and found on their side block: ${report.receipts.reorgedOut}, of which re-mined: ${report.receipts.remined}; lost with their unwritten block at a write-behind kill: ${report.receipts.lostInTail})`,
    `  write-behind: ${report.writeBehindKills} of ${report.kills} kills hit a victim writing behind (the others answered only what was on disk)`,
    `  final head: ${report.finalHead}`,
    `  total time: ${(report.totalMs / 1000).toFixed(1)} s; restart to first eth_blockNumber: median ${report.restartMedianMs.toFixed(0)} ms` +
      (report.restartMs.length > 0
        ? ` (min ${Math.min(...report.restartMs).toFixed(0)}, max ${Math.max(...report.restartMs).toFixed(0)})`
        : ''),
    ...report.notes.map((n) => `  note: ${n}`),
  ];
  if (report.firstFailure) {
    const f = report.firstFailure;
    lines.push(
      `  FIRST FAILURE: kill ${f.kill} (${f.scenario}), check ${f.name}: ${f.detail ?? ''}`,
      `  datadirs kept in ${report.baseDir}`,
    );
  }
  return lines.join('\n');
}
