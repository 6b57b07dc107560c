/**
 * A tiny DNS server on loopback UDP that answers TXT queries from a table (name → text), NXDOMAIN otherwise:
 * enough for EIP-1459 trees in tests. Long texts are split into 255-byte strings as real servers do.
 */
import { createSocket } from 'node:dgram';

export interface TxtServer {
  readonly address: string;
  close(): Promise<void>;
}

function readName(msg: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let i = offset;
  while (msg[i] !== 0) {
    const len = msg[i]!;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString('ascii'));
    i += 1 + len;
  }
  return { name: labels.join('.').toLowerCase(), end: i + 1 };
}

export async function startTxtServer(records: ReadonlyMap<string, string>): Promise<TxtServer> {
  const table = new Map([...records].map(([k, v]) => [k.toLowerCase(), v]));
  const socket = createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    if (msg.length < 12) return;
    const { name, end } = readName(msg, 12);
    const question = msg.subarray(12, end + 4);
    const qtype = msg.readUInt16BE(end);
    const text = qtype === 16 ? table.get(name) : undefined;
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    header.writeUInt16BE(text === undefined ? 0x8183 : 0x8180, 2); // response, RD+RA, NXDOMAIN or OK
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(text === undefined ? 0 : 1, 6);
    const parts = [header, question];
    if (text !== undefined) {
      const bytes = Buffer.from(text, 'utf8');
      const strings: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += 255) {
        const chunk = bytes.subarray(i, i + 255);
        strings.push(Buffer.concat([Buffer.of(chunk.length), chunk]));
      }
      const rdata = Buffer.concat(strings);
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the name, as a pointer to the question
      rr.writeUInt16BE(16, 2); // TXT
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(rdata.length, 10);
      parts.push(rr, rdata);
    }
    socket.send(Buffer.concat(parts), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
