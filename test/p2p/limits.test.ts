/**
 * The peer limit and the message-size limit, on a real node: with `--maxpeers 1` a second peer is turned away
 * before its handshake while the first stays; a message whose snappy header claims more than the eth message
 * limit is refused without being decompressed (the peer is dropped, the node keeps serving).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_SIZE, EthCode } from '../../src/p2p/eth/messages.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { SOCKET_CLOSED_BEFORE_HANDSHAKE, TestPeer } from '../helpers/test-peer.js';
import { call, waitFor } from './multi-node-fixture.js';

/** A snappy block header (little-endian base-128 varint of the uncompressed length) with nothing behind it. */
function snappyHeaderClaiming(length: number): Uint8Array {
  const out: number[] = [];
  let rest = length;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return Uint8Array.from(out);
}

describe('peer and message limits', () => {
  let node: NodeProcess;
  const peers: TestPeer[] = [];

  beforeAll(async () => {
    node = await startNode({ args: ['--no-mine', '--maxpeers', '1', '--log-level', 'debug'] });
  });

  afterAll(async () => {
    await Promise.all(peers.map((p) => p.destroy().catch(() => undefined)));
    await node?.stop();
  });

  const dial = async () => {
    const peer = await TestPeer.dial(node.enode!);
    peers.push(peer);
    return peer;
  };

  it('--maxpeers 1: a second peer is closed before any handshake byte while the first stays linked', async () => {
    const first = await dial();
    await first.nodeStatus;
    await waitFor(
      async () => (await call<string>(node.url, 'net_peerCount')) === '0x1',
      'the first peer to be handshaked',
      { node },
    );

    const second = await dial();
    const closed = await second.closed;
    expect(closed).toMatchObject({ name: SOCKET_CLOSED_BEFORE_HANDSHAKE, bytesReceived: 0 });
    expect(await call(node.url, 'net_peerCount')).toBe('0x1');

    await first.destroy();
    await waitFor(async () => (await call<string>(node.url, 'net_peerCount')) === '0x0', 'the first peer to be gone', {
      node,
    });
  });

  it('a message claiming to decompress past the limit drops the peer without allocating it; RPC still answers', async () => {
    const peer = await dial();
    await peer.nodeStatus;
    await waitFor(async () => (await call<string>(node.url, 'net_peerCount')) === '0x1', 'the peer to be handshaked', {
      node,
    });
    // 4 GiB - 1 claimed in five bytes: decompressing it as the library would means allocating it.
    expect(peer.link.sendFramed('eth', EthCode.GetBlockHeaders, snappyHeaderClaiming(2 ** 32 - 1))).toBe(true);
    const closed = await peer.closed;
    expect(closed.byUs).toBe(false);
    expect(closed.name).not.toBe(SOCKET_CLOSED_BEFORE_HANDSHAKE);
    expect(await call(node.url, 'eth_blockNumber')).toBe('0x0');
    const why = node.logs.find((e) => e.msg === 'p2p link error' && e.nodeId === peer.nodeId);
    expect(why?.error).toBe(`message would decompress to ${2 ** 32 - 1} bytes (limit ${MAX_MESSAGE_SIZE})`);
  });
});
