/**
 * RLPx links: the encrypted, framed devp2p connection (ECIES handshake, frame MACs, Hello, ping/pong, snappy)
 * over one TCP socket. This is the only module that imports `@ethereumjs/devp2p` (deprecated upstream), so the
 * library can be replaced by our own codec without touching the rest of src/p2p.
 *
 * Only the library's `Peer` class is used, never its `RLPx` server: the dial loop, the connection table, the ban
 * checks and duplicate-link rules are ours (see peer-manager.ts), which sidesteps the traps of its server class
 * (etc-chain-and-p2p.md §3.3). Sub-protocol payloads reach us as RLP bytes; what they mean is eth/ and snap/'s job.
 */
import type { Socket } from 'node:net';
import { Peer, DISCONNECT_REASON, DisconnectReasonNames, type Capabilities } from '@ethereumjs/devp2p';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import * as snappy from 'snappyjs';
import { ETH_MESSAGE_COUNT, ETH_VERSION, MAX_MESSAGE_SIZE } from '../eth/messages.js';
import { SNAP_MESSAGE_COUNT, SNAP_VERSION } from '../snap/messages.js';
import { installNativeFrameMac } from './frame-mac.js';

// Every link's frame MACs hash on the native keccak (frame-mac.ts).
installNativeFrameMac();

export type SubProtocol = 'eth' | 'snap';

/** Message code of DISCONNECT in the devp2p base protocol. */
const BASE_DISCONNECT = 0x01;

/** Disconnect reasons of the devp2p base protocol. */
export const DisconnectReason = DISCONNECT_REASON;
export type DisconnectReason = (typeof DISCONNECT_REASON)[keyof typeof DISCONNECT_REASON];

export function disconnectReasonName(reason: number | undefined): string {
  if (reason === undefined) return 'socket closed';
  return (DisconnectReasonNames as Record<number, string>)[reason] ?? `reason ${reason}`;
}

export interface HelloInfo {
  readonly clientId: string;
  /** e.g. `eth/68`, `snap/1`. */
  readonly capabilities: readonly string[];
  readonly listenPort: number;
  readonly protocolVersion: number;
}

export interface LinkEvents {
  /** Hello exchanged; `shared` lists the sub-protocols both sides speak. */
  onConnect(shared: ReadonlySet<SubProtocol>): void;
  /** A sub-protocol message (decompressed RLP bytes). Throwing disconnects the link with PROTOCOL_ERROR. */
  onMessage(protocol: SubProtocol, code: number, payload: Uint8Array): void;
  /** The socket closed; `reason` is the devp2p disconnect reason when one was exchanged, `byUs` whether we sent it. */
  onClose(reason: number | undefined, byUs: boolean | null): void;
  /** What made the library drop the link (a bad frame, an oversize or undecodable message); the close follows. */
  onError?(err: Error): void;
}

export interface LinkOptions {
  readonly socket: Socket;
  readonly privateKey: Uint8Array;
  /** Our 64-byte node id. */
  readonly nodeId: Uint8Array;
  /** The remote node id when we dial; null for inbound links (the handshake reveals it). */
  readonly remoteId: Uint8Array | null;
  readonly clientId: string;
  /** The TCP port we listen on, announced in Hello. */
  readonly listenPort: number;
  /** No pong within this many ms drops the link. */
  readonly pingTimeoutMs?: number;
  readonly events: LinkEvents;
}

/** One RLPx connection. */
export class RlpxLink {
  readonly #peer: Peer;
  readonly #senders = new Map<SubProtocol, (code: number, payload: Uint8Array) => void>();
  readonly #events: LinkEvents;
  readonly #socket: Socket;
  #closed = false;
  #disconnectSent = false;

  constructor(options: LinkOptions) {
    this.#events = options.events;
    this.#socket = options.socket;
    const capability = (name: SubProtocol, version: number, length: number): Capabilities => {
      const link = this;
      // The library instantiates a sub-protocol object per link from this constructor; ours only routes.
      class Route {
        constructor(_version: number, _peer: Peer, send: (code: number, data: Uint8Array) => void) {
          link.#senders.set(name, send);
        }
        _handleMessage(code: number, payload: Uint8Array): void {
          link.#events.onMessage(name, code, payload);
        }
      }
      return { name, version, length, constructor: Route as unknown as Capabilities['constructor'] };
    };
    this.#peer = new Peer({
      socket: options.socket,
      remoteId: options.remoteId as Uint8Array,
      privateKey: options.privateKey,
      id: options.nodeId,
      clientId: new TextEncoder().encode(options.clientId),
      capabilities: [
        capability('eth', ETH_VERSION, ETH_MESSAGE_COUNT),
        capability('snap', SNAP_VERSION, SNAP_MESSAGE_COUNT),
      ],
      // No Common: the handshake then uses the library's own keccak/secp256k1 (the engine's customCrypto has another signing shape).
      common: undefined as unknown as Common,
      port: options.listenPort,
      timeout: options.pingTimeoutMs ?? 20_000,
      EIP8: true,
    } as ConstructorParameters<typeof Peer>[0]);
    guardDecompressedSize(this.#peer);
    this.#peer.events.on('connect', () => {
      this.#events.onConnect(new Set(this.#senders.keys()));
    });
    this.#peer.events.on('error', (err: Error) => this.#events.onError?.(err));
    options.socket.once('close', () => {
      this.#closed = true;
      const peer = this.#peer as unknown as { _disconnectReason?: number; _disconnectWe: boolean | null };
      this.#events.onClose(peer._disconnectReason, peer._disconnectWe);
    });
  }

  /** The remote node id: known from the start when we dialled, after Hello when they did. */
  get remoteId(): Uint8Array | null {
    return this.#peer.getId();
  }

  get hello(): HelloInfo | null {
    const hello = this.#peer.getHelloMessage();
    if (hello === null) return null;
    return {
      clientId: hello.clientId,
      capabilities: hello.capabilities.map((c) => `${c.name}/${c.version}`),
      listenPort: hello.port,
      protocolVersion: hello.protocolVersion,
    };
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Closed, or our DISCONNECT is sent and the socket closing: nothing more goes out either way. */
  get closing(): boolean {
    return this.#closed || this.#disconnectSent;
  }

  /**
   * Resolves once at most `bytes` are waiting to be sent, or the socket has closed. Above the socket's high-water
   * mark (16 KiB) a write has reported the buffer full, so 'drain' follows once it is empty.
   */
  writableBelow(bytes: number): Promise<void> {
    const socket = this.#socket;
    if (this.#closed || socket.writableLength <= bytes) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        socket.off('drain', onDrain);
        socket.off('close', done);
        resolve();
      };
      const onDrain = () => {
        if (socket.writableLength <= bytes) done();
      };
      socket.on('drain', onDrain);
      socket.on('close', done);
    });
  }

  /** Sends one sub-protocol message (RLP bytes; compressed here as devp2p v5 requires). false if the link is gone. */
  send(protocol: SubProtocol, code: number, payload: Uint8Array): boolean {
    const hello = this.#peer.getHelloMessage();
    return this.sendFramed(
      protocol,
      code,
      hello !== null && hello.protocolVersion >= 5 ? snappy.compress(payload) : payload,
    );
  }

  /** Sends a payload exactly as given, already in wire form (compressed when the link uses snappy). */
  sendFramed(protocol: SubProtocol, code: number, wirePayload: Uint8Array): boolean {
    const send = this.#senders.get(protocol);
    if (send === undefined || this.#closed || this.#disconnectSent) return false;
    send(code, wirePayload);
    return true;
  }

  /** Sends DISCONNECT with `reason` and closes; a link still in its handshake is simply cut. */
  disconnect(reason: DisconnectReason): void {
    if (this.#closed || this.#disconnectSent) return;
    this.#disconnectSent = true;
    const socket = (this.#peer as unknown as { _socket: Socket })._socket;
    if (this.#peer.getHelloMessage() === null) {
      socket.destroy();
      return;
    }
    // The library's own DISCONNECT skips snappy, which devp2p v5 requires after Hello (a strict peer cannot read
    // the reason then), so it is sent here, compressed, with the library's bookkeeping for a disconnect by us.
    const peer = this.#peer as unknown as {
      _sendMessage(code: number, data: Uint8Array): boolean | undefined;
      _disconnectReason?: number;
      _disconnectWe: boolean | null;
      _closed: boolean;
    };
    const payload = RLP.encode([reason]);
    peer._sendMessage(
      BASE_DISCONNECT,
      this.#peer.getHelloMessage()!.protocolVersion >= 5 ? snappy.compress(payload) : payload,
    );
    peer._disconnectReason = reason;
    peer._disconnectWe = true;
    peer._closed = true;
    // Give the message time to leave, half-close, and cut off a peer that never closes its side.
    setTimeout(() => socket.end(), 1_000).unref();
    setTimeout(() => socket.destroy(), 3_000).unref();
  }

  /** Cuts the socket without a DISCONNECT message (handshake timeouts, shutdown). */
  destroy(): void {
    (this.#peer as unknown as { _socket: Socket })._socket.destroy();
  }
}

/** Largest message a peer may make us decompress: the eth protocol's message limit (10 MiB, as in geth). */
export const MAX_DECOMPRESSED_BYTES = MAX_MESSAGE_SIZE;

/**
 * The library decompresses every message without a size limit, so a few bytes claiming a 4 GiB payload would
 * make us allocate it. Each decrypted frame is checked first: the snappy length prefix (a varint) of a
 * compressed message over the limit fails the frame, and the library then drops the peer.
 */
function guardDecompressedSize(peer: Peer): void {
  const internals = peer as unknown as {
    _eciesSession: { parseBody(data: Uint8Array): Uint8Array | undefined };
    _hello: { protocolVersion: number } | null;
  };
  const ecies = internals._eciesSession;
  const parseBody = ecies.parseBody.bind(ecies);
  ecies.parseBody = (data: Uint8Array) => {
    const body = parseBody(data);
    const code = body?.[0];
    // Hello (0x80 = code 0) and Disconnect (0x01) may travel uncompressed; everything after Hello v5 is snappy.
    if (body !== undefined && code !== 0x80 && code !== 0x01 && (internals._hello?.protocolVersion ?? 0) >= 5) {
      const declared = snappyLength(body, 1);
      if (declared > MAX_DECOMPRESSED_BYTES)
        throw new Error(`message would decompress to ${declared} bytes (limit ${MAX_DECOMPRESSED_BYTES})`);
    }
    return body;
  };
}

/** The uncompressed length a snappy block declares (its leading little-endian base-128 varint). */
function snappyLength(bytes: Uint8Array, offset: number): number {
  let value = 0;
  for (let i = 0; i < 5 && offset + i < bytes.length; i++) {
    const b = bytes[offset + i]!;
    value += (b & 0x7f) * 2 ** (7 * i);
    if ((b & 0x80) === 0) return value;
  }
  return value;
}
