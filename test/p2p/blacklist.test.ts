import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Blacklist, blacklistKey, normaliseIp } from '../../src/p2p/blacklist.js';
import { PeerInputError } from '../../src/p2p/types.js';

const root = mkdtempSync(join(tmpdir(), 'svc-blacklist-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshFile = () => join(root, `d${n++}`, 'blacklist.json');

const NODE_ID = 'ab'.repeat(64);

/** A clock the test moves by hand. */
function clock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('normaliseIp', () => {
  it('maps every spelling of an address to one form', () => {
    expect(normaliseIp('127.0.0.1')).toBe('127.0.0.1');
    expect(normaliseIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normaliseIp('::FFFF:7f00:1')).toBe('127.0.0.1');
    expect(normaliseIp('[::ffff:10.1.2.3]')).toBe('10.1.2.3');
    expect(normaliseIp('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(normaliseIp('[2001:DB8:0:0::1]')).toBe('2001:db8::1');
    expect(normaliseIp('fe80::1%eth0')).toBe('fe80::1');
    expect(normaliseIp(' Host.Example ')).toBe('host.example');
  });

  it('leaves non-mapped IPv6 that merely contains ffff alone', () => {
    expect(normaliseIp('::ffff')).toBe('::ffff');
    expect(normaliseIp('ffff::1')).toBe('ffff::1');
  });
});

describe('blacklistKey', () => {
  it('accepts IPs and node ids (0x and upper case allowed) and rejects anything else', () => {
    expect(blacklistKey('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(blacklistKey('0x' + NODE_ID.toUpperCase())).toBe(NODE_ID);
    expect(blacklistKey('host.example')).toBeUndefined();
    expect(blacklistKey('ab'.repeat(63))).toBeUndefined();
    expect(blacklistKey('1.2.3.4:30303')).toBeUndefined();
  });
});

describe('Blacklist', () => {
  it('blocks listed IPs and node ids, and only those', () => {
    const list = Blacklist.open(freshFile());
    list.add('10.0.0.1', null, 'spam');
    list.add(NODE_ID, 60, 'bad blocks');
    expect(list.blocking('10.0.0.1', undefined)?.reason).toBe('spam');
    expect(list.blocking('::ffff:10.0.0.1', undefined)?.reason).toBe('spam');
    expect(list.blocking(undefined, NODE_ID.toUpperCase())?.reason).toBe('bad blocks');
    expect(list.blocking('10.0.0.2', 'cd'.repeat(64))).toBeUndefined();
    expect(list.blocking('10.0.0.2', NODE_ID)?.id).toBe(NODE_ID);
    expect(list.blocking(undefined, undefined)).toBeUndefined();
    expect(list.blocking('some.host', undefined)).toBeUndefined();
  });

  it('stores IPv4-mapped addresses as IPv4, so either spelling matches', () => {
    const list = Blacklist.open(freshFile());
    expect(list.add('::ffff:127.0.0.1', null, 'x').id).toBe('127.0.0.1');
    expect(list.blocking('127.0.0.1', undefined)).toBeDefined();
  });

  it('expires temporary entries and keeps permanent ones', () => {
    const c = clock();
    const list = Blacklist.open(freshFile(), c.now);
    const temp = list.add('1.1.1.1', 30, 'short');
    expect(temp).toEqual({ id: '1.1.1.1', reason: 'short', addedAt: c.now(), expiresAt: c.now() + 30_000 });
    list.add('2.2.2.2', null, 'forever');
    c.advance(29_999);
    expect(list.blocking('1.1.1.1', undefined)).toBeDefined();
    c.advance(1);
    expect(list.blocking('1.1.1.1', undefined)).toBeUndefined();
    expect(list.entries().map((e) => e.id)).toEqual(['2.2.2.2']);
    c.advance(10 ** 12);
    expect(list.blocking('2.2.2.2', undefined)?.expiresAt).toBeNull();
    // Removing an expired entry reports nothing removed.
    expect(list.remove('1.1.1.1')).toBe(false);
  });

  it('replaces an existing entry, and removes by either spelling', () => {
    const c = clock();
    const list = Blacklist.open(freshFile(), c.now);
    list.add('3.3.3.3', 10, 'first');
    c.advance(5);
    list.add('::ffff:3.3.3.3', null, 'second');
    expect(list.entries()).toEqual([{ id: '3.3.3.3', reason: 'second', addedAt: c.now(), expiresAt: null }]);
    expect(list.remove('::ffff:3.3.3.3')).toBe(true);
    expect(list.remove('3.3.3.3')).toBe(false);
    expect(list.remove('not an address')).toBe(false);
    expect(list.entries()).toEqual([]);
  });

  it('rejects unusable addresses and durations with PeerInputError', () => {
    const list = Blacklist.open(freshFile());
    expect(() => list.add('host.example', 10, 'x')).toThrow(PeerInputError);
    expect(() => list.add('1.2.3.4:30303', 10, 'x')).toThrow(/neither an IP address nor a node id/);
    expect(() => list.add('1.2.3.4', 0, 'x')).toThrow(/positive number of seconds/);
    expect(() => list.add('1.2.3.4', -5, 'x')).toThrow(PeerInputError);
    expect(() => list.add('1.2.3.4', Number.NaN, 'x')).toThrow(PeerInputError);
    expect(() => list.add('1.2.3.4', Infinity, 'x')).toThrow(PeerInputError);
    expect(list.entries()).toEqual([]);
  });

  it('survives a restart: the file (mode 0600) is reread, expired entries dropped', () => {
    const c = clock();
    const file = freshFile();
    const list = Blacklist.open(file, c.now);
    list.add('4.4.4.4', null, 'permanent');
    list.add(NODE_ID, 100, 'temporary');
    list.add('5.5.5.5', 50, 'removed');
    list.remove('5.5.5.5');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Atomic writes leave no temporary file behind.
    expect(readdirSync(join(file, '..'))).toEqual(['blacklist.json']);

    const reopened = Blacklist.open(file, c.now);
    expect(reopened.entries()).toEqual(list.entries());
    expect(reopened.entries().map((e) => e.id)).toEqual(['4.4.4.4', NODE_ID]);
    c.advance(100_000);
    expect(
      Blacklist.open(file, c.now)
        .entries()
        .map((e) => e.id),
    ).toEqual(['4.4.4.4']);
  });

  it('starts empty without a file, and writes nothing until something changes', () => {
    const file = freshFile();
    const list = Blacklist.open(file);
    expect(list.entries()).toEqual([]);
    expect(list.blocking('1.2.3.4', NODE_ID)).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a malformed file with an error naming it', () => {
    const file = freshFile();
    Blacklist.open(file).add('1.2.3.4', null, 'x');
    const cases: Array<[string, RegExp]> = [
      ['{not json', /is not valid JSON/],
      ['{"version":1}', /no "entries" array/],
      ['null', /no "entries" array/],
      ['{"entries":[{"id":"1.2.3.4","reason":"x","addedAt":"yesterday","expiresAt":null}]}', /entry 0 is not/],
      ['{"entries":[{"id":"nope","reason":"x","addedAt":1,"expiresAt":null}]}', /entry 0 is not/],
    ];
    for (const [text, pattern] of cases) {
      writeFileSync(file, text);
      expect(() => Blacklist.open(file)).toThrow(pattern);
      expect(() => Blacklist.open(file)).toThrow(file);
    }
  });

  it('writes a readable JSON document', () => {
    const file = freshFile();
    const c = clock(1000);
    Blacklist.open(file, c.now).add('6.6.6.6', 1, 'why');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      entries: [{ id: '6.6.6.6', reason: 'why', addedAt: 1000, expiresAt: 2000 }],
    });
  });
});
