/**
 * Write workloads with signed ERC-20 transfers (signed before the clock starts):
 * - sequential: send one, wait until it is mined (automine), send the next; transfers per second;
 * - burst: hold mining, submit N transfers (spread over 4 senders), then have the node seal them; submit time,
 *   sealing time, blocks used;
 * - client ceiling, after each: the same calls with nothing sent or mined, so the harness client's own time is a
 *   figure in the report: no node can do a workload faster than its ceiling row.
 * "Mined" = the sender's `latest` transaction count caught up, which every node answers the same way.
 */
import { RECIPIENT, type Fixture } from './fixture.js';
import type { RunningTarget } from './launcher.js';
import { expectSuccess, type Sender } from './token.js';
import { CellRecorder, unavailableBecause, type Results } from './results.js';
import type { TargetId } from './targets.js';

export interface WriteOptions {
  readonly sequentialTransfers: number;
  readonly burstTransfers: number;
  readonly runs: number;
  readonly log: (line: string) => void;
}

export interface WriteTarget {
  readonly node: RunningTarget;
  readonly fixture: Fixture | undefined;
  readonly fixtureProblem?: string;
}

const SECTION = 'Writes';

const signTransfers = (fixture: Fixture, count: number) => signTransfersFrom(fixture.sender, fixture.token, count);

async function sequentialRun(fixture: Fixture, count: number): Promise<number> {
  const firstNonce = fixture.sender.nextNonce;
  const raws = await signTransfers(fixture, count);
  const started = performance.now();
  let last = '';
  for (const [i, raw] of raws.entries()) {
    last = await fixture.sender.send(raw);
    await fixture.sender.waitMinedCount(firstNonce + i + 1, 60_000, 1);
  }
  const seconds = (performance.now() - started) / 1000;
  await expectSuccess(fixture.sender.rpc, last, 1);
  return count / seconds;
}

/** The sequential workload's two calls per transfer (a cheap one in place of the send), with nothing to mine. */
async function sequentialCeiling(fixture: Fixture, count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    await fixture.sender.rpc.call('eth_chainId');
    await fixture.sender.minedCount();
  }
  return count / ((performance.now() - started) / 1000);
}

/** The burst's submissions, one call per transfer in sequence, as a cheap call: the floor of its submit time (ms). */
async function submitCeiling(fixture: Fixture, count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) await fixture.sender.rpc.call('eth_chainId');
  return performance.now() - started;
}

interface BurstSample {
  readonly submitPerSecond: number;
  readonly sealMs: number;
  readonly totalMs: number;
  readonly blocks: number;
}

async function burstRun(node: RunningTarget, fixture: Fixture, count: number): Promise<BurstSample> {
  // Round-robin over the senders, so every pool sees several accounts' nonce sequences interleaved.
  const senders = fixture.burstSenders;
  const perSender = await Promise.all(
    senders.map((s, i) => signTransfersFrom(s, fixture.token, Math.ceil((count - i) / senders.length))),
  );
  const raws: Array<{ sender: Sender; raw: string }> = [];
  for (let i = 0; raws.length < count; i++)
    raws.push({
      sender: senders[i % senders.length]!,
      raw: perSender[i % senders.length]![Math.floor(i / senders.length)]!,
    });
  const allMined = async () =>
    (await Promise.all(senders.map(async (s) => (await s.minedCount()) >= s.nextNonce))).every(Boolean);
  const headBefore = BigInt(await node.rpc.call<string>('eth_blockNumber'));
  await node.target.holdMining(node.rpc);
  const started = performance.now();
  let last = '';
  try {
    for (const { sender, raw } of raws) last = await sender.send(raw);
  } catch (err) {
    await node.target.mineHeld(node.rpc, allMined).catch(() => undefined); // leave automine on for what follows
    throw err;
  }
  const submitted = performance.now();
  await node.target.mineHeld(node.rpc, allMined);
  const sealed = performance.now();
  const headAfter = BigInt(await node.rpc.call<string>('eth_blockNumber'));
  await expectSuccess(node.rpc, last, 1);
  return {
    submitPerSecond: count / ((submitted - started) / 1000),
    sealMs: sealed - submitted,
    totalMs: sealed - started,
    blocks: Number(headAfter - headBefore),
  };
}

async function signTransfersFrom(sender: Sender, token: string, count: number): Promise<string[]> {
  const raws: string[] = [];
  for (let i = 0; i < count; i++) raws.push(await sender.signTokenTransfer(token, RECIPIENT, 1n));
  return raws;
}

export async function runWrites(
  results: Results,
  targets: readonly WriteTarget[],
  options: WriteOptions,
): Promise<void> {
  const seqLabel = `${options.sequentialTransfers} transfers, each sent and mined`;
  const burstSubmit = `${options.burstTransfers} transfers (4 senders) submitted, mining held`;
  const burstSeal = `then sealing all ${options.burstTransfers}`;
  const burstTotal = `${options.burstTransfers} transfers: submit + seal`;
  const seqCeiling = `client ceiling: ${options.sequentialTransfers} × the same 2 calls, nothing sent`;
  const burstCeiling = `client ceiling: ${options.burstTransfers} calls in sequence, nothing sent`;
  const setAll = (t: WriteTarget, why: string) => {
    results.set(SECTION, seqLabel, 'tx/s', true, t.node.target.id, { unavailable: why });
    results.set(SECTION, seqCeiling, 'tx/s', true, t.node.target.id, { unavailable: why });
    results.set(SECTION, burstSubmit, 'tx/s', true, t.node.target.id, { unavailable: why });
    results.set(SECTION, burstSeal, 'ms', false, t.node.target.id, { unavailable: why });
    results.set(SECTION, burstTotal, 'ms', false, t.node.target.id, { unavailable: why });
    results.set(SECTION, burstCeiling, 'ms', false, t.node.target.id, { unavailable: why });
  };
  const ceiling = async (
    id: TargetId,
    label: string,
    unit: string,
    higherIsBetter: boolean,
    run: () => Promise<number>,
  ) => {
    try {
      await run(); // warm-up, discarded
      const cell = new CellRecorder();
      for (let i = 0; i < options.runs; i++) cell.add({ value: await run() });
      results.set(SECTION, label, unit, higherIsBetter, id, cell.figure());
    } catch (err) {
      results.set(SECTION, label, unit, higherIsBetter, id, unavailableBecause(err));
    }
  };

  for (const t of targets) {
    const id = t.node.target.id;
    if (!t.fixture) {
      setAll(t, `no ERC-20 fixture: ${t.fixtureProblem ?? 'not prepared'}`);
      continue;
    }
    options.log(`writes: ${id}`);
    try {
      await sequentialRun(t.fixture, Math.min(20, options.sequentialTransfers)); // warm-up, discarded
      const seq = new CellRecorder();
      for (let run = 0; run < options.runs; run++)
        seq.add({ value: await sequentialRun(t.fixture, options.sequentialTransfers) });
      results.set(SECTION, seqLabel, 'tx/s', true, id, seq.figure());
      options.log(
        `  sequential ${id}: ${seq
          .figure()
          .runs.map((x) => x.toFixed(1))
          .join(', ')} tx/s`,
      );
    } catch (err) {
      await t.fixture.sender.resync();
      results.set(SECTION, seqLabel, 'tx/s', true, id, unavailableBecause(err));
      options.log(`  sequential ${id}: ${unavailableBecause(err).unavailable}`);
    }
    await ceiling(id, seqCeiling, 'tx/s', true, () => sequentialCeiling(t.fixture!, options.sequentialTransfers));
    try {
      const submit = new CellRecorder();
      const seal = new CellRecorder();
      const total = new CellRecorder();
      const blocks: number[] = [];
      for (let run = 0; run < options.runs; run++) {
        const s = await burstRun(t.node, t.fixture, options.burstTransfers);
        submit.add({ value: s.submitPerSecond });
        seal.add({ value: s.sealMs });
        total.add({ value: s.totalMs });
        blocks.push(s.blocks);
        options.log(
          `  burst ${id}: submit ${s.submitPerSecond.toFixed(0)} tx/s, seal ${s.sealMs.toFixed(0)} ms in ${s.blocks} block(s)`,
        );
      }
      const blockNote = `${[...new Set(blocks)].join('/')} block(s)`;
      results.set(SECTION, burstSubmit, 'tx/s', true, id, submit.figure());
      results.set(SECTION, burstSeal, 'ms', false, id, seal.figure(blockNote));
      results.set(SECTION, burstTotal, 'ms', false, id, total.figure(blockNote));
    } catch (err) {
      for (const sender of t.fixture.burstSenders) await sender.resync();
      const cell = unavailableBecause(err);
      options.log(`  burst ${id}: ${cell.unavailable}`);
      results.set(SECTION, burstSubmit, 'tx/s', true, id, cell);
      results.set(SECTION, burstSeal, 'ms', false, id, cell);
      results.set(SECTION, burstTotal, 'ms', false, id, cell);
    }
    await ceiling(id, burstCeiling, 'ms', false, () => submitCeiling(t.fixture!, options.burstTransfers));
  }
}
