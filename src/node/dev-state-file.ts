/**
 * `--state` / `--dump-state` / `--state-interval`: the dev chain's state in a file, in the dump format of
 * anvil_dumpState (chain/dev/state-dump.ts) written as Anvil's `--dump-state` writes it, plain JSON. Loaded at start
 * when present; written at stop (and every interval) to a temporary file renamed over the old one, so a crash
 * mid-write leaves the last whole file. A file that cannot be loaded stops the start and is left as it is.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import {
  type ChainEngine,
  devControlsOf,
  dumpDevState,
  loadDevState,
  preimageBookOf,
  StateDumpError,
} from '../chain/index.js';
import type { DevConfig } from './dev-config.js';
import type { Logger } from './logger.js';

export interface DevStateFile {
  /** Writes the file a last time (the stop's dump) and ends the interval. */
  close(): Promise<void>;
}

/** Loads `dev.loadFrom` when it exists; undefined when no file is to be written. */
export async function openDevStateFile(
  engine: ChainEngine,
  dev: DevConfig,
  log: Logger,
): Promise<DevStateFile | undefined> {
  if (dev.loadFrom !== undefined) await loadStateFile(engine, dev.loadFrom, log);
  const file = dev.dumpTo;
  if (file === undefined) return undefined;
  let writing: Promise<void> = Promise.resolve();
  const write = (why: string): Promise<void> => {
    writing = writing.then(() =>
      writeStateFile(engine, file).then(
        (fields) => log.info('state written', { file, why, ...fields }),
        (err: unknown) => log.warn('state not written', { file, why, error: (err as Error).message }),
      ),
    );
    return writing;
  };
  const timer = dev.stateIntervalMs > 0 ? setInterval(() => void write('interval'), dev.stateIntervalMs) : undefined;
  timer?.unref();
  return {
    async close() {
      clearInterval(timer);
      await write('stop');
    },
  };
}

async function loadStateFile(engine: ChainEngine, file: string, log: Logger): Promise<void> {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    // None yet: the first run of `--state` starts from genesis and writes it at stop.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new Error(`dev.state (--state): cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    await loadDevState(devControlsOf(engine), bytes, true);
  } catch (err) {
    if (!(err instanceof StateDumpError)) throw err;
    throw new Error(
      `dev.state (--state): ${file} is no state this node can load: ${err.reason}. The file is left as it is: ` +
        'move it away or give another --state file',
    );
  }
  log.info('state loaded', { file, head: engine.chain.getHead().header.number.toString() });
}

async function writeStateFile(engine: ChainEngine, file: string): Promise<Record<string, unknown>> {
  const dump = await dumpDevState(devControlsOf(engine), await preimageBookOf(engine));
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, JSON.stringify(dump));
    renameSync(temporary, file);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  }
  return { accounts: Object.keys(dump.accounts).length, block: dump.best_block_number };
}
