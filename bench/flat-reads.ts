/**
 * Reads of a large state with and without the flat state (issue 39), in one process on a copy of a serving chain
 * built by bench/snap-chain.ts (its fresh accounts are `freshAddress(i)`):
 *   1. eth_getBalance of random accounts at 'latest' (`chain.stateAt('latest').getBalance`, the handler's path),
 *   2. eth_call at 'latest' of init code reading the BALANCE of 4 random accounts (`chain.call`, the handler's path),
 *   each with 16 in flight, requests per second and CPU per request (median of the runs);
 *   3. snap/1 serving: GetAccountRange over the whole state in 512 KiB answers, then GetStorageRanges of every account
 *   with storage, 8 accounts per request, CPU per account and per slot.
 *   npx tsx bench/flat-reads.ts --source <serving chain datadir> --accounts N [--seconds 3] [--runs 3]
 * The same file runs on code without a flat state (then the trie is read), for before/after figures.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { RLP } from '@ethereumjs/rlp';
import { concatBytes } from '@ethereumjs/util';
import { openDevChain } from '../test/chain/engine/fixtures.js';
import { SnapServer } from '../src/p2p/snap/serve.js';
import {
  decodeAccountRange,
  decodeStorageRanges,
  encodeGetAccountRange,
  encodeGetStorageRanges,
  SnapCode,
} from '../src/p2p/snap/messages.js';
import { freshAddress } from './snap-chain.js';

const { values } = parseArgs({
  options: {
    source: { type: 'string' },
    accounts: { type: 'string' },
    seconds: { type: 'string', default: '3' },
    runs: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    /** Only the snap serving part (for profiles). */
    'snap-only': { type: 'boolean', default: false },
    /** Writes a CPU profile of the snap serving part to this file. */
    profile: { type: 'string' },
  },
});
if (values.source === undefined || values.accounts === undefined) throw new Error('--source and --accounts are needed');
const accounts = Number(values.accounts);
const seconds = Number(values.seconds);
const runs = Number(values.runs);
const concurrency = Number(values.concurrency);

const work = mkdtempSync(join(tmpdir(), 'flat-reads-'));
const dataDir = join(work, 'data');
cpSync(values.source, dataDir, { recursive: true });
const chain = await openDevChain(dataDir);
const out = (line: string) => process.stdout.write(`${line}\n`);
try {
  const head = chain.getHead().header;
  // Code with a flat state has one on the chain view (FlatTable); before it, the trie is read.
  const flat = (chain as unknown as { view: { flat?: { covers(root: Uint8Array): boolean } } }).view.flat;
  const hasFlat = flat !== undefined;
  if (hasFlat) {
    const started = performance.now();
    while (!flat.covers(head.stateRoot)) await new Promise((r) => setTimeout(r, 200));
    out(`flat state ready after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  out(`state: ${accounts} fresh accounts, head ${head.number}, flat state ${hasFlat ? 'on' : 'absent'}`);

  let seed = 12345;
  const randomAccount = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return freshAddress(seed % accounts).bytes;
  };
  const getBalance = async () => {
    const view = (await chain.stateAt('latest'))!;
    await view.getBalance(randomAccount());
  };
  /** PUSH20 a BALANCE POP, four times, then STOP. */
  const ethCall = async () => {
    const parts: Uint8Array[] = [];
    for (let i = 0; i < 4; i++) parts.push(Uint8Array.of(0x73), randomAccount(), Uint8Array.of(0x31, 0x50));
    const r = await chain.call('latest', { data: concatBytes(...parts, Uint8Array.of(0x00)), gas: 1_000_000n });
    if (r === undefined || r.error !== undefined) throw new Error(`eth_call failed: ${r?.error}`);
  };

  const measure = async (name: string, request: () => Promise<void>) => {
    const until = performance.now() + 1000;
    while (performance.now() < until) await request();
    const rates: number[] = [];
    const cpus: number[] = [];
    for (let run = 0; run < runs; run++) {
      let done = 0;
      const end = performance.now() + seconds * 1000;
      const cpu = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < end) {
            await request();
            done++;
          }
        }),
      );
      const used = process.cpuUsage(cpu);
      rates.push(done / ((performance.now() - started) / 1000));
      cpus.push((used.user + used.system) / done);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    out(
      `${name} ×${concurrency}: ${median(rates).toFixed(0)} req/s (runs ${rates.map((r) => r.toFixed(0)).join(', ')}), ` +
        `${median(cpus).toFixed(0)} CPU µs/req`,
    );
  };
  if (!values['snap-only']) {
    await measure('eth_getBalance', getBalance);
    await measure('eth_call (4 × BALANCE)', ethCall);
  }

  // ---- snap serving
  const session = values.profile === undefined ? undefined : new Session();
  if (session !== undefined) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const server = new SnapServer(chain);
  const bytes = 512n * 1024n;
  const max = new Uint8Array(32).fill(0xff);
  let origin = new Uint8Array(32);
  let served = 0;
  const withStorage: Uint8Array[] = [];
  // CPU and wall of the serving calls only (decoding the answers here is not the server's work).
  let cpuMicros = 0;
  let wallMs = 0;
  const timed = async <T>(serve: () => Promise<T>): Promise<T> => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const reply = await serve();
    const used = process.cpuUsage(cpu);
    cpuMicros += used.user + used.system;
    wallMs += performance.now() - started;
    return reply;
  };
  const answers: Uint8Array[][] = [];
  for (;;) {
    const request = encodeGetAccountRange({ requestId: 1n, root: head.stateRoot, origin, limit: max, bytes });
    const reply = await timed(() => server.serve(SnapCode.GetAccountRange, request));
    const res = decodeAccountRange(reply!.payload);
    if (res.accounts.length === 0) break;
    served += res.accounts.length;
    answers.push(res.accounts.map((a) => a.hash));
    for (const a of res.accounts) if ((RLP.decode(a.body) as Uint8Array[])[2]!.length > 0) withStorage.push(a.hash);
    const last = res.accounts.at(-1)!.hash;
    if (Buffer.compare(last, max) === 0) break;
    origin = Uint8Array.from(
      Buffer.from((BigInt(`0x${Buffer.from(last).toString('hex')}`) + 1n).toString(16).padStart(64, '0'), 'hex'),
    );
    if (res.proof.length === 0) break;
  }
  out(
    `snap GetAccountRange: ${served} accounts in ${answers.length} answers, ${(wallMs / 1000).toFixed(1)} s wall, ` +
      `${(cpuMicros / served).toFixed(1)} CPU µs/account`,
  );
  cpuMicros = 0;
  wallMs = 0;
  let slots = 0;
  for (let i = 0; i < withStorage.length; i += 8) {
    const request = encodeGetStorageRanges({
      requestId: 2n,
      root: head.stateRoot,
      accounts: withStorage.slice(i, i + 8),
      origin: new Uint8Array(0),
      limit: new Uint8Array(0),
      bytes,
    });
    const reply = await timed(() => server.serve(SnapCode.GetStorageRanges, request));
    for (const range of decodeStorageRanges(reply!.payload).slots) slots += range.length;
  }
  out(
    `snap GetStorageRanges: ${withStorage.length} accounts, ${slots} slots, ${(wallMs / 1000).toFixed(1)} s wall, ` +
      `${(cpuMicros / Math.max(1, slots)).toFixed(2)} CPU µs/slot`,
  );
  if (session !== undefined) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(values.profile!, JSON.stringify(profile));
  }
} finally {
  await chain.close();
  rmSync(work, { recursive: true, force: true });
}
