/**
 * What discv4's endpoint proof needs remembered (discv4.md, "Endpoint Proof"), each table bounded in size and age:
 * - bonds: a node id at an ip:port answered our PING with a PONG echoing its hash within the last 12 h; only
 *   bonded senders get NEIGHBOURS or our record, so a forged source address cannot aim our answers at a victim;
 * - pings we sent and await a PONG for, so an unsolicited PONG proves nothing;
 * - endpoints whose PING we answered: they hold a bond for us, so a FINDNODE of ours will be answered;
 * - FINDNODEs and ENRRequests we sent, so only answers we asked for are taken (an unsolicited NEIGHBOURS would
 *   otherwise have us ping whatever nodes a stranger lists).
 */
import { bytesToHex } from '@ethereumjs/util';

export const BOND_MS = 12 * 60 * 60 * 1000;
/** A PONG or ENRResponse later than this is not taken (the library gives up on a PING after 4 s). */
export const REPLY_MS = 5_000;
/** NEIGHBOURS to one FINDNODE are taken for this long (they may come as several packets). */
const NEIGHBOURS_MS = 5_000;
/** discv4 answers a FINDNODE with at most a bucket's worth of nodes. */
const NODES_PER_FINDNODE = 16;
/** Per table: past it the entry set longest ago goes first. */
const MAX_BONDS = 8_192;
const MAX_PENDING = 8_192;
/** Outstanding PINGs kept per endpoint: the PONG must echo one of the most recent. */
const PINGS_PER_ENDPOINT = 4;

/** A Map with a size bound and an age limit: entries past their age are gone, the oldest go first when full. */
export class AgingMap<K, V> {
  readonly #entries = new Map<K, { value: V; until: number }>();
  constructor(
    readonly max: number,
    readonly ttlMs: number,
  ) {}
  get size(): number {
    return this.#entries.size;
  }
  get(key: K, now: number): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > now) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }
  set(key: K, value: V, now: number): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value as K);
    this.#entries.set(key, { value, until: now + this.ttlMs });
  }
  delete(key: K): void {
    this.#entries.delete(key);
  }
}

export const endpointKey = (address: string, port: number): string => `${address}:${port}`;

export class EndpointProof {
  readonly #bonds = new AgingMap<string, true>(MAX_BONDS, BOND_MS);
  readonly #answered = new AgingMap<string, true>(MAX_BONDS, BOND_MS);
  readonly #pings = new AgingMap<string, string[]>(MAX_PENDING, REPLY_MS);
  readonly #finds = new AgingMap<string, { left: number }>(MAX_PENDING, NEIGHBOURS_MS);
  readonly #enrRequests = new AgingMap<string, string>(MAX_PENDING, REPLY_MS);

  isBonded(sender: Uint8Array, endpoint: string, now: number): boolean {
    return this.#bonds.get(`${bytesToHex(sender)}@${endpoint}`, now) === true;
  }

  pingSent(endpoint: string, hash: Uint8Array, now: number): void {
    const hashes = (this.#pings.get(endpoint, now) ?? []).slice(-(PINGS_PER_ENDPOINT - 1));
    this.#pings.set(endpoint, [...hashes, bytesToHex(hash)], now);
  }

  pingPending(endpoint: string, now: number): boolean {
    return this.#pings.get(endpoint, now) !== undefined;
  }

  /** A PONG from `endpoint`: true (and the sender bonded) if it echoes a PING we sent there. */
  pongReceived(sender: Uint8Array, endpoint: string, pingHash: unknown, now: number): boolean {
    const hashes = this.#pings.get(endpoint, now);
    if (hashes === undefined || !(pingHash instanceof Uint8Array) || !hashes.includes(bytesToHex(pingHash)))
      return false;
    this.#pings.delete(endpoint);
    this.#bonds.set(`${bytesToHex(sender)}@${endpoint}`, true, now);
    return true;
  }

  pingAnswered(endpoint: string, now: number): void {
    this.#answered.set(endpoint, true, now);
  }

  /** We answered a PING from `endpoint` lately: it holds a bond for us and will answer a FINDNODE. */
  bondedByThem(endpoint: string, now: number): boolean {
    return this.#answered.get(endpoint, now) === true;
  }

  findSent(endpoint: string, now: number): void {
    this.#finds.set(endpoint, { left: NODES_PER_FINDNODE }, now);
  }

  /** NEIGHBOURS listing `count` nodes from `endpoint`: true if they answer a FINDNODE of ours and fit in it. */
  takeNeighbours(endpoint: string, count: number, now: number): boolean {
    const find = this.#finds.get(endpoint, now);
    if (find === undefined || count > find.left) return false;
    find.left -= count;
    return true;
  }

  enrRequested(endpoint: string, hash: Uint8Array, now: number): void {
    this.#enrRequests.set(endpoint, bytesToHex(hash), now);
  }

  /** An ENRResponse from `endpoint`: true if it echoes the ENRRequest we sent there. */
  takeEnrResponse(endpoint: string, requestHash: unknown, now: number): boolean {
    const expected = this.#enrRequests.get(endpoint, now);
    if (expected === undefined || !(requestHash instanceof Uint8Array) || bytesToHex(requestHash) !== expected)
      return false;
    this.#enrRequests.delete(endpoint);
    return true;
  }
}
