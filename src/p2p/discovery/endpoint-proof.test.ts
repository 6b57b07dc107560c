import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AgingMap, BOND_MS, EndpointProof, REPLY_MS } from './endpoint-proof.js';

describe('the endpoint proof tables', () => {
  it('hold at most their bound, the entry set longest ago going first, and forget entries past their age', () => {
    const map = new AgingMap<number, number>(3, 1_000);
    for (let i = 0; i < 5; i++) map.set(i, i, 0);
    expect(map.size).toBe(3);
    expect([0, 1, 2, 3, 4].map((k) => map.get(k, 0))).toEqual([undefined, undefined, 2, 3, 4]);
    expect(map.get(4, 999)).toBe(4);
    expect(map.get(4, 1_000)).toBeUndefined();
  });

  it('bonds a sender only by a PONG from the endpoint pinged, echoing that PING, for 12 hours', () => {
    const proof = new EndpointProof();
    const id = randomBytes(64);
    const ping = randomBytes(32);
    proof.pingSent('127.0.0.1:1', ping, 0);
    expect(proof.pongReceived(id, '127.0.0.1:2', ping, 1)).toBe(false);
    expect(proof.pongReceived(id, '127.0.0.1:1', randomBytes(32), 1)).toBe(false);
    expect(proof.pongReceived(id, '127.0.0.1:1', ping, REPLY_MS)).toBe(false);
    proof.pingSent('127.0.0.1:1', ping, 0);
    expect(proof.pongReceived(id, '127.0.0.1:1', ping, 1)).toBe(true);
    expect(proof.isBonded(id, '127.0.0.1:1', BOND_MS)).toBe(true);
    expect(proof.isBonded(randomBytes(64), '127.0.0.1:1', 2)).toBe(false);
    expect(proof.isBonded(id, '127.0.0.1:1', BOND_MS + 1)).toBe(false);
  });

  it('takes NEIGHBOURS only after a FINDNODE to that endpoint, and at most 16 nodes for it', () => {
    const proof = new EndpointProof();
    expect(proof.takeNeighbours('127.0.0.1:1', 1, 0)).toBe(false);
    proof.findSent('127.0.0.1:1', 0);
    expect(proof.takeNeighbours('127.0.0.1:2', 1, 0)).toBe(false);
    expect(proof.takeNeighbours('127.0.0.1:1', 12, 0)).toBe(true);
    expect(proof.takeNeighbours('127.0.0.1:1', 5, 0)).toBe(false);
    expect(proof.takeNeighbours('127.0.0.1:1', 4, 0)).toBe(true);
  });
});
