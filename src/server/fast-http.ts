/**
 * Plain JSON-RPC calls over HTTP/1.1 keep-alive, answered straight from the socket. node:http costs every request a
 * request and a response object, two streams, their events and timers, a header object built field by field; for
 * `eth_blockNumber` that was most of the server's CPU (bench/results/rpc-path.md). Here a connection's bytes are
 * read as they come, and a request in the one common shape is answered from them with one write:
 * `POST / HTTP/1.1`, whole in the bytes at hand, with a Host and a Content-Length within the body limit; no Origin
 * (CORS is the app's), Transfer-Encoding, Expect or Upgrade; Connection absent or keep-alive; every header well
 * formed and named once. Anything else, a request whose bytes have not all come yet included, hands the connection
 * with the bytes read so far to node:http for good, which answers as it always did (its parser's refusals, limits
 * and timeouts, the app's routes, WebSocket upgrades). The answers written here are byte for byte node:http's.
 */
import { type IncomingHttpHeaders, type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { JsonChunks } from '../rpc/raw-json.js';
import type { JsonRpcHttp, RpcHttpAnswer } from './http.js';

export interface FastPathOptions {
  /** The route (http.ts); its `read` answers a request whose body is read. */
  readonly rpc: JsonRpcHttp;
  /** Bodies declared larger go to node:http, which refuses them as before (413). */
  readonly maxBodySize: number;
  /** A throw or rejection of the route: logged by the caller; the client gets a bare 500, as from node:http. */
  readonly onError: (err: unknown) => void;
}

export interface FastPath {
  /** Destroys the connections still on the fast path (node:http's own are closed by the server). */
  closeAll(): void;
}

/** node:http's default limit of a request's header section (--max-http-header-size). */
const MAX_HEADER_BYTES = 16 * 1024;
const REQUEST_LINE = Buffer.from('POST / HTTP/1.1\r\n', 'latin1');
/** RFC 9110 token characters, what llhttp takes in a header name, by character code. */
const TOKEN = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
  TOKEN[c.charCodeAt(0)] = 1;
const DIGITS = /^\d+$/;

/** A request of the fast path's shape: its headers (lowercase names), its body, and where its bytes end. */
interface ReadRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly end: number;
}

/** Buffer's own slicing decoders (what node:http uses): a third of the cost of toString with a range. */
interface Slicing {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

const isSpace = (c: number) => c === 32 || c === 9;

/** The request at the start of `bytes`, when it is whole and of the fast path's shape; undefined otherwise. */
export function readRequest(bytes: Buffer, maxBodySize: number): ReadRequest | undefined {
  if (bytes.length < REQUEST_LINE.length) return undefined;
  for (let i = 0; i < REQUEST_LINE.length; i++) if (bytes[i] !== REQUEST_LINE[i]) return undefined;
  // node:http reads header bytes as latin1 too. From the request line's own CRLF: a request with no header at all
  // ends right after it.
  const text = (bytes as unknown as Slicing).latin1Slice(
    REQUEST_LINE.length - 2,
    Math.min(bytes.length, REQUEST_LINE.length + MAX_HEADER_BYTES + 4),
  );
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd === -1 || headEnd > MAX_HEADER_BYTES) return undefined;
  // Not Object.create(null): every name an object has already (constructor, __proto__) counts as named twice.
  const headers: Record<string, string> = {};
  let length = -1;
  let host = false;
  for (let start = 2; start < headEnd; ) {
    let end = text.indexOf('\r\n', start);
    if (end === -1 || end > headEnd) end = headEnd;
    let colon = start;
    let upper = false;
    for (; colon < end; colon++) {
      const c = text.charCodeAt(colon);
      if (c === 58) break; // ':'
      if (c > 127 || TOKEN[c] === 0) return undefined;
      if (c <= 90 && c >= 65) upper = true;
    }
    if (colon === start || colon === end) return undefined;
    const name = upper ? text.slice(start, colon).toLowerCase() : text.slice(start, colon);
    // The value without the whitespace around it (as llhttp strips it); no control character but tab, no DEL.
    let from = colon + 1;
    let to = end;
    while (from < to && isSpace(text.charCodeAt(from))) from++;
    while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if ((c < 32 && c !== 9) || c === 127) return undefined;
    }
    const value = text.slice(from, to);
    if (headers[name] !== undefined) return undefined;
    switch (name) {
      case 'content-length':
        if (!DIGITS.test(value)) return undefined;
        length = Number(value);
        break;
      case 'host':
        host = true;
        break;
      case 'connection':
        if (value.toLowerCase() !== 'keep-alive') return undefined;
        break;
      case 'origin':
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return undefined;
    }
    headers[name] = value;
    start = end + 2;
  }
  if (!host || length < 0 || length > maxBodySize) return undefined;
  const bodyStart = REQUEST_LINE.length - 2 + headEnd + 4;
  const bodyEnd = bodyStart + length;
  if (bytes.length < bodyEnd) return undefined;
  return { headers, body: (bytes as unknown as Slicing).utf8Slice(bodyStart, bodyEnd), end: bodyEnd };
}

/**
 * Takes `server`'s connections first (its own 'connection' listeners, node:http's, run only on hand-over). Attach
 * before the server listens; HTTP only (a TLS server's connections are not the plain sockets read here).
 */
export function attachFastPath(server: Server, options: FastPathOptions): FastPath {
  const nodeListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const open = new Set<Socket>();
  const shared: Shared = {
    options,
    server,
    open,
    handOff(socket, pending) {
      for (const listener of nodeListeners) listener.call(server, socket);
      if (pending !== undefined) socket.unshift(pending);
      if (socket.isPaused()) socket.resume();
    },
  };
  server.on('connection', (socket: Socket) => {
    new FastConnection(socket, shared);
  });
  return {
    closeAll() {
      for (const socket of open) socket.destroy();
    },
  };
}

interface Shared {
  readonly options: FastPathOptions;
  readonly server: Server;
  readonly open: Set<Socket>;
  handOff(socket: Socket, pending: Buffer | undefined): void;
}

class FastConnection {
  /** Bytes read and not yet answered (only while an answer is awaited: otherwise they are handed over). */
  private pending: Buffer | undefined;
  /** An answer is awaited (an async method), or answers written are to drain: bytes that come meanwhile wait. */
  private busy = false;
  /** The client ended its side: the connection ends once what it asked at once is answered. */
  private ending = false;

  constructor(
    private readonly socket: Socket,
    private readonly shared: Shared,
  ) {
    shared.open.add(socket);
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
    socket.on('close', this.onClose);
    socket.on('timeout', this.onTimeout);
    // An idle connection closes after the keep-alive timeout, as node:http closes one between requests; the timer
    // restarts on every read and write, and a request being answered holds it off (onTimeout).
    const { keepAliveTimeout } = shared.server;
    if (keepAliveTimeout > 0) socket.setTimeout(keepAliveTimeout);
  }

  private readonly onData = (chunk: Buffer): void => {
    this.pending = this.pending === undefined ? chunk : Buffer.concat([this.pending, chunk]);
    if (this.busy) {
      this.socket.pause(); // read on once the answer is written, as node:http waits with a pipelined request
      return;
    }
    this.next();
  };

  private readonly onEnd = (): void => {
    this.ending = true;
    // node:http (httpAllowHalfOpen off) destroys a connection whose client ends its side while an answer is awaited:
    // the request counts as gone (`requestGone`: a long anvil_mine stops), and its answer is not written.
    if (this.busy) this.socket.destroy();
    else this.finish();
  };

  private readonly onError = (): void => {
    this.socket.destroy();
  };

  private readonly onClose = (): void => {
    this.shared.open.delete(this.socket);
  };

  private readonly onTimeout = (): void => {
    if (!this.busy) this.socket.destroy();
  };

  /** Answers the requests read, in order, until one is awaited; hands the connection over at the first not ours. */
  private next(): void {
    const { rpc, maxBodySize } = this.shared.options;
    while (this.pending !== undefined) {
      // A client that asks on without reading its answers gets no more until they drain, as node:http pauses such
      // a connection: otherwise each request would add its answer to the memory the socket holds.
      if (this.socket.writableNeedDrain) {
        this.busy = true;
        this.socket.once('drain', this.drained);
        return;
      }
      const request = readRequest(this.pending, maxBodySize);
      if (request === undefined) {
        this.handOff();
        return;
      }
      this.pending = request.end === this.pending.length ? undefined : this.pending.subarray(request.end);
      let answer: RpcHttpAnswer | Promise<RpcHttpAnswer>;
      try {
        answer = rpc.read(request.headers, this.socket, request.body);
      } catch (err) {
        this.fail(err);
        continue;
      }
      if (answer instanceof Promise) {
        this.busy = true;
        answer.then(this.answered, this.failed);
        return;
      }
      this.write(answer);
    }
    if (this.ending) this.finish();
  }

  private readonly drained = (): void => {
    this.busy = false;
    this.readOn();
  };

  private readonly answered = (answer: RpcHttpAnswer): void => {
    this.write(answer);
    // A request read meanwhile (pipelined) is answered on a later turn, as node:http answers one once the last is
    // written: work an answer leaves for after it (the pool's refresh after an automined send) is done by then.
    if (this.pending !== undefined) setImmediate(this.drained);
    else this.drained();
  };

  private readonly failed = (err: unknown): void => {
    this.busy = false;
    this.fail(err);
    this.readOn();
  };

  private readOn(): void {
    if (this.socket.destroyed) return;
    if (this.socket.isPaused()) this.socket.resume();
    this.next();
  }

  /** The client has ended and everything it asked is answered: end ours (a request left half-sent is dropped). */
  private finish(): void {
    if (this.pending !== undefined) this.socket.destroy();
    else this.socket.end();
  }

  private handOff(): void {
    const { socket } = this;
    if (this.ending) {
      // node:http would find the rest of the request missing and close the connection.
      socket.destroy();
      return;
    }
    socket.off('data', this.onData);
    socket.off('end', this.onEnd);
    socket.off('error', this.onError);
    socket.off('close', this.onClose);
    socket.off('timeout', this.onTimeout);
    socket.setTimeout(0);
    this.shared.open.delete(socket);
    const { pending } = this;
    this.pending = undefined;
    this.shared.handOff(socket, pending);
  }

  private fail(err: unknown): void {
    this.shared.options.onError(err);
    // What node:http sends for writeHead(500) and end(): an empty chunked body.
    if (!this.socket.destroyed)
      this.socket.write(`${this.head(500, undefined, 'Transfer-Encoding: chunked\r\n')}0\r\n\r\n`);
  }

  /** Writes `answer` as node:http's writeHead and end would, headers and body in one write. */
  private write(answer: RpcHttpAnswer): void {
    const { body } = answer;
    if (this.socket.destroyed) {
      if (body instanceof JsonChunks) body.done();
      return;
    }
    if (body === null) {
      // node:http's writeHead and end() without a body: nothing more for 204, an empty chunked body otherwise.
      const empty = answer.status === 204 || answer.status === 304;
      const head = this.head(answer.status, answer.headers, empty ? '' : 'Transfer-Encoding: chunked\r\n');
      this.socket.write(empty ? head : `${head}0\r\n\r\n`);
      return;
    }
    if (typeof body === 'string') {
      const length = `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
      this.socket.write(this.head(answer.status, answer.headers, '', length) + body);
      return;
    }
    const length = `content-type: application/json\r\ncontent-length: ${body.length}\r\n`;
    const socket = this.socket;
    socket.cork();
    socket.write(this.head(answer.status, answer.headers, '', length));
    if (body instanceof JsonChunks) {
      // Their buffer is handed back once written.
      for (let i = 0; i < body.chunks.length - 1; i++) socket.write(body.chunks[i]);
      socket.write(body.chunks[body.chunks.length - 1]!, () => body.done());
    } else socket.write(body);
    socket.uncork();
  }

  /** node:http's status line and headers: the given ones first, then Date, Connection and Keep-Alive. */
  private head(
    status: number,
    headers: Readonly<Record<string, string>> | undefined,
    trailing: string,
    first = '',
  ): string {
    let text = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n${first}`;
    if (headers !== undefined) for (const name in headers) text += `${name}: ${headers[name]}\r\n`;
    text += `Date: ${utcDate()}\r\nConnection: keep-alive\r\n`;
    const { keepAliveTimeout } = this.shared.server;
    if (keepAliveTimeout > 0) text += `Keep-Alive: timeout=${Math.floor(keepAliveTimeout / 1000)}\r\n`;
    return `${text}${trailing}\r\n`;
  }
}

let dateSecond = -1;
let dateText = '';

/** The Date header's value, made once a second (as node:http caches it). */
function utcDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}
