/**
 * The fast path of plain JSON-RPC over HTTP: which requests it takes, and that what it writes is byte for byte what
 * node:http writes for the same answer (each answer is asked once on a fast connection and once on one handed to
 * node:http, by a header named twice), in order, handing connections over mid-way without losing a byte.
 */
import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonChunks } from '../rpc/raw-json.js';
import { attachFastPath, readRequest } from './fast-http.js';
import { type JsonRpcHttp, type RpcHttpAnswer, writeRpcAnswer } from './http.js';

const body = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';
const req = (headers: string, content = body, line = 'POST / HTTP/1.1') =>
  Buffer.from(`${line}\r\n${headers}content-length: ${Buffer.byteLength(content)}\r\n\r\n${content}`, 'latin1');
const plain = 'Host: x\r\nContent-Type: application/json\r\n';

describe('readRequest', () => {
  it('takes a whole POST / HTTP/1.1 with Host and Content-Length: lowercase names, trimmed values, the body as UTF-8', () => {
    const bytes = Buffer.concat([
      Buffer.from(
        `POST / HTTP/1.1\r\nHost: x\r\nX-Api-Key: \t k \r\nConnection: Keep-Alive\r\ncontent-length: 4\r\n\r\n`,
      ),
      Buffer.from('"é"'),
      Buffer.from('next'),
    ]);
    const read = readRequest(bytes, 1000)!;
    expect({ ...read.headers }).toEqual({
      host: 'x',
      'x-api-key': 'k',
      connection: 'Keep-Alive',
      'content-length': '4',
    });
    expect(read.body).toBe('"é"');
    expect(bytes.subarray(read.end).toString()).toBe('next');
  });

  it.each([
    ['another method', req(plain, body, 'GET / HTTP/1.1')],
    ['another path', req(plain, body, 'POST /mcp HTTP/1.1')],
    ['HTTP/1.0', req(plain, body, 'POST / HTTP/1.0')],
    ['no Host', req('Content-Type: application/json\r\n')],
    ['no Content-Length', Buffer.from(`POST / HTTP/1.1\r\n${plain}\r\n`)],
    ['a Content-Length that is not a number', Buffer.from(`POST / HTTP/1.1\r\n${plain}content-length: 1e1\r\n\r\n`)],
    ['a body above the limit', req(plain, 'x'.repeat(101))],
    ['a body not all come', req(plain).subarray(0, -1)],
    ['a head not all come', req(plain).subarray(0, 30)],
    ['an Origin', req(`${plain}Origin: http://a\r\n`)],
    ['Transfer-Encoding', req(`${plain}Transfer-Encoding: chunked\r\n`)],
    ['Expect', req(`${plain}Expect: 100-continue\r\n`)],
    ['Upgrade', req(`${plain}Upgrade: websocket\r\n`)],
    ['Connection: close', req(`${plain}Connection: close\r\n`)],
    ['a header named twice', req(`${plain}X-A: 1\r\nx-a: 2\r\n`)],
    ['a header name with a space', req(`${plain}X A: 1\r\n`)],
    ['a line without a colon', req(`${plain}XA\r\n`)],
    ['a control character in a value', req(`${plain}X-A: a\u0001b\r\n`)],
    ['a folded header line', req(`${plain}X-A: a\r\n b\r\n`)],
    ['a head above 16 KiB', req(`${plain}X-A: ${'a'.repeat(16 * 1024)}\r\n`)],
  ])('leaves %s to node:http', (_why, bytes) => {
    expect(readRequest(bytes, 100)).toBeUndefined();
  });
});

/** The answer a request asks for by its body; a body "slow:<answer>" is answered after a timer. */
const answers: Record<string, () => RpcHttpAnswer> = {
  text: () => ({ status: 200, body: '{"jsonrpc":"2.0","id":1,"result":"0x0"}' }),
  unicode: () => ({ status: 200, body: '{"jsonrpc":"2.0","id":1,"result":"é€"}' }),
  none: () => ({ status: 204, body: null }),
  gone: () => ({ status: 400, body: null }),
  refused: () => ({ status: 401, body: '{"e":1}', headers: { 'www-authenticate': 'Bearer realm="x"' } }),
  limited: () => ({ status: 429, body: '{"e":2}', headers: { 'retry-after': '3' } }),
  bytes: () => ({ status: 200, body: Buffer.from('{"r":"bytes"}') }),
  large: () => {
    largeAnswers++;
    return { status: 200, body: `"${'x'.repeat(256 * 1024)}"` };
  },
  chunks: () => ({ status: 200, body: chunks() }),
};
let released = 0;
let largeAnswers = 0;
const chunks = () =>
  new JsonChunks([Buffer.from('{"r":'), Buffer.from('"pieces"'), Buffer.from('}')], 14, () => released++);

function fakeRpc(): JsonRpcHttp {
  const read = (
    _headers: IncomingHttpHeaders,
    _socket: unknown,
    text: string,
  ): RpcHttpAnswer | Promise<RpcHttpAnswer> => {
    if (text === 'throw') throw new Error('boom');
    if (text.startsWith('slow:')) return new Promise((r) => setTimeout(() => r(answers[text.slice(5)]!()), 30));
    if (text.startsWith('slower:')) return new Promise((r) => setTimeout(() => r(answers[text.slice(7)]!()), 300));
    return answers[text]!();
  };
  const fromStream = async (incoming: IncomingMessage): Promise<RpcHttpAnswer> => {
    const parts: Buffer[] = [];
    for await (const part of incoming) parts.push(part as Buffer);
    return read(incoming.headers, incoming.socket, Buffer.concat(parts).toString('utf8'));
  };
  return Object.assign(fromStream, { read });
}

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

const errors: unknown[] = [];

/** A server as server.ts wires it: node:http's listener writing the route's answers, the fast path in front. */
async function serve(keepAliveTimeout = 65_000): Promise<{ port: number; closeAll(): void }> {
  const rpc = fakeRpc();
  const server = createServer((incoming: IncomingMessage, res: ServerResponse) => {
    rpc(incoming).then(
      (answer) => writeRpcAnswer(res, answer),
      (err: unknown) => {
        errors.push(err);
        res.writeHead(500);
        res.end();
      },
    );
  });
  server.keepAliveTimeout = keepAliveTimeout;
  const fast = attachFastPath(server, { rpc, maxBodySize: 1000, onError: (err) => errors.push(err) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        fast.closeAll();
      }),
  );
  return { port: (server.address() as { port: number }).port, closeAll: () => fast.closeAll() };
}

/** A raw client: writes bytes, reads until `count` whole answers (Content-Length or chunked) have come. */
class Client {
  private received = Buffer.alloc(0);
  private waiter: (() => void) | undefined;
  ended = false;

  private constructor(readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.received = Buffer.concat([this.received, d]);
      this.waiter?.();
    });
    socket.on('end', () => {
      this.ended = true;
      this.waiter?.();
    });
  }

  static open(port: number): Promise<Client> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new Client(socket)));
    });
  }

  async answers(count: number): Promise<string[]> {
    for (;;) {
      const split = splitAnswers(this.received.toString('latin1'));
      if (split.length >= count) {
        // Split as bytes (latin1), each answer read as UTF-8; the Date line differs across a second's turn.
        return split.map((a) =>
          Buffer.from(a, 'latin1')
            .toString('utf8')
            .replace(/\r\nDate: [^\r]*/, '\r\nDate: (now)'),
        );
      }
      if (this.ended) throw new Error(`connection ended after ${split.length} answers`);
      await new Promise<void>((r) => (this.waiter = r));
    }
  }
}

function splitAnswers(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd === -1) return out;
    const head = text.slice(at, headEnd);
    const length = /content-length: (\d+)/i.exec(head);
    let end = headEnd + 4;
    if (length) end += Number(length[1]);
    else if (/transfer-encoding: chunked/i.test(head)) {
      const last = text.indexOf('0\r\n\r\n', end);
      if (last === -1) return out;
      end = last + 5;
    }
    if (end > text.length) return out;
    out.push(text.slice(at, end));
    at = end;
  }
}

const ask = (content: string, extra = '') => req(`${plain}${extra}`, content);
/** The same request, sent to node:http: a header named twice is not the fast path's. */
const askNode = (content: string) => ask(content, 'X-Twice: 1\r\nX-Twice: 2\r\n');

describe('the fast path', () => {
  it('writes every kind of answer byte for byte as node:http does', async () => {
    const { port } = await serve();
    const kinds = [...Object.keys(answers).filter((k) => k !== 'large'), 'throw'];
    const fast = await Client.open(port);
    for (const kind of kinds) fast.socket.write(ask(kind));
    const fastAnswers = await fast.answers(kinds.length);
    const nodeAnswers: string[] = [];
    for (const kind of kinds) {
      // One connection each: once handed over, a connection stays node:http's.
      const client = await Client.open(port);
      client.socket.write(askNode(kind));
      nodeAnswers.push(...(await client.answers(1)));
      client.socket.destroy();
    }
    expect(fastAnswers).toEqual(nodeAnswers);
    expect(fastAnswers[0]).toContain('Keep-Alive: timeout=65\r\n');
    expect(released).toBe(2);
    expect(errors).toHaveLength(2);
    errors.length = 0;
    fast.socket.destroy();
  });

  it('answers pipelined requests in order, an awaited answer before the ones after it', async () => {
    const { port } = await serve();
    const client = await Client.open(port);
    client.socket.write(Buffer.concat([ask('slow:text'), ask('none'), ask('slow:bytes'), ask('unicode')]));
    const got = await client.answers(4);
    expect(got.map((a) => a.split('\r\n')[0])).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 204 No Content',
      'HTTP/1.1 200 OK',
      'HTTP/1.1 200 OK',
    ]);
    expect(got[2]).toMatch(/"bytes"}$/);
    expect(got[3]).toMatch(/é€"}$/);
    client.socket.destroy();
  });

  it('hands a connection to node:http mid-way, with the bytes of a request half come, and node:http goes on', async () => {
    const { port } = await serve();
    const client = await Client.open(port);
    client.socket.write(ask('slow:text'));
    const half = ask('unicode');
    // While the first is awaited: the next request's first bytes (kept), then on the answer the rest.
    client.socket.write(half.subarray(0, 20));
    expect(await client.answers(1)).toHaveLength(1);
    client.socket.write(half.subarray(20));
    client.socket.write(ask('none'));
    client.socket.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n');
    const got = await client.answers(4);
    expect(got[1]).toMatch(/é€"}$/);
    expect(got[2]!.split('\r\n')[0]).toBe('HTTP/1.1 204 No Content');
    // The GET went to the listener, which asks the route: an answer of node:http's, not the fast path's.
    expect(got[3]!.split('\r\n')[0]).toMatch(/^HTTP\/1.1 (200|500)/);
    errors.length = 0;
    client.socket.destroy();
  });

  it('stops answering a client that does not read its answers until they drain, then goes on', async () => {
    const { port } = await serve();
    const socket = await new Promise<Socket>((resolve) => {
      const s = connect(port, '127.0.0.1', () => resolve(s));
    });
    socket.pause();
    socket.write(Buffer.concat(Array.from({ length: 100 }, () => ask('large'))));
    await new Promise((r) => setTimeout(r, 300));
    // 100 answers of 256 KiB unread would be 25 MiB held by the socket; it stops at what the buffers take.
    expect(largeAnswers).toBeLessThan(50);
    let received = 0;
    const body = 256 * 1024 + 2;
    await new Promise<void>((resolve) => {
      socket.on('data', (d: Buffer) => {
        received += d.length;
        if (received >= 100 * body) resolve();
      });
      socket.resume();
    });
    expect(largeAnswers).toBe(100);
    socket.destroy();
  });

  it('ends the connection once a client that ended its side is answered, and drops an awaited answer as node:http does', async () => {
    const { port } = await serve();
    const client = await Client.open(port);
    client.socket.end(Buffer.concat([ask('text'), ask('text')]));
    expect(await client.answers(2)).toHaveLength(2);
    await new Promise<void>((r) => (client.ended ? r() : client.socket.once('end', () => r())));
    expect(client.ended).toBe(true);
    // An answer still awaited when the client ends: the connection goes at once (the request is gone), on both paths.
    for (const send of [ask, askNode]) {
      const gone = await Client.open(port);
      gone.socket.end(send('slow:text'));
      await expect(gone.answers(1)).rejects.toThrow('connection ended after 0 answers');
    }
  });

  it('closes a connection idle for the keep-alive timeout, not one whose answer is awaited that long', async () => {
    const { port } = await serve(100);
    const client = await Client.open(port);
    const started = Date.now();
    client.socket.write(ask('slower:text'));
    expect(await client.answers(1)).toHaveLength(1);
    await new Promise((r) => client.socket.once('close', r));
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('closes its idle connections with the server', async () => {
    const { port, closeAll } = await serve();
    const client = await Client.open(port);
    client.socket.write(ask('text'));
    await client.answers(1);
    const closed = new Promise((r) => client.socket.once('close', r));
    closeAll();
    await closed;
  });
});
