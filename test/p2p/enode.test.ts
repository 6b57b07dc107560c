import { describe, expect, it } from 'vitest';
import { formatEnode, isValidNodeId, parseEnode } from '../../src/p2p/enode.js';
import { nodeIdOf } from '../../src/p2p/node-key.js';
import { PeerInputError } from '../../src/p2p/types.js';

const KEY = Uint8Array.from(Buffer.from('b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291', 'hex'));
const ID = nodeIdOf(KEY);
const ID_HEX = Buffer.from(ID).toString('hex');
/** 64 bytes that are not a curve point: x = 1, y = 1. */
const OFF_CURVE_HEX = '00'.repeat(31) + '01' + '00'.repeat(31) + '01';

function rejection(url: string): string {
  try {
    parseEnode(url);
  } catch (err) {
    expect(err).toBeInstanceOf(PeerInputError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${url}`);
}

describe('parseEnode', () => {
  it('parses an IPv4 enode', () => {
    const e = parseEnode(`enode://${ID_HEX}@127.0.0.1:30303`);
    expect(Buffer.from(e.id).toString('hex')).toBe(ID_HEX);
    expect(e.host).toBe('127.0.0.1');
    expect(e.port).toBe(30303);
  });

  it('accepts upper-case hex, surrounding spaces, and keeps ?discport as the UDP port', () => {
    const e = parseEnode(`  enode://${ID_HEX.toUpperCase()}@10.0.0.5:9076?discport=30301 `);
    expect(Buffer.from(e.id).toString('hex')).toBe(ID_HEX);
    expect(e).toMatchObject({ host: '10.0.0.5', port: 9076, udpPort: 30301 });
    expect(formatEnode(e)).toBe(`enode://${ID_HEX}@10.0.0.5:9076?discport=30301`);
  });

  it('parses bracketed IPv6 and host names', () => {
    expect(parseEnode(`enode://${ID_HEX}@[::1]:30303`)).toMatchObject({ host: '::1', port: 30303 });
    expect(parseEnode(`enode://${ID_HEX}@[2001:DB8::7]:1`)).toMatchObject({ host: '2001:db8::7', port: 1 });
    expect(parseEnode(`enode://${ID_HEX}@boot-1.Example.org:65535`)).toMatchObject({
      host: 'boot-1.example.org',
      port: 65535,
    });
  });

  it('names each problem', () => {
    expect(rejection(`${ID_HEX}@127.0.0.1:30303`)).toMatch(/missing enode:\/\/ scheme/);
    expect(rejection(`http://${ID_HEX}@127.0.0.1:30303`)).toMatch(/missing enode:\/\/ scheme/);
    expect(rejection(`enode://${ID_HEX}`)).toMatch(/no @host:port/);
    expect(rejection(`enode://${ID_HEX.slice(2)}@127.0.0.1:30303`)).toMatch(/128 hex digits.*126 characters/);
    expect(rejection(`enode://${ID_HEX.slice(1)}g@127.0.0.1:30303`)).toMatch(/128 hex digits/);
    expect(rejection(`enode://0x${ID_HEX}@127.0.0.1:30303`)).toMatch(/128 hex digits/);
    expect(rejection(`enode://${OFF_CURVE_HEX}@127.0.0.1:30303`)).toMatch(/not a valid secp256k1 public key/);
    expect(rejection(`enode://${ID_HEX}@127.0.0.1`)).toMatch(/no :port/);
    expect(rejection(`enode://${ID_HEX}@127.0.0.1:`)).toMatch(/no port/);
    expect(rejection(`enode://${ID_HEX}@127.0.0.1:0`)).toMatch(/port 0 is outside 1–65535/);
    expect(rejection(`enode://${ID_HEX}@127.0.0.1:65536`)).toMatch(/port 65536 is outside/);
    expect(rejection(`enode://${ID_HEX}@127.0.0.1:30x`)).toMatch(/port "30x" is not a number/);
    expect(rejection(`enode://${ID_HEX}@:30303`)).toMatch(/no host/);
    expect(rejection(`enode://${ID_HEX}@::1:30303`)).toMatch(/IPv6 host must be written in brackets/);
    expect(rejection(`enode://${ID_HEX}@[::1:30303`)).toMatch(/unclosed \[/);
    expect(rejection(`enode://${ID_HEX}@[nothost]:30303`)).toMatch(/not an IPv6 address/);
    expect(rejection(`enode://${ID_HEX}@[::1]30303`)).toMatch(/no :port/);
    expect(rejection(`enode://${ID_HEX}@999.1.1.1:30303`)).toMatch(/not an IP address or host name/);
    expect(rejection(`enode://${ID_HEX}@bad_host!:30303`)).toMatch(/not an IP address or host name/);
    expect(rejection(`enode://${ID_HEX}@127.0.0.1:30303?discport=abc`)).toMatch(/discport "abc" is not a number/);
    expect(rejection(`enode://${ID_HEX}@127.0.0.1:30303?foo=1`)).toMatch(/unsupported enode URL parameter "foo"/);
  });
});

describe('formatEnode', () => {
  it('round-trips IPv4, IPv6 (in brackets) and host names', () => {
    for (const host of ['127.0.0.1', '::1', '2001:db8::7', 'node.example']) {
      const url = formatEnode({ id: ID, host, port: 30303 });
      expect(url).toBe(`enode://${ID_HEX}@${host.includes(':') ? `[${host}]` : host}:30303`);
      expect(parseEnode(url)).toEqual({ id: ID, host, port: 30303 });
    }
  });

  it('formats a subarray id correctly', () => {
    const backing = new Uint8Array(70);
    backing.set(ID, 3);
    expect(formatEnode({ id: backing.subarray(3, 67), host: '1.2.3.4', port: 1 })).toBe(`enode://${ID_HEX}@1.2.3.4:1`);
  });
});

describe('isValidNodeId', () => {
  it('accepts a real public key and rejects off-curve or wrong-length ids', () => {
    expect(isValidNodeId(ID)).toBe(true);
    expect(isValidNodeId(Buffer.from(OFF_CURVE_HEX, 'hex'))).toBe(false);
    expect(isValidNodeId(ID.subarray(0, 63))).toBe(false);
  });
});
