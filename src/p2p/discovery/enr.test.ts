import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildRecord, decodeRecord, recordFromText, recordToText } from './enr.js';
import { LocalRecord } from './local-record.js';

/** EIP-778's example: this key, seq 1, ip 127.0.0.1, udp 30303 gives exactly this text. */
const EIP778_KEY = Buffer.from('b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291', 'hex');
const EIP778_TEXT =
  'enr:-IS4QHCYrYZbAKWCBRlAy5zzaDZXJBGkcnh4MHcBFZntXNFrdvJjX04jRzjzCBOonrkTfj499SZuOh8R33Ls8RRcy5wBgmlkgnY0gmlwhH8AAAGJc2VjcDI1NmsxoQPKY0yuDUmstAHYpMa2_oxVtw0RW_QAdpzBQA8yWM0xOIN1ZHCCdl8';

describe('EIP-778 node records', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('builds the EIP-778 example record byte for byte and reads it back', () => {
    const built = buildRecord(EIP778_KEY, { seq: 1n, ip: '127.0.0.1', udp: 30303 });
    expect(recordToText(built)).toBe(EIP778_TEXT);
    const read = recordFromText(EIP778_TEXT);
    expect(read).toMatchObject({ seq: 1n, ip: '127.0.0.1', udp: 30303 });
    expect(read.tcp).toBeUndefined();
    expect(Buffer.from(read.id).toString('hex')).toMatch(
      /^ca634cae0d49acb401d8a4c6b6fe8c55b70d115bf400769cc1400f3258cd3138/,
    );
  });

  it('carries the eth fork id entry [[forkHash, forkNext]]', () => {
    const forkId = { hash: Uint8Array.from([0xbe, 0x46, 0xd5, 0x7c]), next: 11_700_000n };
    const record = decodeRecord(
      buildRecord(EIP778_KEY, { seq: 5n, ip: '10.0.0.1', tcp: 30303, udp: 30301, forkId }).raw,
    );
    expect(record.forkId?.next).toBe(11_700_000n);
    expect(Buffer.from(record.forkId!.hash).toString('hex')).toBe('be46d57c');
    expect(record).toMatchObject({ tcp: 30303, udp: 30301 });
  });

  it('refuses a record whose content was changed after signing, and one over 300 bytes', () => {
    const raw = Buffer.from(recordFromText(EIP778_TEXT).raw);
    raw[raw.length - 1] ^= 1; // the udp port
    expect(() => decodeRecord(raw)).toThrow(/signature does not match/);
    expect(() => decodeRecord(new Uint8Array(301))).toThrow(/over 300/);
    expect(() => recordFromText(`enr:${'A'.repeat(500)}`)).toThrow(/over 300/);
  });

  it('raises the sequence number when the fork id changes, and keeps it across restarts', () => {
    const datadir = mkdtempSync(join(tmpdir(), 'svc-node-enr-'));
    dirs.push(datadir);
    const fields = { ip: '10.0.0.1', tcp: 9076, udp: 9076, forkId: { hash: new Uint8Array(4), next: 5n } };
    const first = new LocalRecord(EIP778_KEY, datadir, fields);
    const seq = first.record.seq;
    expect(first.update(fields)).toBe(false);
    const next = { ...fields, forkId: { hash: Uint8Array.of(1, 2, 3, 4), next: 0n } };
    expect(first.update(next)).toBe(true);
    expect(first.record.seq).toBe(seq + 1n);
    expect(new LocalRecord(EIP778_KEY, datadir, next).record.seq).toBe(seq + 1n);
    expect(new LocalRecord(EIP778_KEY, datadir, { ...next, ip: '10.0.0.2' }).record.seq).toBe(seq + 2n);
  });
});
