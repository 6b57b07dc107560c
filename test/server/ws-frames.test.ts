import { describe, expect, it } from 'vitest';
import { copyRun, framedNotifications, payloadsOf } from '../../src/server/ws-frames.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const notification = (id: string, result: string) =>
  `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":${result}}}`;

/** Reads back the text frames in `bytes` (unmasked, final, as a client sees them on the wire). */
function readFrames(bytes: Buffer): string[] {
  const out: string[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    expect(bytes[offset]).toBe(0x81);
    let length = bytes[offset + 1];
    let start = offset + 2;
    if (length === 126) [length, start] = [bytes.readUInt16BE(offset + 2), offset + 4];
    else if (length === 127) [length, start] = [Number(bytes.readBigUInt64BE(offset + 2)), offset + 10];
    out.push(bytes.subarray(start, start + length).toString('utf8'));
    offset = start + length;
  }
  return out;
}

describe('framedNotifications', () => {
  const results = [utf8('"0xabc"'), utf8(`{"data":"${'é'.repeat(80)}"}`), utf8(`"${'f'.repeat(70_000)}"`)];

  it('lays out one frame per result, once per results array and id length, with each subscriber’s id copied in', () => {
    const frames = framedNotifications(results, 4);
    expect(framedNotifications(results, 4)).toBe(frames);
    expect(framedNotifications(results, 5)).not.toBe(frames);
    const out = Buffer.alloc(frames.bytes.length * 2 + 3, 0xff);
    let offset = copyRun({ frames, id: utf8('0x1f') }, out, 1);
    offset = copyRun({ frames, id: utf8('0x2e') }, out, offset);
    expect(offset).toBe(1 + 2 * frames.bytes.length);
    const expected = (id: string) => results.map((r) => notification(id, r.toString('utf8')));
    expect(readFrames(out.subarray(1, offset))).toEqual([...expected('0x1f'), ...expected('0x2e')]);
    // The layout itself is untouched by the copies.
    expect(readFrames(frames.bytes)).toEqual(expected('\0\0\0\0'));
  });

  it('gives the payloads alone for a connection that frames through the library', () => {
    const frames = framedNotifications(results, 3);
    const payloads = payloadsOf({ frames, id: utf8('0x9') }).map((p) => p.toString('utf8'));
    expect(payloads).toEqual(results.map((r) => notification('0x9', r.toString('utf8'))));
    expect(payloads.map((p) => JSON.parse(p).params.subscription)).toEqual(['0x9', '0x9', '0x9']);
  });
});
