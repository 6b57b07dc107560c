/**
 * Our own node record and its sequence number. EIP-778 wants `seq` to grow whenever the record changes (a new
 * address, port or fork id), also across restarts, so the last published content and seq are kept in
 * `<datadir>/node-record.json`; an unreadable file only means starting from a fresh seq.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ForkId } from '../fork-id.js';
import { buildRecord, type NodeRecord } from './enr.js';

export interface RecordFields {
  readonly ip?: string;
  readonly tcp: number;
  readonly udp: number;
  readonly forkId: ForkId;
}

const FILE = 'node-record.json';

function fingerprint(f: RecordFields): string {
  return JSON.stringify([f.ip ?? null, f.tcp, f.udp, Buffer.from(f.forkId.hash).toString('hex'), `${f.forkId.next}`]);
}

export class LocalRecord {
  #record: NodeRecord;
  #fingerprint: string;

  constructor(
    private readonly privateKey: Uint8Array,
    private readonly datadir: string,
    fields: RecordFields,
  ) {
    let stored: { seq?: string; fingerprint?: string } = {};
    try {
      stored = JSON.parse(readFileSync(join(datadir, FILE), 'utf8')) as typeof stored;
    } catch {
      // First start, or a damaged file: the seq starts over from the clock, still above any earlier one.
    }
    this.#fingerprint = fingerprint(fields);
    const storedSeq = /^\d+$/.test(stored.seq ?? '') ? BigInt(stored.seq!) : undefined;
    const seq =
      storedSeq === undefined
        ? BigInt(Math.floor(Date.now() / 1000))
        : stored.fingerprint === this.#fingerprint
          ? storedSeq
          : storedSeq + 1n;
    this.#record = this.#build(seq, fields);
  }

  get record(): NodeRecord {
    return this.#record;
  }

  /** Rebuilds the record with a higher seq when anything in it changed; true when it did. */
  update(fields: RecordFields): boolean {
    const next = fingerprint(fields);
    if (next === this.#fingerprint) return false;
    this.#fingerprint = next;
    this.#record = this.#build(this.#record.seq + 1n, fields);
    return true;
  }

  #build(seq: bigint, fields: RecordFields): NodeRecord {
    const record = buildRecord(this.privateKey, { seq, ...fields });
    try {
      const file = join(this.datadir, FILE);
      writeFileSync(`${file}.tmp`, JSON.stringify({ seq: `${seq}`, fingerprint: this.#fingerprint }));
      renameSync(`${file}.tmp`, file);
    } catch {
      // Not fatal: the record is still served; only the seq may repeat after a restart.
    }
    return record;
  }
}
