/**
 * `npx tsx bench/seal-check-replay.ts` (a diagnostic): the seal-check worker's CPU per check with nothing else of the
 * node running, on blocks recorded from the engine. Two steps:
 *   RECORD=/tmp/jobs.bin N=1200 PER=1 npx tsx bench/seal-check-replay.ts
 * mines a BenchToken deployment and N blocks of PER ERC-20 transfers each (recipients rotate over 50 addresses) in
 * the engine and writes the jobs its checker posted, with the trie nodes its worker asked for, to the file; then
 *   IN=/tmp/jobs.bin RUN=8 WARMUP=200 [ENTRY=<worker .js or .ts>] npx tsx bench/seal-check-replay.ts
 * starts the worker (default: this checkout's dist/, `node bin/build.js` first; ENTRY=<base checkout>/dist/... for an
 * A/B) and posts the jobs RUN at a time, each run after the last one's verdicts, answering its asks from the file.
 * It prints the worker thread's CPU per job after WARMUP jobs (/proc) and any verdict that was not clean. The worker
 * thread alone: `node --cpu-prof --import tsx bench/seal-check-replay.ts` writes its profile too (the largest file).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { createLegacyTx } from '@ethereumjs/tx';
import { Address, hexToBytes } from '@ethereumjs/util';
import { getCreateAddress, Interface } from 'ethers';
import type {
  FromSealWorker,
  NodeAskItem,
  SealCheckJob,
  SealCheckSetup,
} from '../src/chain/exec/seal-check-protocol.js';
import { untilSealed } from './sealed-transactions.js';

interface Recording {
  readonly setup: SealCheckSetup;
  readonly jobs: SealCheckJob[];
  /** Trie nodes by key (`n:<hex>`) and ancestor hashes by height (`h:<number>`), as the main thread answered. */
  readonly answers: [string, Uint8Array | null][];
}
const keyOf = (item: NodeAskItem): string => (item[0] === 'n' ? `n:${item[1]}` : `h:${item[2]}`);

async function record(file: string): Promise<void> {
  const { ChainEngine } = await import('../src/chain/engine/engine.js');
  const { SealChecker } = await import('../src/chain/exec/seal-checker.js');
  const { DEV_ACCOUNTS } = await import('../src/chain/networks/index.js');
  const { tempDir } = await import('../test/chain/engine/fixtures.js');
  const N = Number(process.env.N ?? 1200);
  const PER = Number(process.env.PER ?? 1);
  type Checker = {
    opts: { setup: SealCheckSetup };
    send: (jobs: SealCheckJob[]) => void;
    answerReads: (m: { id: number; items: NodeAskItem[] }) => void;
  };
  const P = SealChecker.prototype as unknown as Checker;
  const jobs: SealCheckJob[] = [];
  const answers: [string, Uint8Array | null][] = [];
  let setup: SealCheckSetup | undefined;
  const { send, answerReads } = P;
  // The asks by id, recorded with the values once the answer is posted (ancestors' hashes are answered later).
  const asked = new Map<number, NodeAskItem[]>();
  const wrapped = new WeakSet<Worker>();
  P.send = function (this: Checker & { worker?: Worker }, posted) {
    setup = this.opts.setup;
    jobs.push(...posted);
    send.call(this, posted);
    const worker = this.worker;
    if (worker === undefined || wrapped.has(worker)) return;
    wrapped.add(worker);
    const post = worker.postMessage;
    worker.postMessage = function (this: Worker, message: { kind: string; id?: number; values?: unknown[] }) {
      const items = message.kind === 'reads' ? asked.get(message.id!) : undefined;
      asked.delete(message.id!);
      for (const [i, item] of (items ?? []).entries())
        answers.push([keyOf(item), (message.values?.[i] as Uint8Array | null) ?? null]);
      post.call(this, message);
    };
  };
  P.answerReads = function (this: Checker, m: { id: number; items: NodeAskItem[] }) {
    asked.set(m.id, m.items);
    answerReads.call(this, m);
  };
  const key = hexToBytes(DEV_ACCOUNTS[1]!.privateKey as `0x${string}`);
  const dir = tempDir('seal-check-replay-');
  const engine = await ChainEngine.open({
    dataDir: dir.dir,
    network: 'dev',
    seal: 'instant',
    powCacheDir: join(tmpdir(), 'svc-node-bench-ethash'),
    mining: { coinbase: new Uint8Array(20).fill(0xcb) },
    writeBehind: true,
  });
  engine.miner.start();
  const artifact = JSON.parse(readFileSync(new URL('./contracts/BenchToken.json', import.meta.url), 'utf8'));
  const iface = new Interface(artifact.abi);
  const sender = DEV_ACCOUNTS[1]!.address;
  const token = new Address(hexToBytes(getCreateAddress({ from: sender, nonce: 0 }) as `0x${string}`));
  let nonce = 0n;
  const signed = (fields: { to?: Address; data: Uint8Array; gasLimit: bigint }) =>
    createLegacyTx(
      { nonce: nonce++, value: 0n, gasPrice: 10n ** 9n, ...fields },
      { common: engine.chain.txCommonAt(engine.chain.getHead().header.number + 1n) },
    )
      .sign(key)
      .serialize();
  const transfer = (i: number) =>
    hexToBytes(
      iface.encodeFunctionData('transfer', [
        `0x${(0x1000 + (i % 50)).toString(16).padStart(40, '0')}`,
        1n,
      ]) as `0x${string}`,
    );
  async function sendMined(raws: Uint8Array[]): Promise<void> {
    const sealed = untilSealed(engine.miner, raws.length);
    for (const raw of raws) await engine.pool.add(raw);
    await sealed;
  }
  const deploy = hexToBytes((artifact.bytecode + iface.encodeDeploy([10n ** 27n]).slice(2)) as `0x${string}`);
  await sendMined([signed({ data: deploy, gasLimit: 1_500_000n })]);
  for (let i = 0; i < N; i++)
    await sendMined(
      Array.from({ length: PER }, (_, k) => signed({ to: token, data: transfer(i * PER + k), gasLimit: 80_000n })),
    );
  await engine.chain.sealChecks!.drain();
  const { failed, errors } = engine.chain.sealChecks!.stats;
  await engine.close();
  dir.remove();
  if (setup === undefined) throw new Error('the checker posted nothing');
  // The allocation's loader is a function (no clone); the checker drops it before its worker starts too.
  const { loadAlloc: _, ...genesis } = setup.network.genesis;
  const network = { ...setup.network, genesis } as unknown as SealCheckSetup['network'];
  const recording: Recording = { setup: { ...setup, network }, jobs, answers };
  writeFileSync(file, serialize(recording));
  console.log(
    `${jobs.length} jobs and ${answers.length} answers written to ${file} (${failed} failed, ${errors} errors)`,
  );
}

async function replay(file: string): Promise<void> {
  const rec = deserialize(readFileSync(file)) as Recording;
  const entry = process.env.ENTRY ?? new URL('../dist/chain/exec/seal-check-worker.js', import.meta.url).pathname;
  const RUN = Number(process.env.RUN ?? 8);
  const WARMUP = Number(process.env.WARMUP ?? 200);
  if (rec.jobs.length <= WARMUP) throw new Error(`${rec.jobs.length} jobs recorded: fewer than WARMUP`);
  const answers = new Map(rec.answers);
  const tasks = () => readdirSync('/proc/self/task');
  const cpuMs = (tid: string) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  };
  const before = new Set(tasks());
  // A .ts entry starts as spawnSiblingWorker starts one from the sources: tsx's hooks registered inside the worker.
  const tsxApi = new URL('../node_modules/tsx/dist/esm/api/index.mjs', import.meta.url).href;
  const worker = entry.endsWith('.ts')
    ? new Worker(
        `import(${JSON.stringify(tsxApi)}).then((t) => { t.register(); return import(${JSON.stringify(entry)}); });`,
        { eval: true, execArgv: [], workerData: rec.setup },
      )
    : new Worker(entry, { workerData: rec.setup });
  let tid: string | undefined;
  let next: (() => void) | undefined;
  const unclean: string[] = [];
  worker.on('message', (m: FromSealWorker) => {
    if (m.kind === 'reads') {
      worker.postMessage({ kind: 'reads', id: m.id, values: m.items.map((item) => answers.get(keyOf(item)) ?? null) });
      return;
    }
    if (m.kind === 'ready') tid = tasks().find((t) => !before.has(t));
    else
      for (const v of m.verdicts)
        if (v.error !== undefined || v.differences.length > 0) unclean.push(v.error ?? JSON.stringify(v.differences));
    next?.();
  });
  await new Promise<void>((resolve) => (next = resolve));
  if (tid === undefined) throw new Error('the worker thread was not found');
  let cpu0 = 0;
  let timed = 0;
  for (let i = 0; i < rec.jobs.length; i += RUN) {
    if (i >= WARMUP && timed === 0) [cpu0, timed] = [cpuMs(tid), rec.jobs.length - i];
    const done = new Promise<void>((resolve) => (next = resolve));
    worker.postMessage({ kind: 'run', jobs: rec.jobs.slice(i, i + RUN) });
    await done;
  }
  console.log(
    `${entry}: RUN=${RUN}, ${timed} jobs timed: worker ${((cpuMs(tid) - cpu0) / timed).toFixed(3)} ms CPU per job; ` +
      `${unclean.length} verdicts not clean${unclean.length > 0 ? ` (first: ${unclean[0]})` : ''}`,
  );
  await worker.terminate();
}

if (process.env.RECORD !== undefined) await record(process.env.RECORD);
else if (process.env.IN !== undefined) await replay(process.env.IN);
else throw new Error('RECORD=<file> to record, IN=<file> to replay (see the header)');
