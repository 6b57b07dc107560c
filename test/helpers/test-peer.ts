/**
 * A scripted devp2p peer for wire tests: an RLPx link (src/p2p/rlpx/transport.ts) driven by the test instead of a
 * peer manager. It dials a node (or listens and lets the node dial it), records the node's Hello, its eth STATUS
 * and every later message, sends whatever STATUS or raw eth payload the test chooses, and reports how the link
 * ended: the DISCONNECT reason the node sent, or "socket closed before handshake" when not one byte came back.
 *
 * Nothing here validates what the node sends beyond decoding it: the tests decide what is right.
 */
import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net';
import { generatePrivateKey } from '../../src/chain/accounts/keys.js';
import { formatEnode, parseEnode } from '../../src/p2p/enode.js';
import * as eth from '../../src/p2p/eth/messages.js';
import {
  EthCode,
  type HeadersRequest,
  type NewBlockMsg,
  type RawBody,
  type RawHeader,
  type RawReceipt,
  type Status,
} from '../../src/p2p/eth/messages.js';
import { nodeIdOf } from '../../src/p2p/node-key.js';
import {
  disconnectReasonName,
  RlpxLink,
  type DisconnectReason,
  type HelloInfo,
  type SubProtocol,
} from '../../src/p2p/rlpx/transport.js';

export { DisconnectReason, disconnectReasonName } from '../../src/p2p/rlpx/transport.js';

/**
 * What the peer answers the node's STATUS with: `'echo'` its own STATUS back (a compatible peer), a function of
 * it (one field changed), a fixed STATUS sent as soon as Hello is exchanged, or `'none'` (the test sends it).
 */
export type StatusScript = 'echo' | 'none' | Status | ((nodeStatus: Status) => Status);

export interface TestPeerOptions {
  /** 32-byte secp256k1 key; a fresh random one by default (a new node id per peer). */
  readonly privateKey?: Uint8Array;
  readonly clientId?: string;
  readonly status?: StatusScript;
  /** TCP port announced in Hello (0 = not listening). */
  readonly listenPort?: number;
  /** Called with every message the node sends (after STATUS handling), e.g. to answer its requests. */
  readonly onMessage?: (message: ReceivedMessage, peer: TestPeer) => void;
}

export interface ReceivedMessage {
  readonly protocol: SubProtocol;
  readonly code: number;
  /** Decompressed RLP bytes. */
  readonly payload: Uint8Array;
}

/** How the link ended, seen from the test peer. */
export interface PeerClose {
  /** The devp2p DISCONNECT reason when one was exchanged (sent by the node unless `byUs`). */
  readonly reason: number | undefined;
  /** `USELESS_PEER`, …; `socket closed before handshake` (no byte ever came back) or `socket closed` when no reason. */
  readonly name: string;
  /** true: the test peer sent the DISCONNECT; false: the node did; null: nobody (the socket just closed). */
  readonly byUs: boolean | null;
  /** Bytes the node ever sent on this socket (0 = refused before any handshake byte). */
  readonly bytesReceived: number;
}

export const SOCKET_CLOSED_BEFORE_HANDSHAKE = 'socket closed before handshake';

const DEFAULT_TIMEOUT_MS = 10_000;

const hex = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/** A promise whose rejection counts as handled even if the test never awaits it (no unhandled-rejection noise). */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (err: Error) => void } {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** A random key and its node id (128 hex digits), for tests that need the id before dialling. */
export function newPeerKey(): { privateKey: Uint8Array; nodeId: string } {
  const privateKey = Uint8Array.from(generatePrivateKey());
  return { privateKey, nodeId: hex(nodeIdOf(privateKey)) };
}

interface Waiter {
  readonly match: (m: ReceivedMessage) => boolean;
  readonly resolve: (m: ReceivedMessage) => void;
  readonly reject: (err: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export class TestPeer {
  readonly privateKey: Uint8Array;
  /** Our node id, 128 hex digits. */
  readonly nodeId: string;
  /** Every sub-protocol message the node sent, in order (its STATUS included). */
  readonly messages: ReceivedMessage[] = [];
  /** Hello exchanged; rejects if the link closes first. */
  readonly hello: Promise<HelloInfo>;
  /** The node's eth STATUS, decoded; rejects if the link closes first or the STATUS does not decode. */
  readonly nodeStatus: Promise<Status>;
  /** Resolves when the socket has closed. */
  readonly closed: Promise<PeerClose>;
  readonly link: RlpxLink;
  readonly #script: StatusScript;
  readonly #waiters = new Set<Waiter>();
  #nextRequestId = 1n;
  #isClosed = false;

  private constructor(socket: Socket, remoteId: Uint8Array | null, options: TestPeerOptions) {
    this.privateKey = options.privateKey ?? newPeerKey().privateKey;
    const ourId = nodeIdOf(this.privateKey);
    this.nodeId = hex(ourId);
    this.#script = options.status ?? 'echo';
    const onMessage = options.onMessage;
    const hello = deferred<HelloInfo>();
    const status = deferred<Status>();
    const closed = deferred<PeerClose>();
    this.hello = hello.promise;
    this.nodeStatus = status.promise;
    this.closed = closed.promise;
    socket.on('error', () => undefined);

    this.link = new RlpxLink({
      socket,
      privateKey: this.privateKey,
      nodeId: ourId,
      remoteId,
      clientId: options.clientId ?? 'svc-node-test-peer/v1',
      listenPort: options.listenPort ?? 0,
      events: {
        onConnect: () => {
          hello.resolve(this.link.hello!);
          const script = this.#script;
          if (typeof script === 'object') this.sendStatus(script);
        },
        onMessage: (protocol, code, payload) => {
          const message = { protocol, code, payload };
          this.messages.push(message);
          if (protocol === 'eth' && code === EthCode.Status) {
            let decoded: Status;
            try {
              decoded = eth.decodeStatus(payload);
            } catch (err) {
              status.reject(new Error(`the node's STATUS does not decode: ${(err as Error).message}`));
              return;
            }
            status.resolve(decoded);
            const script = this.#script;
            if (script === 'echo') this.sendStatus(decoded);
            else if (typeof script === 'function') this.sendStatus(script(decoded));
          }
          onMessage?.(message, this);
          for (const waiter of this.#waiters) {
            if (!waiter.match(message)) continue;
            this.#waiters.delete(waiter);
            clearTimeout(waiter.timer);
            waiter.resolve(message);
          }
        },
        onClose: (reason, byUs) => {
          this.#isClosed = true;
          const bytesReceived = socket.bytesRead;
          const name =
            reason !== undefined
              ? disconnectReasonName(reason)
              : bytesReceived === 0
                ? SOCKET_CLOSED_BEFORE_HANDSHAKE
                : 'socket closed';
          const info: PeerClose = { reason, name, byUs, bytesReceived };
          const gone = new Error(
            `link closed (${name}${byUs === null ? '' : byUs ? ', by the test peer' : ', by the node'})`,
          );
          hello.reject(gone);
          status.reject(gone);
          for (const waiter of this.#waiters) {
            clearTimeout(waiter.timer);
            waiter.reject(gone);
          }
          this.#waiters.clear();
          closed.resolve(info);
        },
      },
    });
  }

  /** Dials `enode` and starts the RLPx handshake; resolves once TCP is connected (the handshake may still fail). */
  static dial(enode: string, options: TestPeerOptions = {}): Promise<TestPeer> {
    const target = parseEnode(enode);
    const socket = tcpConnect({ host: target.host, port: target.port, noDelay: true });
    return new Promise((resolve, reject) => {
      const fail = (err: Error) =>
        reject(new Error(`test peer cannot reach ${target.host}:${target.port}: ${err.message}`));
      socket.once('error', fail);
      socket.once('connect', () => {
        socket.off('error', fail);
        resolve(new TestPeer(socket, target.id, options));
      });
    });
  }

  /** Listens on 127.0.0.1 (free port) for the node to dial in (net_connectToPeer, bootnodes). */
  static async listen(options: TestPeerOptions = {}): Promise<TestPeerListener> {
    const key = options.privateKey ?? newPeerKey().privateKey;
    const listener = new TestPeerListener(key, options);
    await listener.start();
    return listener;
  }

  /** @internal for TestPeerListener */
  static accepted(socket: Socket, options: TestPeerOptions): TestPeer {
    return new TestPeer(socket, null, options);
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** Sends our STATUS (any fields: the tests choose wrong ones on purpose). */
  sendStatus(status: Status): boolean {
    return this.link.send('eth', EthCode.Status, eth.encodeStatus(status));
  }

  /** Sends raw bytes as eth message `code` (compressed by the link, as any eth message). */
  send(code: number, payload: Uint8Array): boolean {
    return this.link.send('eth', code, payload);
  }

  sendNewBlock(msg: NewBlockMsg): boolean {
    return this.send(EthCode.NewBlock, eth.encodeNewBlock(msg));
  }

  /** The first message (already received or still to come) that `match` accepts. */
  waitForMessage(
    match: (m: ReceivedMessage) => boolean,
    what: string,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<ReceivedMessage> {
    const seen = this.messages.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    if (this.#isClosed) return Promise.reject(new Error(`link closed before ${what}`));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        match,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter);
          const got = this.messages.map((m) => `${m.protocol}/0x${m.code.toString(16)}`).join(', ') || 'nothing';
          reject(new Error(`no ${what} within ${timeoutMs} ms (received: ${got})`));
        }, timeoutMs),
      };
      this.#waiters.add(waiter);
    });
  }

  getBlockHeaders(query: Omit<HeadersRequest, 'requestId'>, timeoutMs?: number): Promise<RawHeader[]> {
    return this.#request(
      EthCode.GetBlockHeaders,
      EthCode.BlockHeaders,
      (id) => eth.encodeGetBlockHeaders({ ...query, requestId: id }),
      eth.decodeBlockHeaders,
      timeoutMs,
    ).then((r) => r.headers);
  }

  getBlockBodies(hashes: readonly Uint8Array[], timeoutMs?: number): Promise<RawBody[]> {
    return this.#request(
      EthCode.GetBlockBodies,
      EthCode.BlockBodies,
      (id) => eth.encodeGetBlockBodies(id, [...hashes]),
      eth.decodeBlockBodies,
      timeoutMs,
    ).then((r) => r.bodies);
  }

  getReceipts(hashes: readonly Uint8Array[], timeoutMs?: number): Promise<RawReceipt[][]> {
    return this.#request(
      EthCode.GetReceipts,
      EthCode.Receipts,
      (id) => eth.encodeGetReceipts(id, [...hashes]),
      eth.decodeReceipts,
      timeoutMs,
    ).then((r) => r.receipts);
  }

  /** Sends a request with a fresh id and waits for the answer carrying that id. */
  async #request<T extends { requestId: bigint }>(
    code: number,
    answerCode: number,
    encode: (requestId: bigint) => Uint8Array,
    decode: (payload: Uint8Array) => T,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<T> {
    const requestId = this.#nextRequestId++;
    const answered = this.waitForMessage(
      (m) => {
        if (m.protocol !== 'eth' || m.code !== answerCode) return false;
        try {
          return decode(m.payload).requestId === requestId;
        } catch {
          return false;
        }
      },
      `answer 0x${answerCode.toString(16)} to request ${requestId}`,
      timeoutMs,
    );
    if (!this.send(code, encode(requestId))) throw new Error(`link closed: cannot send request 0x${code.toString(16)}`);
    return decode((await answered).payload);
  }

  /** Sends DISCONNECT with `reason` (the node sees a clean departure). */
  disconnect(reason: DisconnectReason): void {
    this.link.disconnect(reason);
  }

  /** Cuts the socket; resolves once it has closed. */
  async destroy(): Promise<void> {
    if (!this.#isClosed) this.link.destroy();
    await this.closed;
  }
}

/** A listening test peer: the node dials it; `accept()` hands over each inbound link as a TestPeer. */
export class TestPeerListener {
  readonly #server: Server;
  readonly #accepted: TestPeer[] = [];
  readonly #all: TestPeer[] = [];
  readonly #waiting: Array<(peer: TestPeer) => void> = [];
  #port = 0;

  constructor(
    readonly privateKey: Uint8Array,
    private readonly options: TestPeerOptions,
  ) {
    this.#server = createServer({ noDelay: true }, (socket) => {
      const peer = TestPeer.accepted(socket, { ...this.options, privateKey: this.privateKey, listenPort: this.#port });
      this.#all.push(peer);
      const waiter = this.#waiting.shift();
      if (waiter) waiter(peer);
      else this.#accepted.push(peer);
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => resolve());
    });
    this.#port = (this.#server.address() as { port: number }).port;
  }

  get nodeId(): string {
    return hex(nodeIdOf(this.privateKey));
  }

  get enode(): string {
    return formatEnode({ id: nodeIdOf(this.privateKey), host: '127.0.0.1', port: this.#port });
  }

  /** The next link the node opens to us. */
  accept(timeoutMs = DEFAULT_TIMEOUT_MS): Promise<TestPeer> {
    const ready = this.#accepted.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the node did not dial ${this.enode} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#waiting.push((peer) => {
        clearTimeout(timer);
        resolve(peer);
      });
    });
  }

  /** Stops listening and cuts every link it accepted. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    await Promise.all(this.#all.map((peer) => peer.destroy()));
    await closed;
  }
}
